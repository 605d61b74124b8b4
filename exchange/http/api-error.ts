import { ERROR_CODES, formatMessage } from '../../shared/api/error-codes';
import type { ErrorName } from '../../shared/api/error-codes';

/** An answer the exchange gives on purpose: its code and text go into the envelope as they are. */
export class ApiError extends Error {
  readonly code: string;
  readonly httpStatus: number;

  constructor(code: string, msg: string, httpStatus = 400) {
    super(msg);
    this.name = 'ApiError';
    this.code = code;
    this.httpStatus = httpStatus;
  }

  get msg(): string {
    return this.message;
  }
}

/** An error of the `ERROR_CODES` table, its `{0}`, `{1}`… filled with `args`. */
export function apiError(name: ErrorName, ...args: ReadonlyArray<string | number>): ApiError {
  const entry = ERROR_CODES[name];
  return new ApiError(entry.code, formatMessage(entry.msg, ...args));
}

/** Same as `apiError`, with an HTTP status other than 400. */
export function apiErrorWithStatus(
  httpStatus: number,
  name: ErrorName,
  ...args: ReadonlyArray<string | number>
): ApiError {
  const entry = ERROR_CODES[name];
  return new ApiError(entry.code, formatMessage(entry.msg, ...args), httpStatus);
}
