import { describe, expect, it } from 'vitest';
import { defaultMarketSetup } from './fair-values';
import { forSymbol } from './random';
import { nextTakerOrders } from './taker-flow';
import type { TakerFlowParams, TakerOrder } from './taker-flow';

const smallest = (values: number[]) => values.reduce((low, value) => Math.min(low, value), Infinity);
const largest = (values: number[]) => values.reduce((high, value) => Math.max(high, value), -Infinity);

const BTC = defaultMarketSetup('BTCUSDT', { tick: '0.1', lot: '0.0001' });

function collect(
  params: TakerFlowParams,
  steps: number,
  dtMs: number,
  lastMoveTicks = 0,
  seed = 1,
): TakerOrder[] {
  const rng = forSymbol(seed, 'BTCUSDT');
  const orders: TakerOrder[] = [];
  for (let step = 0; step < steps; step++) orders.push(...nextTakerOrders(rng, dtMs, params, lastMoveTicks));
  return orders;
}

describe('nextTakerOrders', () => {
  it('arrives at the expected rate for short steps', () => {
    const params = { ...BTC.takerFlow, ordersPerSecond: 4 };
    const orders = collect(params, 100_000, 250);
    // 100,000 steps of a quarter second at 4 a second: 100,000 expected, deviation about 316.
    expect(orders.length).toBeGreaterThan(99_000);
    expect(orders.length).toBeLessThan(101_000);
  });

  it('arrives at the expected rate for long steps too', () => {
    const params = { ...BTC.takerFlow, ordersPerSecond: 4, maxOrdersPerStep: 10_000 };
    const orders = collect(params, 2_000, 20_000);
    // 2,000 steps of 20 s at 4 a second: 160,000 expected, deviation 400.
    expect(orders.length).toBeGreaterThan(158_500);
    expect(orders.length).toBeLessThan(161_500);
  });

  it('repeats itself from the same generator state', () => {
    expect(collect(BTC.takerFlow, 1000, 500, 0, 3)).toEqual(collect(BTC.takerFlow, 1000, 500, 0, 3));
    expect(collect(BTC.takerFlow, 1000, 500, 0, 4)).not.toEqual(collect(BTC.takerFlow, 1000, 500, 0, 3));
  });

  it('sizes orders mostly small with a heavy tail, within one lot and the cap', () => {
    const params = { ...BTC.takerFlow, minLots: 10, tailIndex: 1.3, maxLots: 30_000 };
    const sizes = collect(params, 50_000, 1000).map((order) => order.lots);
    const share = (test: (lots: number) => boolean) => sizes.filter(test).length / sizes.length;
    expect(smallest(sizes)).toBe(10);
    expect(largest(sizes)).toBeLessThanOrEqual(30_000);
    // Pareto with index 1.3: half below 10 x 2^(1/1.3) = 17 lots; 10^-1.3 = 5 % above 100 lots.
    expect(share((lots) => lots <= 17)).toBeGreaterThan(0.45);
    expect(share((lots) => lots <= 17)).toBeLessThan(0.55);
    expect(share((lots) => lots > 100)).toBeGreaterThan(0.04);
    expect(share((lots) => lots > 100)).toBeLessThan(0.06);
    expect(share((lots) => lots > 1000)).toBeGreaterThan(0);
  });

  it('never sizes an order below one lot', () => {
    const params = { ...BTC.takerFlow, minLots: 0.2 };
    const sizes = collect(params, 10_000, 1000).map((order) => order.lots);
    expect(smallest(sizes)).toBe(1);
  });

  it('balances buys and sells without momentum and leans with the last move when asked', () => {
    const buyShare = (orders: TakerOrder[]) =>
      orders.filter((order) => order.side === 'buy').length / orders.length;
    const still = { ...BTC.takerFlow, momentum: 0 };
    const leaning = { ...BTC.takerFlow, momentum: 0.1 };
    expect(buyShare(collect(still, 20_000, 1000, 5))).toBeCloseTo(0.5, 1);
    expect(buyShare(collect(leaning, 20_000, 1000, 0))).toBeCloseTo(0.5, 1);
    expect(buyShare(collect(leaning, 20_000, 1000, 5))).toBeCloseTo(0.6, 1);
    expect(buyShare(collect(leaning, 20_000, 1000, -5))).toBeCloseTo(0.4, 1);
  });

  it('sends nothing in a zero step and no more than the cap after a long pause', () => {
    const rng = forSymbol(5, 'BTCUSDT');
    expect(nextTakerOrders(rng, 0, BTC.takerFlow)).toEqual([]);
    expect(nextTakerOrders(rng, 86_400_000, BTC.takerFlow)).toHaveLength(BTC.takerFlow.maxOrdersPerStep);
    expect(() => nextTakerOrders(rng, -1, BTC.takerFlow)).toThrow(RangeError);
  });
});
