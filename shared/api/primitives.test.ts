import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PRODUCT_TYPES, SIDES } from './enums';
import { describeParameterError } from './parameter-error';
import {
  ciEnum,
  coinField,
  decimalField,
  fieldWithDefault,
  idField,
  limitField,
  nonNegativeDecimalField,
  optionalField,
  positiveIntegerTextField,
  symbolField,
  timestampField,
  v2ClientOidField,
  v3ClientOidField,
} from './primitives';

/** The exchange's answer to `{ value: input }` for a schema with one field `value`. */
function refusal(field: z.ZodType, input: unknown, version: 'v2' | 'v3' = 'v2') {
  const result = z.object({ value: field }).safeParse({ value: input }, { reportInput: true });
  if (result.success) throw new Error(`accepted ${JSON.stringify(input)}`);
  return describeParameterError(result.error, version);
}

function accepted(field: z.ZodType, input: unknown): unknown {
  return field.parse(input);
}

describe('ciEnum', () => {
  const productType = ciEnum(PRODUCT_TYPES);

  it('accepts any letter case and gives the canonical spelling', () => {
    expect(accepted(productType, 'usdt-futures')).toBe('USDT-FUTURES');
    expect(accepted(productType, 'Coin-Futures')).toBe('COIN-FUTURES');
    expect(accepted(ciEnum(SIDES), 'BUY')).toBe('buy');
  });

  it('refuses an unknown value with the allowed values in the message', () => {
    const error = refusal(productType, 'usdt-future');
    expect(error.code).toBe('40020');
    expect(error.msg).toContain('USDT-FUTURES, COIN-FUTURES, USDC-FUTURES');
  });

  it('reports a missing or empty value as missing, not as wrong', () => {
    expect(refusal(productType, undefined).code).toBe('40019');
    expect(refusal(productType, '').code).toBe('40019');
    expect(refusal(productType, '', 'v3').msg).toBe('Parameter verification failed value cannot be empty');
  });
});

describe('symbolField and coinField', () => {
  it('upper-case what they accept', () => {
    expect(accepted(symbolField, 'btcusdt')).toBe('BTCUSDT');
    expect(accepted(symbolField, 'btcusd_250926')).toBe('BTCUSD_250926');
    expect(accepted(coinField, 'usdt')).toBe('USDT');
  });

  it('refuse other characters and overlong names', () => {
    expect(refusal(symbolField, 'BTC-USDT').code).toBe('40020');
    expect(refusal(symbolField, 'A'.repeat(41)).code).toBe('40020');
    expect(refusal(coinField, 'US DT').code).toBe('40020');
    expect(refusal(coinField, 'A'.repeat(21)).code).toBe('40020');
  });
});

describe('decimalField', () => {
  it('keeps the text as sent, so the number of decimals can be checked later', () => {
    expect(accepted(decimalField, '0.10')).toBe('0.10');
    expect(accepted(decimalField, '26000')).toBe('26000');
  });

  it('turns a JSON number into its text', () => {
    expect(accepted(decimalField, 0.25)).toBe('0.25');
    expect(accepted(decimalField, 3)).toBe('3');
  });

  it.each(['-1', '+1', '1e5', '1E-3', 'NaN', 'abc', ' 1', '1.', '.5', '0', '0.000'])(
    'refuses %j',
    (input) => {
      expect(refusal(decimalField, input).code).toBe('40020');
    },
  );

  it('refuses numbers that only print in exponent notation, and empty input as missing', () => {
    expect(refusal(decimalField, 1e-7).code).toBe('40020');
    expect(refusal(decimalField, -2).code).toBe('40020');
    expect(refusal(decimalField, '').code).toBe('40019');
  });

  it('nonNegativeDecimalField allows zero', () => {
    expect(accepted(nonNegativeDecimalField, '0')).toBe('0');
    expect(accepted(nonNegativeDecimalField, 0)).toBe('0');
    expect(refusal(nonNegativeDecimalField, '-0.1').code).toBe('40020');
  });
});

