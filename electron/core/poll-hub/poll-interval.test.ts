import { describe, expect, it } from 'vitest';
import { backoffIntervalMs, DEFAULT_POLL_SHARE, pollIntervalMs } from './poll-interval';

const share = DEFAULT_POLL_SHARE;

describe('pollIntervalMs', () => {
  it('polls one key at 70% of the endpoint limit', () => {
    // 20 per second: 14 polls per second, one every 72 ms (rounded up, never faster).
    expect(pollIntervalMs({ perSecond: 20, keys: 1, share, minIntervalMs: 0 })).toBe(72);
    // 5 per second: 3.5 polls per second.
    expect(pollIntervalMs({ perSecond: 5, keys: 1, share, minIntervalMs: 0 })).toBe(286);
  });

  it('divides the share among the keys of one endpoint', () => {
    const one = pollIntervalMs({ perSecond: 10, keys: 1, share, minIntervalMs: 0 });
    const four = pollIntervalMs({ perSecond: 10, keys: 4, share, minIntervalMs: 0 });
    expect(four).toBeGreaterThanOrEqual(one * 4 - 3);
    // Four keys together never exceed 70% of the limit.
    expect((4 * 1_000) / four).toBeLessThanOrEqual(10 * share);
  });

  it('respects the floor', () => {
    expect(pollIntervalMs({ perSecond: 20, keys: 1, share, minIntervalMs: 250 })).toBe(250);
  });
});

describe('backoffIntervalMs', () => {
  it('doubles after each failure, up to the cap, and starts over after a success', () => {
    expect([0, 1, 2, 3, 8].map((failures) => backoffIntervalMs(300, failures, 2_000))).toEqual([
      300, 600, 1_200, 2_000, 2_000,
    ]);
  });

  it('never goes below the interval itself', () => {
    expect(backoffIntervalMs(5_000, 1, 2_000)).toBe(5_000);
  });
});
