import type { z } from 'zod';
import type { ApiVersion } from './endpoint';
import { ERROR_CODES, formatMessage } from './error-codes';

export interface ApiError {
  readonly code: string;
  readonly msg: string;
}

/**
 * A schema refinement may name the exact exchange error it stands for by putting
 * `{ errorCode, errorMsg }` in the issue's `params`; the mapper then uses it as is.
 */
export interface IssueParams {
  readonly errorCode?: string;
  readonly errorMsg?: string;
}

/** Turns the first issue of a failed request parse into the live exchange's code and text. */
export function describeParameterError(error: z.ZodError, version: ApiVersion): ApiError {
  const issue = error.issues[0];
  if (issue === undefined)
    return { code: ERROR_CODES.paramVerifyV2.code, msg: 'Parameter verification failed' };
  const params = (issue.code === 'custom' ? issue.params : undefined) as IssueParams | undefined;
  if (params?.errorCode !== undefined) {
    return { code: params.errorCode, msg: params.errorMsg ?? issue.message };
  }
  const name = parameterName(issue.path);
  // Parse with `{ reportInput: true }` so a missing value is told apart from a wrong one.
  const missing =
    issue.code === 'invalid_type' &&
    (issue.input === undefined || issue.message.endsWith('received undefined'));
  if (version === 'v3') {
    const detail = missing ? `${name} cannot be empty` : `${name}: ${issue.message}`;
    return {
      code: ERROR_CODES.paramVerifyV3.code,
      msg: formatMessage(ERROR_CODES.paramVerifyV3.msg, detail),
    };
  }
  if (missing)
    return { code: ERROR_CODES.paramEmpty.code, msg: formatMessage(ERROR_CODES.paramEmpty.msg, name) };
  if (issue.path.length === 0) {
    return {
      code: ERROR_CODES.paramVerifyV2.code,
      msg: formatMessage(ERROR_CODES.paramVerifyV2.msg, issue.message),
    };
  }
  return {
    code: ERROR_CODES.paramError.code,
    msg: `${formatMessage(ERROR_CODES.paramError.msg, name)}: ${issue.message}`,
  };
}

/** `orderList[3].price` style name of the offending parameter. */
function parameterName(path: ReadonlyArray<PropertyKey>): string {
  let name = '';
  for (const part of path) {
    if (typeof part === 'number') name += `[${part}]`;
    else name += name.length === 0 ? String(part) : `.${String(part)}`;
  }
  return name.length === 0 ? 'body' : name;
}
