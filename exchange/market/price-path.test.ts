import { describe, expect, it } from 'vitest';
import { defaultMarketSetup } from './fair-values';
import { reanchor, stepFairPrice } from './price-path';
import type { PricePathParams } from './price-path';
import { forSymbol } from './random';

const BTC = defaultMarketSetup('BTCUSDT', { tick: '0.1', lot: '0.0001' });
const SECOND = 1000;
const DAY = 86_400_000;

function walk(params: PricePathParams, startTicks: number, steps: number, dtMs: number, seed = 1) {
  const rng = forSymbol(seed, 'BTCUSDT');
  let fair = startTicks;
  let low = fair;
  let high = fair;
  for (let step = 0; step < steps; step++) {
    fair = stepFairPrice(rng, fair, dtMs, params);
    if (fair < low) low = fair;
    if (fair > high) high = fair;
  }
  return { fair, low, high };
}

describe('stepFairPrice', () => {
  it('keeps the replay of existing journals: a seed gives these prices', () => {
    const rng = forSymbol(7, 'BTCUSDT');
    const prices: number[] = [];
    let fair = BTC.startFairTicks;
    for (let step = 0; step < 5; step++) {
      fair = stepFairPrice(rng, fair, 250, BTC.pricePath);
      prices.push(fair);
    }
    expect(prices).toEqual([949990, 949930, 949869, 949817, 949776]);
  });

  it('repeats itself exactly from the same generator state', () => {
    const first = walk(BTC.pricePath, BTC.startFairTicks, 10_000, 250, 9);
    const second = walk(BTC.pricePath, BTC.startFairTicks, 10_000, 250, 9);
    expect(second).toEqual(first);
    expect(walk(BTC.pricePath, BTC.startFairTicks, 10_000, 250, 10)).not.toEqual(first);
  });

  it('stays positive, whole and near its anchor over a million simulated seconds', () => {
    for (const seed of [1, 2, 3]) {
      const { fair, low, high } = walk(BTC.pricePath, BTC.startFairTicks, 1_000_000, SECOND, seed);
      expect(Number.isInteger(fair)).toBe(true);
      expect(low).toBeGreaterThan(BTC.startFairTicks * 0.7);
      expect(high).toBeLessThan(BTC.startFairTicks * 1.3);
      // ...yet it does move: a price that never left its start would be no market.
      expect(high - low).toBeGreaterThan(BTC.startFairTicks * 0.02);
    }
  });

  it('moves with the volatility it is given', () => {
    const params = { ...BTC.pricePath, burstsPerDay: 0 };
    const rng = forSymbol(11, 'BTCUSDT');
    const minute = 60 * SECOND;
    let fair = BTC.startFairTicks;
    let sumOfSquares = 0;
    const steps = 50_000;
    for (let step = 0; step < steps; step++) {
      const next = stepFairPrice(rng, fair, minute, params);
      sumOfSquares += Math.log(next / fair) ** 2;
      fair = next;
    }
    const minutesPerYear = 365.25 * 24 * 60;
    const annualised = Math.sqrt((sumOfSquares / steps) * minutesPerYear);
    expect(annualised).toBeGreaterThan(params.annualVolatility * 0.97);
    expect(annualised).toBeLessThan(params.annualVolatility * 1.03);
  });

  it('adds bursts: with them the largest one-second move is far larger', () => {
    const quiet = { ...BTC.pricePath, burstsPerDay: 0 };
    const bursty = { ...BTC.pricePath, burstsPerDay: 50, burstVolatility: 0.01 };
    const largestMove = (params: PricePathParams) => {
      const rng = forSymbol(12, 'BTCUSDT');
      let fair = BTC.startFairTicks;
      let largest = 0;
      for (let step = 0; step < 86_400; step++) {
        const next = stepFairPrice(rng, fair, SECOND, params);
        largest = Math.max(largest, Math.abs(next - fair));
        fair = next;
      }
      return largest;
    };
    // One second of 50 % a year is about 0.009 %; a burst moves about 1 %.
    expect(largestMove(quiet)).toBeLessThan(BTC.startFairTicks * 0.0005);
    expect(largestMove(bursty)).toBeGreaterThan(BTC.startFairTicks * 0.01);
  });

  it('drifts back toward the anchor from far away', () => {
    const { fair } = walk(BTC.pricePath, BTC.startFairTicks * 2, 90 * 24, 3_600_000, 4);
    expect(fair).toBeGreaterThan(BTC.startFairTicks * 0.8);
    expect(fair).toBeLessThan(BTC.startFairTicks * 1.2);
  });

  it('takes one long step like many short ones, so a stopped exchange resumes sensibly', () => {
    const params = { ...BTC.pricePath, burstsPerDay: 0 };
    const start = BTC.startFairTicks * 1.5;
    const samples = 400;
    const oneStep = forSymbol(5, 'BTCUSDT');
    const manySteps = forSymbol(6, 'BTCUSDT');
    let oneStepSum = 0;
    let manyStepsSum = 0;
    for (let sample = 0; sample < samples; sample++) {
      oneStepSum += Math.log(stepFairPrice(oneStep, start, 14 * DAY, params) / BTC.startFairTicks);
      let fair = start;
      for (let hour = 0; hour < 14 * 24; hour++) fair = stepFairPrice(manySteps, fair, 3_600_000, params);
      manyStepsSum += Math.log(fair / BTC.startFairTicks);
    }
    // After one half-life the log gap of ln(1.5) = 0.405 is about halved.
    expect(oneStepSum / samples).toBeCloseTo(Math.log(1.5) / 2, 1);
    expect(manyStepsSum / samples).toBeCloseTo(Math.log(1.5) / 2, 1);
  });

  it('keeps moving on a coarse tick and never goes below one tick', () => {
    const params: PricePathParams = {
      anchorTicks: 3,
      annualVolatility: 3,
      reversionHalfLifeDays: 14,
      burstsPerDay: 0,
      burstVolatility: 0,
    };
    const rng = forSymbol(8, 'SOLUSDT');
    let fair = 3;
    const seen = new Set<number>();
    for (let step = 0; step < 100_000; step++) {
      fair = stepFairPrice(rng, fair, SECOND, params);
      seen.add(fair);
    }
    expect(Math.min(...seen)).toBe(1);
    expect(seen.size).toBeGreaterThan(3);
  });

  it('stands still for a zero step and refuses a negative one or a bad price', () => {
    const rng = forSymbol(1, 'BTCUSDT');
    const before = rng.state;
    expect(stepFairPrice(rng, 12345, 0, BTC.pricePath)).toBe(12345);
    expect(rng.state).toEqual(before);
    expect(() => stepFairPrice(rng, 12345, -1, BTC.pricePath)).toThrow(RangeError);
    expect(() => stepFairPrice(rng, 0, 1000, BTC.pricePath)).toThrow(RangeError);
    expect(() => stepFairPrice(rng, 12.5, 1000, BTC.pricePath)).toThrow(RangeError);
  });

  it('walks freely without a pull when the half-life is infinite', () => {
    const free = { ...BTC.pricePath, reversionHalfLifeDays: Infinity };
    const { fair } = walk(free, BTC.startFairTicks, 1000, SECOND);
    expect(Number.isInteger(fair) && fair > 0).toBe(true);
  });
});

describe('reanchor', () => {
  it('pulls the walk toward the new price and leaves the rest alone', () => {
    const target = BTC.startFairTicks / 2;
    const moved = reanchor(BTC.pricePath, target);
    expect(moved).toEqual({ ...BTC.pricePath, anchorTicks: target });
    expect(BTC.pricePath.anchorTicks).toBe(BTC.startFairTicks);
    const { fair } = walk(moved, BTC.startFairTicks, 60 * 24, 3_600_000, 2);
    expect(fair).toBeGreaterThan(target * 0.8);
    expect(fair).toBeLessThan(target * 1.2);
  });

  it('refuses an anchor that is not a positive whole number of ticks', () => {
    expect(() => reanchor(BTC.pricePath, 0)).toThrow(RangeError);
    expect(() => reanchor(BTC.pricePath, 1.5)).toThrow(RangeError);
  });
});
