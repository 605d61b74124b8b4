import { describe, expect, it } from 'vitest';
import { divCeil, divRound, formatScaled, parseScaled } from './money';

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
