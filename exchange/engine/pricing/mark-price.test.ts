import { describe, expect, it } from 'vitest';
import { BasisAverage, markPriceOf, nextFundingTime } from './mark-price';

describe('markPriceOf: median(last, index x (1 + rate x time left / interval), index + MA basis)', () => {
  it('follows the published example of price 2', () => {
    // Index 91,500 (915,000 ticks of 0.1), rate 0.01%, 120 of 480 minutes left:
    // price 2 = 91,500 x (1 + 0.0001 x 120 / 480) = 91,502.2875 -> 915,022.875 ticks.
    // Last 91,510 and price 3 = 91,500 + 1.0 basis = 91,501: the median is price 2, rounded.
    const mark = markPriceOf({
      lastTicks: 915_100,
      indexTicks: 915_000,
      fundingRate: 10_000,
      msToNextFunding: 120 * 60_000,
      intervalHours: 8,
      averageBasis: 10,
    });
    expect(mark).toBe(915_023);
  });

  it('takes price 3 when the last price runs away', () => {
    // Last 92,000; price 2 91,502.2875; price 3 = 91,500 - 0.5 = 91,499.5: median 91,502.2875.
    // With no funding time left, price 2 is the index itself: median(92,000, 91,500, 91,499.5).
    const mark = markPriceOf({
      lastTicks: 920_000,
      indexTicks: 915_000,
      fundingRate: 10_000,
      msToNextFunding: 0,
      intervalHours: 8,
      averageBasis: -5,
    });
    expect(mark).toBe(915_000);
  });

  it('has no funding term for a contract without funding', () => {
    // median(92,000, 91,500, 91,499.5) = 91,500.
    const mark = markPriceOf({
      lastTicks: 920_000,
      indexTicks: 915_000,
      fundingRate: 10_000,
      msToNextFunding: nextFundingTime(0, 0),
      intervalHours: 0,
      averageBasis: -5,
    });
    expect(mark).toBe(915_000);
  });

  it('funding times are UTC 00:00, 08:00 and 16:00 for 8 hours', () => {
    // 2023-11-14 22:13:20 UTC -> 2023-11-15 00:00 UTC.
    expect(new Date(nextFundingTime(1_700_000_000_000, 8)).toISOString()).toBe('2023-11-15T00:00:00.000Z');
    expect(new Date(nextFundingTime(Date.UTC(2024, 0, 1, 8), 8)).toISOString()).toBe(
      '2024-01-01T16:00:00.000Z',
    );
  });
});

describe('BasisAverage', () => {
  it('averages (bid1 + ask1) / 2 - index over the last 60 five-second samples', () => {
    const basis = BasisAverage.empty();
    basis.sample(0, 999, 1_003, 1_000); // +1
    basis.sample(4_999, 2_000, 2_000, 1_000); // same slot: ignored
    basis.sample(5_000, 1_000, 1_002, 1_000); // +1
    basis.sample(10_000, 996, 998, 1_000); // -3
    expect(basis.average).toBeCloseTo(-1 / 3, 12);
    for (let slot = 3; slot < 63; slot++) basis.sample(slot * 5_000, 1_004, 1_006, 1_000); // +5
    expect(basis.average).toBe(5);
    basis.clear();
    expect(basis.average).toBe(0);
  });
});
