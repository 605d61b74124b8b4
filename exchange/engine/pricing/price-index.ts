import { Rng, forSymbol } from '../../market/random';
import { reanchor, stepFairPrice, type PricePathParams } from '../../market/price-path';
import { coinIndexProfile, indexPath } from '../../market/coin-indexes';
import { parseScaled } from '../money';
import type { ContractSpec } from '../contracts';

/** Decimals of an index price: fine enough for every contract and spot book of the coin. */
export const INDEX_DECIMALS = 8;

/** Longest simulated step, as for the markets: after a long stop the index resumes. */
const MAX_STEP_MS = 60_000;

/** An index price in human units: `units` x 10^-decimals of the quote currency. */
export interface IndexPrice {
  readonly coin: string;
  readonly units: number;
  readonly decimals: number;
}

export interface PriceIndexSnapshot {
  coin: string;
  units: number;
  lastTickTs: number;
  rng: number[];
  path: PricePathParams;
}

/**
 * The simulated spot index of one base coin. It walks only inside engine commands (tick), from a
 * seeded generator kept in the state, so a replay reproduces it; an administrator's price move
 * sets it and re-anchors the walk there.
 */
export class PriceIndex {
  private constructor(
    readonly coin: string,
    private priceUnits: number,
    private lastTickTs: number,
    private readonly rng: Rng,
    private path: PricePathParams,
  ) {}

  static create(coin: string, seed: number): PriceIndex {
    const profile = coinIndexProfile(coin);
    const units = Number(parseScaled(profile.price, INDEX_DECIMALS));
    return new PriceIndex(coin, units, 0, forSymbol(seed, `index:${coin}`), indexPath(profile, units));
  }

  static fromSnapshot(snapshot: PriceIndexSnapshot): PriceIndex {
    return new PriceIndex(
      snapshot.coin,
      snapshot.units,
      snapshot.lastTickTs,
      Rng.fromState(snapshot.rng),
      snapshot.path,
    );
  }

  toSnapshot(): PriceIndexSnapshot {
    return {
      coin: this.coin,
      units: this.priceUnits,
      lastTickTs: this.lastTickTs,
      rng: [...this.rng.state],
      path: this.path,
    };
  }

  get price(): IndexPrice {
    return { coin: this.coin, units: this.priceUnits, decimals: INDEX_DECIMALS };
  }

  /** One step of simulated time; a paused market holds its prices still. */
  tick(ts: number, paused: boolean): void {
    const elapsed = this.lastTickTs === 0 ? 0 : Math.min(MAX_STEP_MS, ts - this.lastTickTs);
    this.lastTickTs = ts;
    if (paused || elapsed <= 0) return;
    this.priceUnits = stepFairPrice(this.rng, this.priceUnits, elapsed, this.path);
  }

  /** An administrator moved the market: the index jumps there and its walk is anchored there. */
  moveTo(units: number): void {
    this.priceUnits = units;
    this.path = reanchor(this.path, units);
  }

  /** The index in a contract's ticks, rounded to the nearest tick (at least one). */
  ticksFor(contract: ContractSpec): number {
    return indexUnitsToTicks(this.priceUnits, contract);
  }
}

/** Index units per tick of a contract: priceEndStep x 10^(INDEX_DECIMALS - pricePlace). */
const UNITS_PER_TICK = new WeakMap<ContractSpec, number>();

export function unitsPerTick(contract: ContractSpec): number {
  // Asked on every command for every dated contract: worked out once per contract.
  let units = UNITS_PER_TICK.get(contract);
  if (units === undefined) {
    if (contract.pricePlace > INDEX_DECIMALS) {
      throw new Error(`${contract.symbol} prices are finer than the index's ${INDEX_DECIMALS} decimals`);
    }
    units = contract.priceEndStep * 10 ** (INDEX_DECIMALS - contract.pricePlace);
    UNITS_PER_TICK.set(contract, units);
  }
  return units;
}

export function indexUnitsToTicks(units: number, contract: ContractSpec): number {
  const perTick = unitsPerTick(contract);
  // Integers under 2^53 divide and round exactly enough here: the quotient is far below 2^53.
  return Math.max(1, Math.round(units / perTick));
}
