import type { ApiVersion } from '../../shared/api/endpoint';
import { ERROR_CODES } from '../../shared/api/error-codes';
import { EngineError } from '../engine/errors';
import { ApiError } from '../http/api-error';

/** v2 codes of the engine that v3 endpoints spell differently (exchange-facts.md). */
const V3_CODES: Record<string, string> = {
  [ERROR_CODES.symbolNotExistV2.code]: ERROR_CODES.symbolNotExistV3.code,
  [ERROR_CODES.orderNotExistV2.code]: ERROR_CODES.orderNotExistV3.code,
  [ERROR_CODES.duplicateClientOidV2.code]: ERROR_CODES.duplicateClientOidV3.code,
  [ERROR_CODES.paramError.code]: ERROR_CODES.paramVerifyV3.code,
  [ERROR_CODES.paramEmpty.code]: ERROR_CODES.paramVerifyV3.code,
};

export function codeFor(code: string, version: ApiVersion): string {
  return version === 'v3' ? (V3_CODES[code] ?? code) : code;
}

/** Runs an engine call, turning its refusals into the API's error answer. */
export async function engineCall<T>(version: ApiVersion, call: () => Promise<T> | T): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof EngineError) throw new ApiError(codeFor(error.code, version), error.msg);
    throw error;
  }
}
