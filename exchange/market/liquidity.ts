// The resting quotes of the simulated market maker around the fair price: a tight touch, levels
// thinning out in price and thickening in size away from it, as on a real futures book.
import type { Rng } from './random';

/** One price level: [price in ticks, size in lots]. */
export type Level = [priceTicks: number, lots: number];

export interface QuoteLadder {
  /** Best (highest) first. */
  readonly bids: Level[];
  /** Best (lowest) first. */
  readonly asks: Level[];
}

export interface QuoteLadderParams {
  /** Levels quoted on each side (fewer bids when the price is too close to zero for them all). */
  readonly levelsPerSide: number;
  /** The spread between best bid and best ask, drawn evenly from this range, in ticks (at least 1). */
  readonly minSpreadTicks: number;
  readonly maxSpreadTicks: number;
  /** Typical gap between the first two levels of a side, in ticks. */
  readonly firstGapTicks: number;
  /** Each further gap is typically this many times the one before (1.08 = 8 % wider). */
  readonly gapGrowth: number;
  /** Typical size at the touch, in lots. */
  readonly touchLots: number;
  /** The typical size grows by this fraction of `touchLots` with each level away from the touch. */
  readonly sizeGrowthPerLevel: number;
  /** Log-normal dispersion of sizes around the typical (0.6 keeps most within x0.5..x1.8). */
  readonly sizeDispersion: number;
  /** Chance that a level holds a wall, a size many times the typical one. */
  readonly wallChance: number;
  readonly wallMultiplier: number;
}

/**
 * Quotes around `fairTicks`: best bid < fair <= best ask, prices strictly moving away from the
 * touch level by level, every size at least one lot. Same generator state, same ladder.
 */
export function buildQuoteLadder(rng: Rng, fairTicks: number, params: QuoteLadderParams): QuoteLadder {
  if (!Number.isSafeInteger(fairTicks) || fairTicks < 1) {
    throw new RangeError(`fair price must be a positive integer of ticks, got ${fairTicks}`);
  }
  assertLadderParams(params);

  const spread = params.minSpreadTicks + rng.nextInt(params.maxSpreadTicks - params.minSpreadTicks + 1);
  const bestAsk = fairTicks + rng.nextInt(spread);
  const bestBid = bestAsk - spread;

  const asks: Level[] = [];
  const bids: Level[] = [];
  let askPrice = bestAsk;
  let bidPrice = bestBid;
  let typicalGap = params.firstGapTicks;
  for (let level = 0; level < params.levelsPerSide; level++) {
    if (level > 0) {
      askPrice += drawGap(rng, typicalGap);
      bidPrice -= drawGap(rng, typicalGap);
      typicalGap *= params.gapGrowth;
    }
    const typicalLots = params.touchLots * (1 + params.sizeGrowthPerLevel * level);
    const askLots = drawLots(rng, typicalLots, params);
    const bidLots = drawLots(rng, typicalLots, params);
    asks.push([askPrice, askLots]);
    if (bidPrice >= 1) bids.push([bidPrice, bidLots]);
  }
  return { bids, asks };
}

function drawGap(rng: Rng, typicalGap: number): number {
  return Math.max(1, Math.round(typicalGap * (0.5 + rng.nextFloat())));
}

function drawLots(rng: Rng, typicalLots: number, params: QuoteLadderParams): number {
  const dispersion = params.sizeDispersion;
  // Mean-preserving log-normal: exp(sZ - s^2/2) averages to 1.
  let lots = typicalLots * Math.exp(dispersion * rng.nextNormal() - (dispersion * dispersion) / 2);
  if (rng.nextFloat() < params.wallChance) lots *= params.wallMultiplier;
  return Math.max(1, Math.round(lots));
}

function assertLadderParams(params: QuoteLadderParams): void {
  const problems: string[] = [];
  if (!Number.isInteger(params.levelsPerSide) || params.levelsPerSide < 1) problems.push('levelsPerSide');
  if (!Number.isInteger(params.minSpreadTicks) || params.minSpreadTicks < 1) problems.push('minSpreadTicks');
  if (!Number.isInteger(params.maxSpreadTicks) || params.maxSpreadTicks < params.minSpreadTicks) {
    problems.push('maxSpreadTicks');
  }
  if (!(params.firstGapTicks > 0)) problems.push('firstGapTicks');
  if (!(params.gapGrowth >= 1)) problems.push('gapGrowth');
  if (!(params.touchLots > 0)) problems.push('touchLots');
  if (!(params.sizeGrowthPerLevel >= 0)) problems.push('sizeGrowthPerLevel');
  if (!(params.sizeDispersion >= 0)) problems.push('sizeDispersion');
  if (!(params.wallChance >= 0 && params.wallChance <= 1)) problems.push('wallChance');
  if (!(params.wallMultiplier >= 1)) problems.push('wallMultiplier');
  if (problems.length > 0) throw new RangeError(`invalid quote ladder parameters: ${problems.join(', ')}`);
}
