import { describe, expect, it } from 'vitest';
import { forSymbol, fromState } from './random';
import type { Rng } from './random';

function draws(rng: Rng, count: number): number[] {
  return Array.from({ length: count }, () => rng.nextUint32());
}

describe('Rng', () => {
  it('is xoshiro128** (reference outputs for the state 1, 2, 3, 4)', () => {
    expect(draws(fromState([1, 2, 3, 4]), 5)).toEqual([11520, 0, 5927040, 70819200, 2031721883]);
  });

  it('keeps the streams of existing journals: a seed and symbol always give these numbers', () => {
    const rng = forSymbol(7, 'BTCUSDT');
    expect(rng.state).toEqual([4230737952, 932269957, 2619354521, 2468611248]);
    expect(draws(rng, 3)).toEqual([1165832410, 366627123, 1046456905]);
  });

  it('gives the same sequence for the same seed and symbol', () => {
    expect(draws(forSymbol(42, 'ETHUSDT'), 1000)).toEqual(draws(forSymbol(42, 'ETHUSDT'), 1000));
  });

  it('gives each symbol and each seed its own stream', () => {
    const btc = draws(forSymbol(42, 'BTCUSDT'), 50);
    expect(draws(forSymbol(42, 'ETHUSDT'), 50)).not.toEqual(btc);
    expect(draws(forSymbol(43, 'BTCUSDT'), 50)).not.toEqual(btc);
    expect(draws(forSymbol(42, 'BTCUSD'), 50)).not.toEqual(btc);
  });

  it('continues identically from a state that went through JSON', () => {
    const original = forSymbol(1, 'SOLUSDT');
    draws(original, 123);
    original.nextNormal();
    const restored = fromState(JSON.parse(JSON.stringify(original.state)) as unknown[]);
    expect(draws(restored, 500)).toEqual(draws(original, 500));
    expect(restored.nextNormal()).toBe(original.nextNormal());
  });

  it('hands out a copy of its state, not a live view', () => {
    const rng = forSymbol(1, 'BTCUSDT');
    const before = rng.state;
    rng.nextUint32();
    expect(rng.state).not.toEqual(before);
  });

  it('refuses a state that is not four uint32 words or is all zero', () => {
    expect(() => fromState([1, 2, 3])).toThrow(RangeError);
    expect(() => fromState([1, 2, 3, 4, 5])).toThrow(RangeError);
    expect(() => fromState([1, 2, 3, -1])).toThrow(RangeError);
    expect(() => fromState([1, 2, 3, 2 ** 32])).toThrow(RangeError);
    expect(() => fromState([1, 2, 3, 0.5])).toThrow(RangeError);
    expect(() => fromState(['1', 2, 3, 4])).toThrow(RangeError);
    expect(() => fromState([0, 0, 0, 0])).toThrow(RangeError);
  });

  it('refuses a seed that is not a safe integer', () => {
    expect(() => forSymbol(1.5, 'BTCUSDT')).toThrow(RangeError);
    expect(() => forSymbol(2 ** 60, 'BTCUSDT')).toThrow(RangeError);
  });

  it('draws floats in [0, 1) averaging one half', () => {
    const rng = forSymbol(3, 'BTCUSDT');
    let sum = 0;
    let outside = 0;
    for (let index = 0; index < 100_000; index++) {
      const value = rng.nextFloat();
      if (!(value >= 0 && value < 1)) outside++;
      sum += value;
    }
    expect(outside).toBe(0);
    expect(sum / 100_000).toBeCloseTo(0.5, 2);
  });

  it('draws integers below the bound, each about equally often', () => {
    const rng = forSymbol(4, 'BTCUSDT');
    const counts = new Map<number, number>();
    for (let index = 0; index < 70_000; index++) {
      const value = rng.nextInt(7);
      counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    for (const count of counts.values()) expect(Math.abs(count - 10_000)).toBeLessThan(400);
    expect(rng.nextInt(1)).toBe(0);
    expect(() => rng.nextInt(0)).toThrow(RangeError);
    expect(() => rng.nextInt(2.5)).toThrow(RangeError);
  });

  it('draws normals with mean 0 and deviation 1', () => {
    const rng = forSymbol(5, 'BTCUSDT');
    const count = 100_000;
    let sum = 0;
    let sumOfSquares = 0;
    let beyondTwo = 0;
    for (let index = 0; index < count; index++) {
      const value = rng.nextNormal();
      sum += value;
      sumOfSquares += value * value;
      if (Math.abs(value) > 2) beyondTwo++;
    }
    const mean = sum / count;
    expect(mean).toBeCloseTo(0, 1);
    expect(Math.sqrt(sumOfSquares / count - mean * mean)).toBeCloseTo(1, 1);
    // A normal lies beyond two deviations 4.55 % of the time.
    expect(beyondTwo / count).toBeGreaterThan(0.04);
    expect(beyondTwo / count).toBeLessThan(0.051);
  });
});
