import type { ContractSpec } from '../contracts';
import { divRound, MONEY_SCALE } from '../money';

const PPM = 1_000_000n;

/** One tier of a contract's position tier table; values in money units (1e-8) of the margin coin. */
export interface PositionTier {
  /** 1 for the first tier. */
  readonly level: number;
  readonly lower: bigint;
  readonly upper: bigint;
  readonly maxLeverage: number;
  /** Maintenance margin rate in millionths (0.40% = 4,000). */
  readonly mmrPpm: number;
}

/** [upper bound in whole coins of the margin coin, max leverage, maintenance margin rate in ppm]. */
type TierRow = readonly [upper: number, maxLeverage: number, mmrPpm: number];

// BTCUSDT, as announced 2025-09-26 ("adjustment of leverage, position tiers and maintenance margin
// rate for BTCUSDT"), https://www.bitgetapp.com/support/articles/12560603838668 (first tier at the
// contract's 125x).
const BTC_ROWS: readonly TierRow[] = [
  [200_000, 125, 4_000],
  [1_000_000, 100, 5_000],
  [5_000_000, 75, 7_000],
  [15_000_000, 50, 10_000],
  [50_000_000, 25, 20_000],
  [100_000_000, 20, 30_000],
  [150_000_000, 10, 60_000],
  [300_000_000, 5, 120_000],
  [500_000_000, 4, 150_000],
  [700_000_000, 3, 200_000],
  [900_000_000, 2, 300_000],
  [1_200_000_000, 1, 600_000],
];

// ETHUSDT, the table in force before 2025-09-26 (its first tier matches the contract's 100x),
// https://www.bitgetapp.com/support/articles/12560603838666
const ETH_ROWS: readonly TierRow[] = [
  [1_000_000, 100, 5_000],
  [3_000_000, 75, 10_000],
  [12_000_000, 50, 15_000],
  [40_000_000, 25, 20_000],
  [70_000_000, 20, 30_000],
  [100_000_000, 10, 50_000],
  [150_000_000, 8, 70_000],
  [200_000_000, 7, 80_000],
  [250_000_000, 6, 90_000],
  [300_000_000, 5, 120_000],
  [400_000_000, 4, 150_000],
  [500_000_000, 3, 200_000],
  [800_000_000, 2, 300_000],
  [1_200_000_000, 1, 600_000],
];

// SOL and any other base coin: a published table of the same shape (the USD-M ETHUSD table of
// 2025-07-23, https://www.bitgetpro.site/it/support/articles/12560603832368).
const DEFAULT_ROWS: readonly TierRow[] = [
  [200_000, 100, 5_000],
  [750_000, 75, 10_000],
  [3_000_000, 50, 15_000],
  [16_000_000, 20, 30_000],
  [38_000_000, 10, 50_000],
  [48_000_000, 8, 80_000],
  [55_000_000, 7, 90_000],
  [68_000_000, 6, 100_000],
  [80_000_000, 5, 120_000],
  [100_000_000, 4, 150_000],
  [130_000_000, 3, 200_000],
  [200_000_000, 2, 300_000],
  [800_000_000, 1, 600_000],
];

const ROWS_BY_BASE: Record<string, readonly TierRow[]> = { BTC: BTC_ROWS, ETH: ETH_ROWS };

// Coin-margined contracts measure the position in the coin: the same tables with their USD bounds
// turned into coins at a round reference price (BTCUSD: 200,000 USD -> 2 BTC).
const REFERENCE_USD_PRICE: Record<string, number> = { BTC: 100_000, ETH: 4_000, SOL: 200 };

/**
 * A contract's position tiers with the tiered maintenance margin of classic accounts (since
 * 2025-11-10): each slice of the position value pays its own tier's rate plus the taker fee rate
 * (exchange-facts.md: 200,000 x (0.40% + 0.06%) + 130,000 x (0.50% + 0.06%) = 1,648 USDT).
 * Sums are kept in money units x 1e6 so rates in ppm multiply exactly.
 */
export class TierTable {
  /** Maintenance margin (x 1e6) of the whole table below each tier's lower bound. */
  private readonly belowScaled: bigint[] = [];

  constructor(
    readonly tiers: readonly PositionTier[],
    readonly takerFeePpm: number,
  ) {
    let sum = 0n;
    for (const tier of tiers) {
      this.belowScaled.push(sum);
      sum += (tier.upper - tier.lower) * BigInt(tier.mmrPpm + takerFeePpm);
    }
  }

  /** Index of the tier a value falls in (a value on a bound belongs to the lower tier). */
  indexOf(value: bigint): number {
    for (let index = 0; index < this.tiers.length; index++) {
      if (value <= (this.tiers[index] as PositionTier).upper) return index;
    }
    return this.tiers.length - 1;
  }

  tier(index: number): PositionTier {
    return this.tiers[index] as PositionTier;
  }

  /** Tier rate plus taker fee rate, ppm. */
  rateWithFeePpm(index: number): bigint {
    return BigInt(this.tier(index).mmrPpm + this.takerFeePpm);
  }

  /** Maintenance margin of a position value, money units x 1e6 (exact). */
  maintenanceScaled(value: bigint): bigint {
    if (value <= 0n) return 0n;
    const index = this.indexOf(value);
    return value * this.rateWithFeePpm(index) - this.offsetScaled(index);
  }

  /** Maintenance margin of a position value, money units. */
  maintenance(value: bigint): bigint {
    return divRound(this.maintenanceScaled(value), PPM);
  }

  /**
   * The tier's pre-calculated offset (x 1e6) in MM = value x (rate + fee) - offset: what the
   * lower tiers pay less than the whole value at this tier's rate.
   */
  offsetScaled(index: number): bigint {
    return this.tier(index).lower * this.rateWithFeePpm(index) - (this.belowScaled[index] as bigint);
  }

  /** The largest position value a leverage may hold (the upper bound of its last tier), or -1. */
  maxValueFor(leverage: number): bigint {
    let max = -1n;
    for (const tier of this.tiers) if (tier.maxLeverage >= leverage) max = tier.upper;
    return max;
  }
}

const tables = new WeakMap<ContractSpec, TierTable>();

/** The position tiers of a contract; a contract listed later falls back to its base coin's table. */
export function tiersOf(contract: ContractSpec): readonly PositionTier[] {
  return tierTableOf(contract).tiers;
}

export function tierTableOf(contract: ContractSpec): TierTable {
  let table = tables.get(contract);
  if (table === undefined) {
    table = new TierTable(buildTiers(contract), contract.takerFeePpm);
    tables.set(contract, table);
  }
  return table;
}

function buildTiers(contract: ContractSpec): PositionTier[] {
  const rows = ROWS_BY_BASE[contract.baseCoin] ?? DEFAULT_ROWS;
  const reference = contract.kind === 'inverse' ? BigInt(REFERENCE_USD_PRICE[contract.baseCoin] ?? 1) : 1n;
  let lower = 0n;
  return rows.map(([upper, maxLeverage, mmrPpm], index) => {
    const tier: PositionTier = {
      level: index + 1,
      lower,
      upper: (BigInt(upper) * MONEY_SCALE) / reference,
      maxLeverage: Math.max(contract.minLever, Math.min(maxLeverage, contract.maxLever)),
      mmrPpm,
    };
    lower = tier.upper;
    return tier;
  });
}
