import { z } from 'zod';
import { SUCCESS_CODE } from './error-codes';

/** Every answer of the API: `{code, msg, requestTime, data}`. */
export const envelopeSchema = z.object({
  code: z.string(),
  msg: z.string(),
  requestTime: z.number(),
  data: z.unknown(),
});
export type Envelope<T = unknown> = { code: string; msg: string; requestTime: number; data: T };

export function successEnvelope<T>(data: T, requestTime: number): Envelope<T> {
  return { code: SUCCESS_CODE, msg: 'success', requestTime, data };
}

export function errorEnvelope(code: string, msg: string, requestTime: number): Envelope<null> {
  return { code, msg, requestTime, data: null };
}
