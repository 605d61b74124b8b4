import { describe, expect, it } from 'vitest';
import { defaultMarketSetup } from './fair-values';
import { buildQuoteLadder } from './liquidity';
import type { Level, QuoteLadder, QuoteLadderParams } from './liquidity';
import { forSymbol } from './random';

const BTC = defaultMarketSetup('BTCUSDT', { tick: '0.1', lot: '0.0001' });
const ETH = defaultMarketSetup('ETHUSDT', { tick: '0.01', lot: '0.01' });

function ladderProblems(ladder: QuoteLadder, fairTicks: number, params: QuoteLadderParams): string[] {
  const problems: string[] = [];
  const { bids, asks } = ladder;
  const bestBid = bids[0];
  const bestAsk = asks[0];
  if (bestBid === undefined || bestAsk === undefined) return ['an empty side'];
  if (!(bestBid[0] < fairTicks)) problems.push(`best bid ${bestBid[0]} not below fair ${fairTicks}`);
  if (!(bestAsk[0] >= fairTicks)) problems.push(`best ask ${bestAsk[0]} below fair ${fairTicks}`);
  const spread = bestAsk[0] - bestBid[0];
  if (spread < params.minSpreadTicks || spread > params.maxSpreadTicks) problems.push(`spread ${spread}`);
  const check = (levels: Level[], name: string, outward: (from: number, to: number) => boolean) => {
    levels.forEach(([price, lots], index) => {
      if (!Number.isSafeInteger(price) || price < 1) problems.push(`${name} price ${price}`);
      if (!Number.isSafeInteger(lots) || lots < 1) problems.push(`${name} lots ${lots}`);
      const previous = levels[index - 1];
      if (previous !== undefined && !outward(previous[0], price))
        problems.push(`${name} out of order at ${index}`);
    });
  };
  check(bids, 'bid', (from, to) => to < from);
  check(asks, 'ask', (from, to) => to > from);
  return problems;
}

describe('buildQuoteLadder', () => {
  it('quotes sorted, uncrossed sides of whole lots around the fair price', () => {
    for (const setup of [BTC, ETH]) {
      const rng = forSymbol(1, setup.symbol);
      for (let round = 0; round < 500; round++) {
        const fair = setup.startFairTicks + rng.nextInt(20_000) - 10_000;
        const ladder = buildQuoteLadder(rng, fair, setup.ladder);
        expect(ladderProblems(ladder, fair, setup.ladder)).toEqual([]);
        expect(ladder.bids).toHaveLength(60);
        expect(ladder.asks).toHaveLength(60);
      }
    }
  });

  it('is the same ladder for the same generator state, another for another', () => {
    const first = buildQuoteLadder(forSymbol(2, 'BTCUSDT'), 950_000, BTC.ladder);
    expect(buildQuoteLadder(forSymbol(2, 'BTCUSDT'), 950_000, BTC.ladder)).toEqual(first);
    expect(buildQuoteLadder(forSymbol(3, 'BTCUSDT'), 950_000, BTC.ladder)).not.toEqual(first);
  });

  it('spaces levels wider and sizes them larger away from the touch', () => {
    const rng = forSymbol(3, 'BTCUSDT');
    let nearGaps = 0;
    let farGaps = 0;
    let nearLots = 0;
    let farLots = 0;
    for (let round = 0; round < 200; round++) {
      const { asks, bids } = buildQuoteLadder(rng, 950_000, BTC.ladder);
      for (const side of [asks, bids]) {
        const price = (index: number) => (side[index] as Level)[0];
        const lots = (index: number) => (side[index] as Level)[1];
        nearGaps += Math.abs(price(10) - price(0));
        farGaps += Math.abs(price(59) - price(49));
        for (let index = 0; index < 10; index++) {
          nearLots += lots(index);
          farLots += lots(50 + index);
        }
      }
    }
    expect(farGaps).toBeGreaterThan(nearGaps * 5);
    expect(farLots).toBeGreaterThan(nearLots * 2);
  });

  it('keeps the touch tight: a spread of a few ticks, the first levels a tick or two apart', () => {
    const rng = forSymbol(4, 'ETHUSDT');
    const { bids, asks } = buildQuoteLadder(rng, 340_000, ETH.ladder);
    const [bestBid] = bids[0] as Level;
    const [bestAsk] = asks[0] as Level;
    expect(bestAsk - bestBid).toBeLessThanOrEqual(3);
    expect((asks[1] as Level)[0] - bestAsk).toBeLessThanOrEqual(2);
    expect(bestBid - (bids[1] as Level)[0]).toBeLessThanOrEqual(2);
  });

  it('quotes fewer bids rather than prices below one tick', () => {
    const rng = forSymbol(5, 'BTCUSDT');
    const ladder = buildQuoteLadder(rng, 30, BTC.ladder);
    expect(ladderProblems(ladder, 30, BTC.ladder)).toEqual([]);
    expect(ladder.bids.length).toBeLessThan(60);
    expect(ladder.asks).toHaveLength(60);
    const lowest = ladder.bids[ladder.bids.length - 1] as Level;
    expect(lowest[0]).toBeGreaterThanOrEqual(1);
  });

  it('quotes at least one lot even when the typical size rounds to nothing', () => {
    const tiny = { ...BTC.ladder, touchLots: 0.01, sizeGrowthPerLevel: 0 };
    const { bids, asks } = buildQuoteLadder(forSymbol(6, 'BTCUSDT'), 950_000, tiny);
    for (const [, lots] of [...bids, ...asks]) expect(lots).toBe(1);
  });

  it('refuses a fair price below one tick and parameters that cannot make a ladder', () => {
    const rng = forSymbol(7, 'BTCUSDT');
    expect(() => buildQuoteLadder(rng, 0, BTC.ladder)).toThrow(RangeError);
    expect(() => buildQuoteLadder(rng, 100, { ...BTC.ladder, minSpreadTicks: 0 })).toThrow(/minSpreadTicks/);
    expect(() => buildQuoteLadder(rng, 100, { ...BTC.ladder, maxSpreadTicks: 0 })).toThrow(/maxSpreadTicks/);
    expect(() => buildQuoteLadder(rng, 100, { ...BTC.ladder, levelsPerSide: 0 })).toThrow(/levelsPerSide/);
    expect(() => buildQuoteLadder(rng, 100, { ...BTC.ladder, gapGrowth: 0.9 })).toThrow(/gapGrowth/);
  });
});
