import { describe, expect, it } from 'vitest';
import { MINUTES_PER_WINDOW, TickerStats } from './ticker-stats';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** 2025-01-10T00:00:00Z */
const MIDNIGHT = Date.UTC(2025, 0, 10);

describe('TickerStats', () => {
  it('reports the initial price until the first trade', () => {
    const stats = new TickerStats(950_000);
    expect(stats.view(MIDNIGHT)).toEqual({
      lastPriceTicks: 950_000,
      open24h: 950_000,
      high24h: 950_000,
      low24h: 950_000,
      baseVolumeLots: 0,
      quoteVolumeUnits: 0n,
      openUtc: 950_000,
    });
  });

  it('sums the trades of the last 24 hours', () => {
    const stats = new TickerStats(100);
    stats.record(MIDNIGHT + 1 * HOUR, 101, 2);
    stats.record(MIDNIGHT + 1 * HOUR + 5, 120, 1);
    stats.record(MIDNIGHT + 2 * HOUR, 90, 3);
    stats.record(MIDNIGHT + 3 * HOUR, 105, 4);
    expect(stats.view(MIDNIGHT + 4 * HOUR)).toEqual({
      lastPriceTicks: 105,
      open24h: 101,
      high24h: 120,
      low24h: 90,
      baseVolumeLots: 10,
      quoteVolumeUnits: BigInt(101 * 2 + 120 + 90 * 3 + 105 * 4),
      openUtc: 101,
    });
  });

  it('keeps quote volume exact beyond the range of a float', () => {
    const stats = new TickerStats(1);
    const price = 9_000_000_000_000;
    for (let trade = 0; trade < 3; trade++) stats.record(MIDNIGHT + trade, price, 1_000_003);
    expect(stats.view(MIDNIGHT).quoteVolumeUnits).toBe(3n * 9_000_000_000_000n * 1_000_003n);
  });

  it('lets a trade leave the window 24 hours after its minute', () => {
    const stats = new TickerStats(100);
    const tradeAt = MIDNIGHT + 10 * HOUR + 30_000;
    stats.record(tradeAt, 150, 5);
    stats.record(tradeAt + 2 * HOUR, 140, 1);
    expect(stats.view(tradeAt + DAY - MINUTE)).toMatchObject({
      open24h: 150,
      high24h: 150,
      baseVolumeLots: 6,
    });
    const later = stats.view(tradeAt + DAY);
    expect(later).toMatchObject({ open24h: 140, high24h: 140, low24h: 140, baseVolumeLots: 1 });
    expect(later.quoteVolumeUnits).toBe(140n);
    const empty = stats.view(tradeAt + 2 * HOUR + DAY);
    expect(empty).toMatchObject({
      open24h: 140,
      high24h: 140,
      low24h: 140,
      baseVolumeLots: 0,
      lastPriceTicks: 140,
    });
    expect(empty.quoteVolumeUnits).toBe(0n);
  });

  it('reuses a minute bucket a day later without carrying the old trades along', () => {
    const stats = new TickerStats(100);
    stats.record(MIDNIGHT, 200, 7);
    stats.record(MIDNIGHT + DAY, 300, 1);
    expect(stats.view(MIDNIGHT + DAY)).toMatchObject({
      open24h: 300,
      high24h: 300,
      low24h: 300,
      baseVolumeLots: 1,
    });
  });

  it('keeps rolling over several days of steady trading', () => {
    const stats = new TickerStats(1000);
    for (let minute = 0; minute < 3 * MINUTES_PER_WINDOW; minute++) {
      stats.record(MIDNIGHT + minute * MINUTE, 1000 + minute, 1);
    }
    const now = MIDNIGHT + (3 * MINUTES_PER_WINDOW - 1) * MINUTE;
    const view = stats.view(now);
    expect(view.baseVolumeLots).toBe(MINUTES_PER_WINDOW);
    expect(view.open24h).toBe(1000 + 2 * MINUTES_PER_WINDOW);
    expect(view.high24h).toBe(1000 + 3 * MINUTES_PER_WINDOW - 1);
    expect(view.low24h).toBe(1000 + 2 * MINUTES_PER_WINDOW);
  });

  it('drops a trade older than the window it would land in', () => {
    const stats = new TickerStats(100);
    stats.record(MIDNIGHT + DAY, 300, 1);
    stats.record(MIDNIGHT, 200, 7);
    expect(stats.view(MIDNIGHT + DAY)).toMatchObject({
      lastPriceTicks: 300,
      baseVolumeLots: 1,
      high24h: 300,
    });
  });

  it('opens the UTC day at its first trade, and at the last price before that trade', () => {
    const stats = new TickerStats(100);
    stats.record(MIDNIGHT - HOUR, 110, 1);
    stats.record(MIDNIGHT - MINUTE, 120, 1);
    expect(stats.view(MIDNIGHT - MINUTE).openUtc).toBe(110);
    expect(stats.view(MIDNIGHT + HOUR).openUtc).toBe(120);
    stats.record(MIDNIGHT + 2 * HOUR, 130, 1);
    stats.record(MIDNIGHT + 3 * HOUR, 140, 1);
    expect(stats.view(MIDNIGHT + 4 * HOUR).openUtc).toBe(130);
    expect(stats.view(MIDNIGHT + DAY + HOUR).openUtc).toBe(140);
  });

  it('survives a JSON round trip and carries on identically', () => {
    const original = new TickerStats(500);
    for (let trade = 0; trade < 3000; trade++) {
      original.record(MIDNIGHT + trade * 37_000, 500 + ((trade * 7) % 50), 1 + (trade % 4));
    }
    const text = JSON.stringify(original.toJSON());
    const restored = TickerStats.fromJSON(JSON.parse(text));
    const now = MIDNIGHT + 3000 * 37_000;
    expect(restored.view(now)).toEqual(original.view(now));
    expect(JSON.stringify(restored.toJSON())).toBe(text);
    original.record(now + 1, 777, 9);
    restored.record(now + 1, 777, 9);
    expect(restored.view(now + DAY / 2)).toEqual(original.view(now + DAY / 2));
  });

  it('writes volumes as decimal strings and at most one bucket per minute of the window', () => {
    const stats = new TickerStats(1);
    for (let minute = 0; minute < 2 * MINUTES_PER_WINDOW; minute++)
      stats.record(MIDNIGHT + minute * MINUTE, 5, 2);
    const json = stats.toJSON();
    expect(json.buckets).toHaveLength(MINUTES_PER_WINDOW);
    expect(json.buckets[0]).toEqual([MIDNIGHT / MINUTE + MINUTES_PER_WINDOW, 5, 5, 5, 5, 2, '10']);
  });

  it('refuses malformed JSON', () => {
    const good = new TickerStats(5).toJSON();
    expect(() => TickerStats.fromJSON({ ...good, lastPriceTicks: 0 })).toThrow();
    expect(() => TickerStats.fromJSON({ ...good, buckets: [[1, 5, 5, 5, 5, 1, 10]] })).toThrow();
    expect(() => TickerStats.fromJSON(null)).toThrow();
  });

  it('answers from its cache until a trade or a new minute changes the answer', () => {
    const stats = new TickerStats(100);
    stats.record(MIDNIGHT, 100, 1);
    const first = stats.view(MIDNIGHT + 10_000);
    expect(stats.view(MIDNIGHT + 50_000)).toBe(first);
    stats.record(MIDNIGHT + 51_000, 101, 1);
    const second = stats.view(MIDNIGHT + 52_000);
    expect(second).not.toBe(first);
    expect(second.baseVolumeLots).toBe(2);
    expect(stats.view(MIDNIGHT + MINUTE)).not.toBe(second);
  });

  it('refuses trades that cannot happen', () => {
    const stats = new TickerStats(100);
    expect(() => stats.record(MIDNIGHT, 0, 1)).toThrow(RangeError);
    expect(() => stats.record(MIDNIGHT, 100, 0)).toThrow(RangeError);
    expect(() => stats.record(MIDNIGHT, 100.5, 1)).toThrow(RangeError);
    expect(() => stats.record(-1, 100, 1)).toThrow(RangeError);
    expect(() => new TickerStats(0)).toThrow(RangeError);
  });
});
