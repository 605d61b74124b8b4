import { describe, expect, it } from 'vitest';
import { MARKET_SYMBOLS, defaultMarketSetup, hasDefaultMarket } from './fair-values';
import { buildQuoteLadder } from './liquidity';
import { stepFairPrice } from './price-path';
import { forSymbol } from './random';
import { nextTakerOrders } from './taker-flow';

/** The grids of the contracts the exchange lists (tick = 10^-pricePlace, lot = 10^-volumePlace). */
const GRIDS = {
  BTCUSDT: { tick: '0.1', lot: '0.0001' },
  ETHUSDT: { tick: '0.01', lot: '0.01' },
  SOLUSDT: { tick: '0.001', lot: '0.1' },
  BTCUSD: { tick: '0.1', lot: '0.001' },
  BTCPERP: { tick: '0.1', lot: '0.0001' },
} as const;

describe('defaultMarketSetup', () => {
  it('covers every symbol the exchange lists', () => {
    expect([...MARKET_SYMBOLS].sort()).toEqual(['BTCPERP', 'BTCUSD', 'BTCUSDT', 'ETHUSDT', 'SOLUSDT']);
    expect(hasDefaultMarket('BTCUSDT')).toBe(true);
    expect(hasDefaultMarket('DOGEUSDT')).toBe(false);
    expect(hasDefaultMarket('toString')).toBe(false);
  });

  it('starts at today-like prices, in the contract ticks', () => {
    expect(defaultMarketSetup('BTCUSDT', GRIDS.BTCUSDT).startFairTicks).toBe(950_000);
    expect(defaultMarketSetup('ETHUSDT', GRIDS.ETHUSDT).startFairTicks).toBe(340_000);
    expect(defaultMarketSetup('SOLUSDT', GRIDS.SOLUSDT).startFairTicks).toBe(180_000);
    expect(defaultMarketSetup('BTCUSD', GRIDS.BTCUSD).startFairTicks).toBe(950_000);
    expect(defaultMarketSetup('BTCPERP', { tick: '0.5', lot: '0.0001' }).startFairTicks).toBe(190_000);
  });

  it('anchors the price path at the starting price', () => {
    for (const symbol of MARKET_SYMBOLS) {
      const setup = defaultMarketSetup(symbol, GRIDS[symbol]);
      expect(setup.symbol).toBe(symbol);
      expect(setup.pricePath.anchorTicks).toBe(setup.startFairTicks);
    }
  });

  it('expresses sizes in the contract lots', () => {
    expect(defaultMarketSetup('BTCUSDT', GRIDS.BTCUSDT).ladder.touchLots).toBe(2000);
    expect(defaultMarketSetup('BTCUSD', GRIDS.BTCUSD).ladder.touchLots).toBe(100);
    expect(defaultMarketSetup('BTCUSDT', GRIDS.BTCUSDT).takerFlow.minLots).toBe(10);
    expect(defaultMarketSetup('BTCUSDT', { tick: '0.1', lot: '0.01' }).takerFlow.minLots).toBe(1);
  });

  it('never rounds a gap or a size to nothing on a coarse grid', () => {
    const coarse = defaultMarketSetup('SOLUSDT', { tick: '1', lot: '1000' });
    expect(coarse.startFairTicks).toBe(180);
    expect(coarse.ladder.firstGapTicks).toBe(1);
    expect(coarse.ladder.touchLots).toBe(1);
    expect(coarse.takerFlow.minLots).toBe(1);
    expect(coarse.takerFlow.maxLots).toBeGreaterThanOrEqual(coarse.takerFlow.minLots);
  });

  it('gives every symbol a market that runs: 60 levels a side, flow, a moving price', () => {
    for (const symbol of MARKET_SYMBOLS) {
      const setup = defaultMarketSetup(symbol, GRIDS[symbol]);
      const rng = forSymbol(1, symbol);
      let fair = setup.startFairTicks;
      let orders = 0;
      for (let step = 0; step < 3600; step++) {
        fair = stepFairPrice(rng, fair, 1000, setup.pricePath);
        orders += nextTakerOrders(rng, 1000, setup.takerFlow).length;
      }
      const ladder = buildQuoteLadder(rng, fair, setup.ladder);
      expect(ladder.bids).toHaveLength(60);
      expect(ladder.asks).toHaveLength(60);
      expect(fair).not.toBe(setup.startFairTicks);
      expect(orders / 3600).toBeCloseTo(setup.takerFlow.ordersPerSecond, 0);
    }
  });

  it('refuses an unknown symbol and a grid that is not positive decimals', () => {
    expect(() => defaultMarketSetup('DOGEUSDT', GRIDS.BTCUSDT)).toThrow(/DOGEUSDT/);
    expect(() => defaultMarketSetup('BTCUSDT', { tick: '0', lot: '0.0001' })).toThrow(/tick/);
    expect(() => defaultMarketSetup('BTCUSDT', { tick: '0.1', lot: '-1' })).toThrow(/lot/);
    expect(() => defaultMarketSetup('BTCUSDT', { tick: 'abc', lot: '0.0001' })).toThrow(/tick/);
  });
});