describe('timestampField', () => {
  it('reads digits as milliseconds', () => {
    expect(accepted(timestampField, '1700000000000')).toBe(1_700_000_000_000);
    expect(accepted(timestampField, 1_700_000_000_000)).toBe(1_700_000_000_000);
  });

  it('refuses anything but digits', () => {
    expect(refusal(timestampField, '2023-11-14').code).toBe('40020');
    expect(refusal(timestampField, '1700000000000.5').code).toBe('40020');
    expect(refusal(timestampField, '-1').code).toBe('40020');
  });
});

describe('limitField', () => {
  const limit = z.object({ limit: limitField(20, 100) });

  it('applies the default when absent or empty', () => {
    expect(limit.parse({})).toEqual({ limit: 20 });
    expect(limit.parse({ limit: '' })).toEqual({ limit: 20 });
  });

  it('reads a number within 1..max', () => {
    expect(limit.parse({ limit: '1' })).toEqual({ limit: 1 });
    expect(limit.parse({ limit: '100' })).toEqual({ limit: 100 });
  });

  it.each(['0', '101', '-5', '2.5', 'ten'])('refuses %j', (input) => {
    expect(refusal(limitField(20, 100), input).code).toBe('40020');
  });
});

describe('client order ids', () => {
  it('v3 allows letters, digits and . : / _ - up to 32 characters', () => {
    expect(accepted(v3ClientOidField, 'abc.DEF:1/2_3-4')).toBe('abc.DEF:1/2_3-4');
    expect(accepted(v3ClientOidField, 'x'.repeat(32))).toBe('x'.repeat(32));
    expect(refusal(v3ClientOidField, 'bad oid!', 'v3').code).toBe('400172');
    expect(refusal(v3ClientOidField, 'x'.repeat(33), 'v3').code).toBe('400172');
  });

  it('v2 allows up to 64 printable characters without spaces', () => {
    expect(accepted(v2ClientOidField, 'my#order@1!')).toBe('my#order@1!');
    expect(accepted(v2ClientOidField, 'y'.repeat(64))).toBe('y'.repeat(64));
    expect(refusal(v2ClientOidField, 'has space').code).toBe('40020');
    expect(refusal(v2ClientOidField, 'y'.repeat(65)).code).toBe('40020');
  });
});

describe('idField and positiveIntegerTextField', () => {
  it('idField takes up to 20 digits', () => {
    expect(accepted(idField, '1234567890123456789')).toBe('1234567890123456789');
    expect(accepted(idField, 42)).toBe('42');
    expect(refusal(idField, '12a').code).toBe('40020');
    expect(refusal(idField, '1'.repeat(21)).code).toBe('40020');
  });

  it('positiveIntegerTextField takes whole numbers from 1', () => {
    expect(accepted(positiveIntegerTextField, '20')).toBe('20');
    expect(accepted(positiveIntegerTextField, 5)).toBe('5');
    expect(refusal(positiveIntegerTextField, '0').code).toBe('40020');
    expect(refusal(positiveIntegerTextField, '2.5').code).toBe('40020');
  });
});

describe('optionalField and fieldWithDefault', () => {
  const schema = z.object({
    price: optionalField(decimalField),
    force: fieldWithDefault(ciEnum(['gtc', 'ioc']), 'gtc'),
  });

  it('count "" and null as absent', () => {
    expect(schema.parse({ price: '', force: '' })).toEqual({ force: 'gtc' });
    expect(schema.parse({ price: null, force: null })).toEqual({ force: 'gtc' });
    expect(schema.parse({})).toEqual({ force: 'gtc' });
  });

  it('still check a value that is given', () => {
    expect(schema.parse({ price: '1.5', force: 'IOC' })).toEqual({ price: '1.5', force: 'ioc' });
    expect(schema.safeParse({ price: 'x' }).success).toBe(false);
  });
});
