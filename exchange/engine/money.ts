// Money inside the engine: bigint counts of 1e-8 of a coin (the exchange shows 8 decimals),
// so balances, fees and PnL never pass through a float.

export const MONEY_DECIMALS = 8;
export const MONEY_SCALE = 10n ** BigInt(MONEY_DECIMALS);

/** Formats an integer count of 10^-decimals as a plain decimal string ("-12.5", "0.0001", "3"). */
export function formatScaled(value: bigint | number, decimals: number): string {
  const negative = value < 0;
  const digits = (negative ? -BigInt(value) : BigInt(value)).toString();
  if (decimals === 0) return negative ? `-${digits}` : digits;
  const padded = digits.padStart(decimals + 1, '0');
  const whole = padded.slice(0, padded.length - decimals);
  const fraction = padded.slice(padded.length - decimals).replace(/0+$/, '');
  const text = fraction.length > 0 ? `${whole}.${fraction}` : whole;
  return negative && text !== '0' ? `-${text}` : text;
}

export function formatMoney(value: bigint): string {
  return formatScaled(value, MONEY_DECIMALS);
}

/**
 * Parses a plain decimal string into an integer count of 10^-decimals, or null when it has more
 * decimals than that (the caller reports the scale error) or is not a plain decimal.
 */
export function parseScaled(text: string, decimals: number): bigint | null {
  const units = parseScaledSafe(text, decimals);
  if (units === null) return null;
  if (units !== undefined) return BigInt(units);
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (match === null) return null;
  const [, sign, whole = '0', rawFraction = ''] = match;
  const fraction = rawFraction.replace(/0+$/, '');
  if (fraction.length > decimals) return null;
  const scaled = BigInt(whole + fraction.padEnd(decimals, '0'));
  return sign === '-' ? -scaled : scaled;
}

const ZERO = 48;
const NINE = 57;
const MINUS = 45;
const POINT = 46;
const POWERS_OF_TEN = Array.from({ length: 16 }, (_, power) => 10 ** power);

/**
 * parseScaled for the hot path: the same answer as a safe integer, without a regex or a bigint;
 * undefined when the value does not fit a safe integer (parseScaled then answers with a bigint).
 */
export function parseScaledSafe(text: string, decimals: number): number | null | undefined {
  const length = text.length;
  let index = 0;
  const negative = length > 0 && text.charCodeAt(0) === MINUS;
  if (negative) index = 1;
  const wholeStart = index;
  let value = 0;
  for (; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code < ZERO || code > NINE) break;
    // Once past 2^53 the value stays past it, so the final check still sees it.
    value = value * 10 + (code - ZERO);
  }
  if (index === wholeStart) return null;
  let shift = decimals;
  if (index < length) {
    if (text.charCodeAt(index) !== POINT) return null;
    const fractionStart = index + 1;
    let significantEnd = fractionStart;
    for (index = fractionStart; index < length; index++) {
      const code = text.charCodeAt(index);
      if (code < ZERO || code > NINE) return null;
      if (code !== ZERO) significantEnd = index + 1;
    }
    if (index === fractionStart) return null;
    if (significantEnd - fractionStart > decimals) return null;
    for (index = fractionStart; index < significantEnd; index++) {
      value = value * 10 + (text.charCodeAt(index) - ZERO);
      shift--;
    }
  }
  if (value !== 0) {
    if (shift > 15) return undefined;
    value *= POWERS_OF_TEN[shift] as number;
  }
  if (!Number.isSafeInteger(value)) return undefined;
  return negative && value !== 0 ? -value : value;
}

export function parseMoney(text: string): bigint | null {
  return parseScaled(text, MONEY_DECIMALS);
}

/** Division rounding half away from zero, for amounts that cannot be exact (fees, inverse PnL). */
export function divRound(numerator: bigint, denominator: bigint): bigint {
  if (denominator < 0n) return divRound(-numerator, -denominator);
  const half = denominator / 2n;
  return numerator >= 0n ? (numerator + half) / denominator : -((-numerator + half) / denominator);
}

/** Division rounding up (toward +infinity) for amounts the exchange reserves (margin). */
export function divCeil(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  return quotient * denominator === numerator || numerator < 0n ? quotient : quotient + 1n;
}

export function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

export function maxBig(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
