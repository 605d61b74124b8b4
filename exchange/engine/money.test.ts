import { describe, expect, it } from 'vitest';
import { divCeil, divRound, formatScaled, parseScaled, parseScaledSafe } from './money';

describe('scaled integers', () => {
  it('formats without trailing zeros and keeps the sign', () => {
    expect(formatScaled(123450000n, 8)).toBe('1.2345');
    expect(formatScaled(-5n, 8)).toBe('-0.00000005');
    expect(formatScaled(0n, 8)).toBe('0');
    expect(formatScaled(950001, 1)).toBe('95000.1');
    expect(formatScaled(7, 0)).toBe('7');
  });

  it('parses exactly and refuses too many decimals', () => {
    expect(parseScaled('95000.1', 1)).toBe(950001n);
    expect(parseScaled('0.0100', 2)).toBe(1n);
    expect(parseScaled('2293.577', 2)).toBeNull();
    expect(parseScaled('1e5', 2)).toBeNull();
    expect(parseScaled('-1.5', 1)).toBe(-15n);
  });

  it('rounds division half away from zero and ceils reservations', () => {
    expect(divRound(5n, 2n)).toBe(3n);
    expect(divRound(-5n, 2n)).toBe(-3n);
    expect(divRound(4n, 3n)).toBe(1n);
    expect(divCeil(4n, 3n)).toBe(2n);
    expect(divCeil(6n, 3n)).toBe(2n);
  });
});

/** parseScaled's definition, kept here to hold the fast parser to it. */
function referenceParse(text: string, decimals: number): bigint | null {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (match === null) return null;
  const [, sign, whole = '0', rawFraction = ''] = match;
  const fraction = rawFraction.replace(/0+$/, '');
  if (fraction.length > decimals) return null;
  const scaled = BigInt(whole + fraction.padEnd(decimals, '0'));
  return sign === '-' ? -scaled : scaled;
}

describe('parseScaledSafe', () => {
  const texts = [
    ...['0', '-0', '00', '1', '-1', '95000.1', '95000.10', '0.0001', '0.00010', '-0.5', '007.5'],
    ...['', '-', '.', '.5', '5.', '1.2.3', '+1', '1e5', ' 1', '1 ', '1,5', '١', '0x10', '--1', '1.-5'],
    ...['9007199254740991', '9007199254740992', '90071992547409.91', '123456789012345678901234567890'],
    ...['0.000000000000000000001', '1.00000000000000000000000', '-99999999999999999999.9'],
  ];

  it('answers as parseScaled does, or undefined beyond safe integers', () => {
    for (const text of texts) {
      for (const decimals of [0, 1, 2, 4, 8, 20]) {
        const expected = referenceParse(text, decimals);
        const fast = parseScaledSafe(text, decimals);
        if (fast === undefined) {
          expect(expected, `${text} @${decimals}`).not.toBeNull();
          expect(Number.isSafeInteger(Number(expected)), `${text} @${decimals}`).toBe(false);
        } else {
          expect(fast === null ? null : BigInt(fast), `${text} @${decimals}`).toBe(expected);
        }
        expect(parseScaled(text, decimals), `${text} @${decimals}`).toBe(expected);
      }
    }
  });

  it('agrees with the definition on random decimals', () => {
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let round = 0; round < 5000; round++) {
      const whole = String(next() * (next() % 5000));
      const fraction = String(next()).slice(0, next() % 12);
      const text = `${next() % 7 === 0 ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
      const decimals = next() % 10;
      const fast = parseScaledSafe(text, decimals);
      const expected = referenceParse(text, decimals);
      if (fast !== undefined) expect(fast === null ? null : BigInt(fast), text).toBe(expected);
      expect(parseScaled(text, decimals), text).toBe(expected);
    }
  });
});
