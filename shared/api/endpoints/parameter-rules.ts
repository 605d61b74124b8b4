// Cross-field rules (one field required when another is set, time windows) report the same
// code and text that `describeParameterError` gives for a single field, by naming them in the
// issue's params.
import type { z } from 'zod';
import type { ApiVersion } from '../endpoint';
import { ERROR_CODES, formatMessage } from '../error-codes';
import type { IssueParams } from '../parameter-error';

export const DAY_MS = 24 * 60 * 60 * 1000;

type IssuePath = ReadonlyArray<string | number>;

/** `orderList[3].price` style name, as `describeParameterError` writes it. */
function parameterName(path: IssuePath): string {
  let name = '';
  for (const part of path) {
    if (typeof part === 'number') name += `[${part}]`;
    else name += name.length === 0 ? part : `.${part}`;
  }
  return name.length === 0 ? 'body' : name;
}

function addIssue(
  ctx: z.RefinementCtx,
  path: IssuePath,
  message: string,
  params: Required<IssueParams>,
): void {
  ctx.addIssue({ code: 'custom', message, path: [...path], params });
}

/**
 * A parameter that the other parameters make required. `name` overrides the name derived
 * from `path` when the rule concerns several fields ("orderId or clientOid").
 */
export function reportMissing(
  ctx: z.RefinementCtx,
  version: ApiVersion,
  path: IssuePath,
  name?: string,
): void {
  const shown = name ?? parameterName(path);
  if (version === 'v3') {
    const errorMsg = formatMessage(ERROR_CODES.paramVerifyV3.msg, `${shown} cannot be empty`);
    addIssue(ctx, path, `${shown} cannot be empty`, { errorCode: ERROR_CODES.paramVerifyV3.code, errorMsg });
    return;
  }
  const errorMsg = formatMessage(ERROR_CODES.paramEmpty.msg, shown);
  addIssue(ctx, path, `${shown} cannot be empty`, { errorCode: ERROR_CODES.paramEmpty.code, errorMsg });
}

/** A parameter whose value does not fit with the others. */
export function reportInvalid(
  ctx: z.RefinementCtx,
  version: ApiVersion,
  path: IssuePath,
  reason: string,
): void {
  const name = parameterName(path);
  if (version === 'v3') {
    const errorMsg = formatMessage(ERROR_CODES.paramVerifyV3.msg, `${name}: ${reason}`);
    addIssue(ctx, path, reason, { errorCode: ERROR_CODES.paramVerifyV3.code, errorMsg });
    return;
  }
  const errorMsg = `${formatMessage(ERROR_CODES.paramError.msg, name)}: ${reason}`;
  addIssue(ctx, path, reason, { errorCode: ERROR_CODES.paramError.code, errorMsg });
}

export interface TimeWindow {
  readonly startTime?: number | undefined;
  readonly endTime?: number | undefined;
}

export interface WindowLimit {
  readonly maxSpanMs: number;
  /** How the limit reads in an error: "7 days". */
  readonly label: string;
}

/** startTime must not follow endTime, and the two may be at most `limit.maxSpanMs` apart. */
export function checkTimeWindow(
  ctx: z.RefinementCtx,
  version: ApiVersion,
  window: TimeWindow,
  limit: WindowLimit,
): void {
  const { startTime, endTime } = window;
  if (startTime === undefined || endTime === undefined) return;
  if (startTime > endTime) {
    reportInvalid(ctx, version, ['startTime'], 'startTime must not be after endTime');
  } else if (endTime - startTime > limit.maxSpanMs) {
    reportInvalid(
      ctx,
      version,
      ['endTime'],
      `the range between startTime and endTime must not exceed ${limit.label}`,
    );
  }
}

/**
 * When only one end of the window is given, the other lies one full span away (spec E4, E13,
 * E17). With neither given, the window stays open and the reader picks "now".
 */
export function completeTimeWindow<T extends TimeWindow>(query: T, maxSpanMs: number): T {
  const { startTime, endTime } = query;
  if (startTime !== undefined && endTime === undefined) return { ...query, endTime: startTime + maxSpanMs };
  if (endTime !== undefined && startTime === undefined) {
    return { ...query, startTime: Math.max(0, endTime - maxSpanMs) };
  }
  return query;
}
