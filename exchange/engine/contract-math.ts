import type { ContractSpec } from './contracts';
import { linearMoneyFactor, lotMoneyUnits } from './contracts';
import { divCeil, divRound, parseScaled } from './money';

const PPM = 1_000_000n;
const PPM_NUMBER = 1_000_000;

// Anything else goes the bigint way, which refuses it exactly as before.
function isPositiveInteger(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}

function isRate(ppm: number): boolean {
  return Number.isSafeInteger(ppm) && ppm >= 0;
}

/** divCeil for safe integers, numerator >= 0 and denominator > 0: exact, no float rounding. */
function safeDivCeil(numerator: number, denominator: number): number {
  const remainder = numerator % denominator;
  const quotient = (numerator - remainder) / denominator;
  return remainder === 0 ? quotient : quotient + 1;
}

/** divRound (half away from zero) for safe integers, numerator >= 0 and denominator > 0. */
function safeDivRound(numerator: number, denominator: number): number {
  const remainder = numerator % denominator;
  const quotient = (numerator - remainder) / denominator;
  return remainder >= denominator - Math.floor(denominator / 2) ? quotient + 1 : quotient;
}

/** price ticks x lots as a bigint, multiplying as numbers when the product is exact. */
export function ticksTimesLots(priceTicks: number, lots: number): bigint {
  const product = priceTicks * lots;
  return Number.isSafeInteger(product) ? BigInt(product) : BigInt(priceTicks) * BigInt(lots);
}

/**
 * The money formulas of one contract, in money units (1e-8 of the margin coin).
 * Linear (USDT/USDC-margined): value = price x size, in the quote coin.
 * Inverse (coin-margined, size in the base coin): value = size in coin; PnL = size x (exit - entry) / exit.
 */
export class ContractMath {
  private readonly factor: bigint;
  private readonly lotUnits: bigint;
  private readonly inverse: boolean;
  private readonly quoteFactor: bigint;
  /** minTradeUSDT in 1e-8 of the quote coin. */
  readonly minimumNotional: bigint;
  /** The same constants as numbers, for the safe-integer fast paths (all well under 2^53). */
  private readonly factorNumber: number;
  private readonly lotUnitsNumber: number;
  /** Smallest ticks x lots reaching minimumNotional (ceil of minimumNotional / quoteFactor). */
  private readonly minimumTicksLots: number;

  constructor(readonly contract: ContractSpec) {
    this.quoteFactor =
      BigInt(contract.priceEndStep) * 10n ** BigInt(8 - contract.pricePlace - contract.volumePlace);
    this.minimumNotional = parseScaled(contract.minTradeUSDT, 8) ?? 0n;
    this.inverse = contract.kind === 'inverse';
    this.factor = this.inverse ? 0n : linearMoneyFactor(contract);
    this.lotUnits = this.inverse ? lotMoneyUnits(contract) : 0n;
    this.factorNumber = Number(this.factor);
    this.lotUnitsNumber = Number(this.lotUnits);
    this.minimumTicksLots = Number(divCeil(this.minimumNotional, this.quoteFactor));
  }

  /** value() as a number when it is a safe integer, else -1 (the caller takes the bigint path). */
  private safeValue(priceTicks: number, lots: number): number {
    const value = this.inverse ? lots * this.lotUnitsNumber : priceTicks * lots * this.factorNumber;
    // Integer operands whose product stays under 2^53 multiply exactly.
    return Number.isSafeInteger(value) && value >= 0 ? value : -1;
  }

  /** Initial margin plus taker-sized fee reserved for opening `lots` at `priceTicks`. */
  openingReserve(priceTicks: number, lots: number, leverage: number, feePpm: number): bigint {
    const value = this.safeValue(priceTicks, lots);
    if (value >= 0 && isPositiveInteger(leverage) && isRate(feePpm) && Number.isSafeInteger(value * feePpm)) {
      const total = safeDivCeil(value, leverage) + safeDivRound(value * feePpm, PPM_NUMBER);
      if (Number.isSafeInteger(total)) return BigInt(total);
    }
    const exact = this.value(priceTicks, lots);
    return this.initialMargin(exact, leverage) + this.fee(exact, feePpm);
  }

  /** fee(value(priceTicks, lots), ratePpm). */
  tradeFee(priceTicks: number, lots: number, ratePpm: number): bigint {
    const value = this.safeValue(priceTicks, lots);
    if (value >= 0 && isRate(ratePpm) && Number.isSafeInteger(value * ratePpm)) {
      return BigInt(safeDivRound(value * ratePpm, PPM_NUMBER));
    }
    return this.fee(this.value(priceTicks, lots), ratePpm);
  }

  /** initialMargin(value(priceTicks, lots), leverage). */
  marginFor(priceTicks: number, lots: number, leverage: number): bigint {
    const value = this.safeValue(priceTicks, lots);
    if (value >= 0 && isPositiveInteger(leverage)) return BigInt(safeDivCeil(value, leverage));
    return this.initialMargin(this.value(priceTicks, lots), leverage);
  }

  /** Position value in margin-coin money units of `lots` at `priceTicks`. */
  value(priceTicks: number, lots: number): bigint {
    return this.inverse ? BigInt(lots) * this.lotUnits : BigInt(priceTicks) * BigInt(lots) * this.factor;
  }

  /** Value from a sum of ticks x lots (the entry value of a position). */
  valueOfTicksLots(ticksLots: bigint, lots: number): bigint {
    return this.inverse ? BigInt(lots) * this.lotUnits : ticksLots * this.factor;
  }

  /** Initial margin for a value at a leverage, rounded up. */
  initialMargin(value: bigint, leverage: number): bigint {
    return divCeil(value, BigInt(leverage));
  }

  fee(value: bigint, ratePpm: number): bigint {
    return divRound(value * BigInt(ratePpm), PPM);
  }

  /**
   * PnL of `lots` whose entry value (sum of ticks x lots) is `entryTicksLots`, exited at `exitTicks`;
   * `direction` +1 for long, -1 for short.
   */
  pnl(entryTicksLots: bigint, lots: number, exitTicks: number, direction: 1 | -1): bigint {
    const difference = ticksTimesLots(exitTicks, lots) - entryTicksLots;
    if (!this.inverse) return (direction === 1 ? difference : -difference) * this.factor;
    return divRound(BigInt(direction) * difference * this.lotUnits, BigInt(exitTicks));
  }

  /** Whether price x size in the quote coin reaches `minimumQuote` (1e-8 of the quote coin). */
  quoteNotionalAtLeast(
    priceTicks: number,
    lots: number,
    minimumQuote: bigint = this.minimumNotional,
  ): boolean {
    if (minimumQuote === this.minimumNotional) {
      const ticksLots = priceTicks * lots;
      // x * quoteFactor >= minimum  <=>  x >= ceil(minimum / quoteFactor), for integers x.
      if (Number.isSafeInteger(ticksLots)) return ticksLots >= this.minimumTicksLots;
    }
    return BigInt(priceTicks) * BigInt(lots) * this.quoteFactor >= minimumQuote;
  }
}
