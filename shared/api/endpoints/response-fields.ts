// Field schemas of responses, tolerant of what the live exchange actually sends.
import { z } from 'zod';
import { MARGIN_MODES, SIDES } from '../enums';

/** A price or size sent as a string or (as live merge-depth does) a JSON number; output text. */
export const decimalText = z.union([z.string(), z.number().transform((value) => String(value))]);

/** A list that the live exchange sends as `null` when it is empty. */
export function listOrEmpty<T extends z.ZodType>(item: T) {
  return z
    .array(item)
    .nullable()
    .transform((list) => list ?? []);
}

/** One of `values`, or `""` where the spec says the field may be empty. */
export function enumOrEmpty<const T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.enum(values), z.literal('')]);
}

/** `crossed` or `isolated`; one live sample spells the first `cross`. */
export const marginModeText = z.union([
  z.enum(MARGIN_MODES),
  z.literal('cross').transform(() => 'crossed' as const),
]);

/** `buy`/`sell`; public fills are sampled as `Buy`/`Sell`. */
export const sideText = z
  .string()
  .transform((raw) => raw.toLowerCase())
  .pipe(z.enum(SIDES));
