import { z } from 'zod';
import type { util } from 'zod/v4/core';
import { PRODUCT_TYPES, YES_NO } from './enums';

/** A request value as it arrives: query parameters are strings, JSON bodies may hold numbers or null. */
export type WireValue = string | number | null | undefined;

/**
 * Live clients send `""` (and some `null`) for parameters they leave out, so both count as
 * absent; a JSON number becomes its decimal text, so `0.1` and `"0.1"` are checked alike.
 */
function fromWire(value: unknown): unknown {
  if (value === '' || value === null) return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return value;
}

function wire<T extends z.ZodType>(schema: T) {
  // The input type keeps the schema's own input (lists, objects) beside the wire forms.
  return z.preprocess((value: WireValue | z.input<T>) => fromWire(value), schema);
}

/** A field that may be left out (or sent as `""`/`null`): its output is then `undefined`. */
export function optionalField<T extends z.ZodType>(field: T) {
  return wire(field.optional());
}

/** A field that takes `value` when left out (or sent as `""`/`null`). */
export function fieldWithDefault<T extends z.ZodType>(field: T, value: util.NoUndefined<z.output<T>>) {
  return wire(z._default(field, value));
}

/**
 * One of `values`, in any letter case (`usdt-futures`, `Buy`); the output is the canonical
 * spelling. The string check comes first so a missing value reads as missing, not as wrong.
 */
export function ciEnum<const T extends readonly [string, ...string[]]>(values: T) {
  const canonical = new Map<string, string>(values.map((value) => [value.toLowerCase(), value]));
  const allowed = values.join(', ');
  return wire(
    z
      .string()
      .transform((raw) => canonical.get(raw.toLowerCase()) ?? raw)
      .pipe(z.enum(values, { error: () => `must be one of ${allowed}` })),
  );
}

export const productTypeField = ciEnum(PRODUCT_TYPES);

/** `YES`/`NO` in any case (`yes`, `No`), output upper case. */
export const yesNoField = ciEnum(YES_NO);

export const symbolField = wire(
  z
    .string()
    .transform((raw) => raw.toUpperCase())
    .pipe(z.string().regex(/^[A-Z0-9_]{1,40}$/, 'must be 1 to 40 letters, digits or _')),
);

export const coinField = wire(
  z
    .string()
    .transform((raw) => raw.toUpperCase())
    .pipe(z.string().regex(/^[A-Z0-9]{1,20}$/, 'must be 1 to 20 letters or digits')),
);

// Plain digits with an optional fraction: no sign, no exponent, no blanks. The text is kept as
// sent ("0.10" stays "0.10") because the exchange checks the number of decimals given.
const DECIMAL_TEXT = /^\d{1,20}(\.\d{1,20})?$/;
const DECIMAL_MESSAGE = 'must be a plain decimal number such as 0.5 (no sign, no exponent)';

function isZero(text: string): boolean {
  return /^[0.]*$/.test(text);
}

/** A positive decimal given as a string or a JSON number; the output is its text. */
export const decimalField = wire(
  z
    .string()
    .regex(DECIMAL_TEXT, DECIMAL_MESSAGE)
    .refine((text) => !isZero(text), 'must be greater than 0'),
);

/** A decimal that may be 0 (an execute price of 0 means market execution). */
export const nonNegativeDecimalField = wire(z.string().regex(DECIMAL_TEXT, DECIMAL_MESSAGE));

/** Unix time in milliseconds, digits only; the output is a number. */
export const timestampField = wire(
  z
    .string()
    .regex(/^\d{1,13}$/, 'must be a time in milliseconds (digits only)')
    .transform(Number),
);

/** A page size: digits, 1..max, `defaultValue` when left out; the output is a number. */
export function limitField(defaultValue: number, max: number) {
  const limit = wire(
    z
      .string()
      .regex(/^\d{1,9}$/, 'must be a whole number')
      .transform(Number)
      .pipe(z.number().min(1, 'must be at least 1').max(max, `must be at most ${max}`)),
  );
  return fieldWithDefault(limit, defaultValue);
}

/** A positive whole number kept as text, such as a leverage of "20". */
export const positiveIntegerTextField = wire(
  z.string().regex(/^[1-9]\d{0,5}$/, 'must be a positive whole number such as 20'),
);

/** v3 `clientOid` (spec E2 rule 1). */
export const v3ClientOidField = wire(
  z
    .string()
    .regex(
      /^[.A-Z:/a-z0-9_-]{1,32}$/,
      'must be 1 to 32 characters of letters, digits, period, colon, /, _ or -',
    ),
);

/** v2 `clientOid`: 1 to 64 printable characters, no spaces. */
export const v2ClientOidField = wire(
  z.string().regex(/^[\x21-\x7e]{1,64}$/, 'must be 1 to 64 printable characters without spaces'),
);

/** An order, position or user id: up to 20 digits, kept as text. */
export const idField = wire(z.string().regex(/^\d{1,20}$/, 'must be a numeric id of up to 20 digits'));

/** Free text up to `maxLength` characters (cursors, record types, labels). */
export function textField(maxLength: number) {
  return wire(z.string().max(maxLength, `must be at most ${maxLength} characters`));
}
