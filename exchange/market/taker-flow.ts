// Market orders of the simulated crowd: arrivals at a steady average rate, sizes mostly small
// with a heavy tail, and a slight lean toward the way the price last moved.
import type { Side } from '../../shared/api/enums';
import type { Rng } from './random';

export interface TakerOrder {
  readonly side: Side;
  readonly lots: number;
}

export interface TakerFlowParams {
  /** Expected market orders per second. */
  readonly ordersPerSecond: number;
  /** The smallest and most common size, in lots: the scale of the Pareto tail. */
  readonly minLots: number;
  /** Pareto tail index: 1.2 gives many large orders, 3 very few. Must exceed 0. */
  readonly tailIndex: number;
  /** No single order is larger than this, in lots. */
  readonly maxLots: number;
  /** Buy share is 0.5 plus this after a rise and 0.5 minus this after a fall (0 to 0.5). */
  readonly momentum: number;
  /** Cap on orders in one step, so a long pause does not unload hours of flow at once. */
  readonly maxOrdersPerStep: number;
}

/** Below this mean, the exact Poisson draw is cheap; above it, the normal approximation is close. */
const EXACT_POISSON_BELOW = 30;

/**
 * The market orders arriving during `dtMs`. `lastMoveTicks` is the fair price's last change,
 * whose sign tilts the flow when `momentum` is above zero.
 */
export function nextTakerOrders(
  rng: Rng,
  dtMs: number,
  params: TakerFlowParams,
  lastMoveTicks = 0,
): TakerOrder[] {
  if (!(dtMs >= 0)) throw new RangeError(`time step must not be negative, got ${dtMs}`);
  const expected = (params.ordersPerSecond * dtMs) / 1000;
  const count = Math.min(drawPoisson(rng, expected), params.maxOrdersPerStep);
  const buyShare = 0.5 + params.momentum * Math.sign(lastMoveTicks);
  const orders: TakerOrder[] = [];
  for (let index = 0; index < count; index++) {
    const side: Side = rng.nextFloat() < buyShare ? 'buy' : 'sell';
    orders.push({ side, lots: drawLots(rng, params) });
  }
  return orders;
}

function drawPoisson(rng: Rng, expected: number): number {
  if (!(expected > 0)) return 0;
  if (expected < EXACT_POISSON_BELOW) {
    // Knuth: count uniforms until their product falls below e^-expected.
    const threshold = Math.exp(-expected);
    let count = 0;
    let product = rng.nextFloat();
    while (product > threshold) {
      count++;
      product *= rng.nextFloat();
    }
    return count;
  }
  return Math.max(0, Math.round(expected + Math.sqrt(expected) * rng.nextNormal()));
}

function drawLots(rng: Rng, params: TakerFlowParams): number {
  // Inverse Pareto: minLots x U^(-1/alpha), with U in (0, 1].
  const uniform = 1 - rng.nextFloat();
  const lots = Math.floor(params.minLots * Math.exp(-Math.log(uniform) / params.tailIndex));
  return Math.max(1, Math.min(params.maxLots, lots));
}
