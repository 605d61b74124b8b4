import { describe, expect, it } from 'vitest';
import { depthScales, mergeLevels, mergeTicksForScale, resolveDepthRequest } from './merge-depth';

describe('depthScales', () => {
  it('starts at the tick and grows tenfold per gear', () => {
    expect(depthScales(1, 1)).toEqual(['0.1', '1', '10', '100']);
    expect(depthScales(2, 1)).toEqual(['0.01', '0.1', '1', '10']);
    expect(depthScales(3, 1)).toEqual(['0.001', '0.01', '0.1', '1']);
    expect(depthScales(0, 1)).toEqual(['1', '10', '100', '1000']);
  });

  it('honours a tick of several price steps', () => {
    expect(depthScales(2, 5)).toEqual(['0.05', '0.5', '5', '50']);
    expect(depthScales(1, 25)).toEqual(['2.5', '25', '250', '2500']);
  });

  it('refuses a grid that is no grid', () => {
    expect(() => depthScales(-1, 1)).toThrow(RangeError);
    expect(() => depthScales(1, 0)).toThrow(RangeError);
  });

  it('matches each gear to its bucket in ticks', () => {
    expect([0, 1, 2, 3].map(mergeTicksForScale)).toEqual([1, 10, 100, 1000]);
  });
});

describe('mergeLevels', () => {
  const asks: Array<[number, number]> = [
    [950_001, 2],
    [950_009, 3],
    [950_010, 4],
    [950_011, 5],
    [950_025, 6],
    [950_100, 7],
  ];
  const bids: Array<[number, number]> = [
    [950_000, 1],
    [949_999, 2],
    [949_991, 3],
    [949_990, 4],
    [949_989, 5],
    [949_900, 6],
  ];

  it('rounds asks up to the bucket and sums their sizes', () => {
    expect(mergeLevels(asks, 'asks', 10, 100)).toEqual([
      [950_010, 9],
      [950_020, 5],
      [950_030, 6],
      [950_100, 7],
    ]);
  });

  it('rounds bids down to the bucket and sums their sizes', () => {
    expect(mergeLevels(bids, 'bids', 10, 100)).toEqual([
      [950_000, 1],
      [949_990, 9],
      [949_980, 5],
      [949_900, 6],
    ]);
  });

  it('keeps a price already on the bucket where it is', () => {
    expect(mergeLevels([[950_100, 1]], 'asks', 100, 10)).toEqual([[950_100, 1]]);
    expect(mergeLevels([[950_100, 1]], 'bids', 100, 10)).toEqual([[950_100, 1]]);
  });

  it('leaves levels untouched at one tick a bucket', () => {
    expect(mergeLevels(asks, 'asks', 1, 100)).toEqual(asks);
    expect(mergeLevels(bids, 'bids', 1, 100)).toEqual(bids);
  });

  it('returns at most the levels asked for, the last one complete', () => {
    expect(mergeLevels(asks, 'asks', 10, 2)).toEqual([
      [950_010, 9],
      [950_020, 5],
    ]);
    expect(mergeLevels(bids, 'bids', 10, 1)).toEqual([[950_000, 1]]);
    expect(mergeLevels(bids, 'bids', 10, 0)).toEqual([]);
    expect(mergeLevels([], 'asks', 10, 5)).toEqual([]);
  });

  it('does not change the levels it is given', () => {
    const input: Array<[number, number]> = [
      [11, 1],
      [12, 2],
    ];
    mergeLevels(input, 'asks', 10, 5);
    expect(input).toEqual([
      [11, 1],
      [12, 2],
    ]);
  });

  it('refuses a bucket that is not a whole number of ticks', () => {
    expect(() => mergeLevels(asks, 'asks', 0, 5)).toThrow(RangeError);
    expect(() => mergeLevels(asks, 'asks', 2.5, 5)).toThrow(RangeError);
  });
});

describe('resolveDepthRequest', () => {
  it('serves unmerged depth of 100 levels when nothing is asked', () => {
    expect(resolveDepthRequest(undefined, undefined)).toEqual({
      scaleIndex: 0,
      precision: 'scale0',
      maxLevels: 100,
      isMaxPrecision: 'YES',
    });
  });

  it('reads each limit gear, max being 150', () => {
    expect(resolveDepthRequest('scale0', '1').maxLevels).toBe(1);
    expect(resolveDepthRequest('scale0', '5').maxLevels).toBe(5);
    expect(resolveDepthRequest('scale0', '15').maxLevels).toBe(15);
    expect(resolveDepthRequest('scale0', '50').maxLevels).toBe(50);
    expect(resolveDepthRequest('scale0', 'max').maxLevels).toBe(150);
  });

  it('serves the scale asked for when the pair has it', () => {
    expect(resolveDepthRequest('scale2', '15', 4)).toEqual({
      scaleIndex: 2,
      precision: 'scale2',
      maxLevels: 15,
      isMaxPrecision: 'NO',
    });
    expect(resolveDepthRequest('scale3', undefined, 4).scaleIndex).toBe(3);
  });

  it("reduces a scale the pair lacks to the pair's coarsest", () => {
    expect(resolveDepthRequest('scale3', '5', 2)).toEqual({
      scaleIndex: 1,
      precision: 'scale1',
      maxLevels: 5,
      isMaxPrecision: 'NO',
    });
    expect(resolveDepthRequest('scale2', '5', 1)).toMatchObject({ scaleIndex: 0, isMaxPrecision: 'YES' });
  });

  it('refuses a pair without any scale', () => {
    expect(() => resolveDepthRequest('scale0', '5', 0)).toThrow(RangeError);
  });
});
