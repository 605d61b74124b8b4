import type { z } from 'zod';
import type { ApiError as ApiErrorShape } from '../../shared/api/parameter-error';
import { describeParameterError } from '../../shared/api/parameter-error';
import { ERROR_CODES } from '../../shared/api/error-codes';

/** One order of a batch after its own checks: the engine's input, or the refusal for its slot. */
export type ItemCheck<T> =
  { ok: true; value: T } | { ok: false; error: ApiErrorShape; clientOid: string | null };

/** Checks one order of a batch against its schema; a refusal names the order's place in the batch. */
export function checkItem<S extends z.ZodType>(
  schema: S,
  item: unknown,
  version: 'v2' | 'v3',
  prefix: string,
): ItemCheck<z.output<S>> {
  const result = schema.safeParse(item, { reportInput: true });
  if (result.success) return { ok: true, value: result.data };
  const error = describeParameterError(result.error, version);
  const clientOid =
    typeof item === 'object' &&
    item !== null &&
    typeof (item as { clientOid?: unknown }).clientOid === 'string'
      ? ((item as { clientOid: string }).clientOid ?? null)
      : null;
  return {
    ok: false,
    clientOid,
    error: { code: error.code, msg: error.msg.replace(/Parameter /, `Parameter ${prefix}`) },
  };
}

export function missingPrice(version: 'v2' | 'v3', name: string): ApiErrorShape {
  return version === 'v2'
    ? {
        code: ERROR_CODES.paramEmpty.code,
        msg: `Parameter ${name} cannot be empty: a limit order needs a price`,
      }
    : { code: ERROR_CODES.paramVerifyV3.code, msg: `Parameter verification failed ${name} cannot be empty` };
}
