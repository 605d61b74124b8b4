import type { ContractSpec } from './contracts';
import { linearMoneyFactor, lotMoneyUnits } from './contracts';
import { divCeil, divRound, parseScaled } from './money';

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
  private readonly quoteFactor: bigint;
  /** minTradeUSDT in 1e-8 of the quote coin. */
  readonly minimumNotional: bigint;

  constructor(readonly contract: ContractSpec) {
    this.quoteFactor =
      BigInt(contract.priceEndStep) * 10n ** BigInt(8 - contract.pricePlace - contract.volumePlace);
    this.minimumNotional = parseScaled(contract.minTradeUSDT, 8) ?? 0n;
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

  /** Whether price x size in the quote coin reaches `minimumQuote` (1e-8 of the quote coin). */
  quoteNotionalAtLeast(
    priceTicks: number,
    lots: number,
    minimumQuote: bigint = this.minimumNotional,
  ): boolean {
    return BigInt(priceTicks) * BigInt(lots) * this.quoteFactor >= minimumQuote;
  }
}
