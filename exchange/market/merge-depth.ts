// Merged market depth (E15): price levels grouped into coarser buckets. A merged ask is never
// shown better than the asks it holds (rounded up), nor a merged bid (rounded down).
import { DEPTH_PRECISIONS } from '../../shared/api/enums';
import type { DepthLimit, DepthPrecision, YesNo } from '../../shared/api/enums';

/** Every pair here offers four gears: the tick, x10, x100 and x1000. */
export const DEPTH_SCALE_COUNT = 4;

/** Levels returned when no `limit` is given. */
export const DEFAULT_DEPTH_LEVELS = 100;

/** The pair's maximum gear, returned for `limit=max`. */
export const MAX_DEPTH_LEVELS = 150;

const LEVELS_BY_LIMIT: Record<DepthLimit, number> = {
  '1': 1,
  '5': 5,
  '15': 15,
  '50': 50,
  max: MAX_DEPTH_LEVELS,
};

/** The price step of each gear as a decimal string: scale0 is the tick ("0.1", "1", "10", "100"). */
export function depthScales(pricePlace: number, priceEndStep: number): string[] {
  if (!Number.isInteger(pricePlace) || pricePlace < 0) {
    throw new RangeError(`pricePlace must be a non-negative integer, got ${pricePlace}`);
  }
  if (!Number.isSafeInteger(priceEndStep) || priceEndStep < 1) {
    throw new RangeError(`priceEndStep must be a positive integer, got ${priceEndStep}`);
  }
  const scales: string[] = [];
  for (let index = 0; index < DEPTH_SCALE_COUNT; index++) {
    scales.push(formatScaledInteger(BigInt(priceEndStep) * 10n ** BigInt(index), pricePlace));
  }
  return scales;
}

/** Ticks per merged bucket at a gear. */
export function mergeTicksForScale(scaleIndex: number): number {
  return 10 ** scaleIndex;
}

/** `units` x 10^-decimals without trailing zeros: (5n, 3) -> "0.005", (100n, 1) -> "10". */
function formatScaledInteger(units: bigint, decimals: number): string {
  const digits = units.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return fraction.length > 0 ? `${whole}.${fraction}` : whole;
}

/**
 * Groups `levels` (sorted best-first, [price ticks, lots]) into buckets of `mergeTicks`: asks
 * rounded up to a multiple, bids down, sizes summed; at most `maxLevels` buckets.
 */
export function mergeLevels(
  levels: ReadonlyArray<readonly [number, number]>,
  side: 'bids' | 'asks',
  mergeTicks: number,
  maxLevels: number,
): Array<[number, number]> {
  if (!Number.isSafeInteger(mergeTicks) || mergeTicks < 1) {
    throw new RangeError(`mergeTicks must be a positive integer, got ${mergeTicks}`);
  }
  const merged: Array<[number, number]> = [];
  let current: [number, number] | undefined;
  for (const [price, lots] of levels) {
    const remainder = price % mergeTicks;
    const bucket =
      remainder === 0 ? price : side === 'asks' ? price - remainder + mergeTicks : price - remainder;
    if (current !== undefined && current[0] === bucket) {
      current[1] += lots;
      continue;
    }
    if (merged.length === maxLevels) break;
    current = [bucket, lots];
    merged.push(current);
  }
  return merged;
}

export interface DepthRequest {
  /** The gear actually served, after reducing a gear the pair lacks. */
  readonly scaleIndex: number;
  readonly precision: DepthPrecision;
  readonly maxLevels: number;
  /** 'YES' when the depth is not merged at all (scale0). */
  readonly isMaxPrecision: YesNo;
}

/** What a merge-depth request asks for, as the pair can serve it. */
export function resolveDepthRequest(
  precision: DepthPrecision | undefined,
  limit: DepthLimit | undefined,
  availableScales: number = DEPTH_SCALE_COUNT,
): DepthRequest {
  if (!Number.isInteger(availableScales) || availableScales < 1) {
    throw new RangeError(`a pair has at least one depth scale, got ${availableScales}`);
  }
  const requested = precision === undefined ? 0 : DEPTH_PRECISIONS.indexOf(precision);
  const scaleIndex = Math.min(requested, availableScales - 1, DEPTH_PRECISIONS.length - 1);
  return {
    scaleIndex,
    precision: DEPTH_PRECISIONS[scaleIndex] ?? 'scale0',
    maxLevels: limit === undefined ? DEFAULT_DEPTH_LEVELS : LEVELS_BY_LIMIT[limit],
    isMaxPrecision: scaleIndex === 0 ? 'YES' : 'NO',
  };
}
