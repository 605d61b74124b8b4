// The fair price of a symbol: a random walk of the log price, pulled gently toward an anchor so
// that a paper market left running for weeks neither collapses nor explodes, with rare bursts.
import type { Rng } from './random';

export interface PricePathParams {
  /** The price the walk is pulled back toward, in ticks. */
  readonly anchorTicks: number;
  /** Annualised volatility of the log price (0.5 = 50 % a year). */
  readonly annualVolatility: number;
  /**
   * Days for a gap to the anchor to halve on average: weak over minutes and hours, so the walk
   * looks free, firm over weeks. Infinity turns the pull off.
   */
  readonly reversionHalfLifeDays: number;
  /** Expected number of bursts (sudden jumps of the price) a day. */
  readonly burstsPerDay: number;
  /** Standard deviation of the log move of one burst (0.004 is about 0.4 %). */
  readonly burstVolatility: number;
}

const MS_PER_DAY = 86_400_000;
const DAYS_PER_YEAR = 365.25;
const MS_PER_YEAR = MS_PER_DAY * DAYS_PER_YEAR;

/**
 * The fair price `dtMs` after `fairTicks`, as an integer of at least one tick. The log gap to the
 * anchor follows an Ornstein-Uhlenbeck process stepped exactly, so one long step (the exchange
 * was stopped for a day) has the same distribution as many short ones.
 */
export function stepFairPrice(rng: Rng, fairTicks: number, dtMs: number, params: PricePathParams): number {
  if (!Number.isSafeInteger(fairTicks) || fairTicks < 1) {
    throw new RangeError(`fair price must be a positive integer of ticks, got ${fairTicks}`);
  }
  if (!(dtMs >= 0)) throw new RangeError(`time step must not be negative, got ${dtMs}`);
  if (dtMs === 0) return fairTicks;

  const years = dtMs / MS_PER_YEAR;
  const sigma = params.annualVolatility;
  const reversionPerYear = Math.LN2 / (params.reversionHalfLifeDays / DAYS_PER_YEAR);
  const decay = Math.exp(-reversionPerYear * years);
  const diffusion =
    reversionPerYear > 0
      ? sigma * Math.sqrt((1 - decay * decay) / (2 * reversionPerYear))
      : sigma * Math.sqrt(years);

  let logGap = Math.log(fairTicks / params.anchorTicks) * decay + diffusion * rng.nextNormal();
  const burstChance = 1 - Math.exp((-params.burstsPerDay * dtMs) / MS_PER_DAY);
  if (rng.nextFloat() < burstChance) logGap += params.burstVolatility * rng.nextNormal();

  return Math.max(1, roundStochastically(rng, params.anchorTicks * Math.exp(logGap)));
}

/**
 * Rounds up with the probability of the fraction: with a coarse tick and short steps, plain
 * rounding would pin the price to one tick forever; this keeps the walk unbiased and moving.
 */
function roundStochastically(rng: Rng, value: number): number {
  const whole = Math.floor(value);
  return rng.nextFloat() < value - whole ? whole + 1 : whole;
}

/** The same path, now pulled toward `targetTicks` (an administrator moved the market there). */
export function reanchor(params: PricePathParams, targetTicks: number): PricePathParams {
  if (!Number.isSafeInteger(targetTicks) || targetTicks < 1) {
    throw new RangeError(`anchor must be a positive integer of ticks, got ${targetTicks}`);
  }
  return { ...params, anchorTicks: targetTicks };
}
