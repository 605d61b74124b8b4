import type { ContractSpec } from './contracts';
import { linearMoneyFactor, lotMoneyUnits } from './contracts';
import { divCeil, divRound } from './money';

const PPM = 1_000_000n;

/**
 * The money formulas of one contract, in money units (1e-8 of the margin coin).
 * Linear (USDT/USDC-margined): value = price x size, in the quote coin.
 * Inverse (coin-margined, size in the base coin): value = size in coin; PnL = size x (exit - entry) / exit.
 */
export class ContractMath {
  private readonly factor: bigint;
  private readonly lotUnits: bigint;
  private readonly inverse: boolean;

  constructor(readonly contract: ContractSpec) {
    this.inverse = contract.kind === 'inverse';
    this.factor = this.inverse ? 0n : linearMoneyFactor(contract);
    this.lotUnits = this.inverse ? lotMoneyUnits(contract) : 0n;
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
    const difference = BigInt(exitTicks) * BigInt(lots) - entryTicksLots;
    if (!this.inverse) return BigInt(direction) * difference * this.factor;
    return divRound(BigInt(direction) * difference * this.lotUnits, BigInt(exitTicks));
  }

  /** Notional in the quote coin (for minimum order value), as ticks x lots x factor of a linear contract. */
  quoteNotionalAtLeast(priceTicks: number, lots: number, minimumQuote: bigint): boolean {
    // minimumQuote is in 1e-8 of the quote coin; ticks x lots is in tick x lot units.
    const tickLotUnits = BigInt(priceTicks) * BigInt(lots);
    const exponent = 8 - this.contract.pricePlace - this.contract.volumePlace;
    const scaled = tickLotUnits * BigInt(this.contract.priceEndStep) * 10n ** BigInt(exponent);
    return scaled >= minimumQuote;
  }
}
