// Rolling 24-hour statistics of one symbol's trades, in bounded memory: one bucket per minute,
// 1440 of them in a ring, each reused once its minute has left the window.
import { z } from 'zod';

export const MINUTES_PER_WINDOW = 1440;
const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;
const EMPTY = -1;

export interface TickerView {
  readonly lastPriceTicks: number;
  /** Price of the first trade in the window; the last price when the window holds none. */
  readonly open24h: number;
  readonly high24h: number;
  readonly low24h: number;
  readonly baseVolumeLots: number;
  /** Sum of price ticks x lots over the window. */
  readonly quoteVolumeUnits: bigint;
  /** Price of the first trade of the current UTC day; before it, the last price. */
  readonly openUtc: number;
}

const positiveInteger = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const minuteIndex = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** [minute since the epoch, open, high, low, close, base lots, quote units as a decimal string] */
const bucketSchema = z.tuple([
  minuteIndex,
  positiveInteger,
  positiveInteger,
  positiveInteger,
  positiveInteger,
  z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  z.string().regex(/^\d+$/),
]);

const tickerStatsSchema = z.object({
  lastPriceTicks: positiveInteger,
  lastTradeTs: z.number().int().min(0).nullable(),
  dayOpen: z.object({ utcDay: z.number().int().min(0), priceTicks: positiveInteger }).nullable(),
  buckets: z.array(bucketSchema).max(MINUTES_PER_WINDOW),
});

export type TickerStatsJson = z.infer<typeof tickerStatsSchema>;

export class TickerStats {
  private readonly minutes = new Float64Array(MINUTES_PER_WINDOW).fill(EMPTY);
  private readonly opens = new Float64Array(MINUTES_PER_WINDOW);
  private readonly highs = new Float64Array(MINUTES_PER_WINDOW);
  private readonly lows = new Float64Array(MINUTES_PER_WINDOW);
  private readonly closes = new Float64Array(MINUTES_PER_WINDOW);
  private readonly baseLots = new Float64Array(MINUTES_PER_WINDOW);
  private readonly quoteUnits: bigint[] = new Array<bigint>(MINUTES_PER_WINDOW).fill(0n);
  private lastPriceTicks: number;
  private lastTradeTs: number | null = null;
  private dayOpen: { utcDay: number; priceTicks: number } | null = null;
  private changes = 0;
  private cached: { minute: number; changes: number; view: TickerView } | null = null;

  /** `initialPriceTicks` stands as the last price until the first trade. */
  constructor(initialPriceTicks: number) {
    assertPositiveInteger(initialPriceTicks, 'initial price');
    this.lastPriceTicks = initialPriceTicks;
  }

  /** Adds a trade. Timestamps are expected in order; a trade older than the window is dropped. */
  record(ts: number, priceTicks: number, lots: number): void {
    if (!Number.isSafeInteger(ts) || ts < 0)
      throw new RangeError(`timestamp must be ms since the epoch, got ${ts}`);
    assertPositiveInteger(priceTicks, 'price');
    assertPositiveInteger(lots, 'size');

    const minute = Math.floor(ts / MS_PER_MINUTE);
    const slot = minute % MINUTES_PER_WINDOW;
    const held = this.minutes[slot] as number;
    if (held > minute) return;
    if (held < minute) {
      this.minutes[slot] = minute;
      this.opens[slot] = priceTicks;
      this.highs[slot] = priceTicks;
      this.lows[slot] = priceTicks;
      this.closes[slot] = priceTicks;
      this.baseLots[slot] = lots;
      this.quoteUnits[slot] = BigInt(priceTicks) * BigInt(lots);
    } else {
      if (priceTicks > (this.highs[slot] as number)) this.highs[slot] = priceTicks;
      if (priceTicks < (this.lows[slot] as number)) this.lows[slot] = priceTicks;
      this.closes[slot] = priceTicks;
      this.baseLots[slot] = (this.baseLots[slot] as number) + lots;
      this.quoteUnits[slot] = (this.quoteUnits[slot] as bigint) + BigInt(priceTicks) * BigInt(lots);
    }

    if (this.lastTradeTs === null || ts >= this.lastTradeTs) {
      this.lastTradeTs = ts;
      this.lastPriceTicks = priceTicks;
    }
    const utcDay = Math.floor(ts / MS_PER_DAY);
    if (this.dayOpen === null || utcDay > this.dayOpen.utcDay) this.dayOpen = { utcDay, priceTicks };
    this.changes++;
  }

  /** Statistics of the 1440 minutes ending with the minute of `now`. */
  view(now: number): TickerView {
    const nowMinute = Math.floor(now / MS_PER_MINUTE);
    const cached = this.cached;
    if (cached !== null && cached.minute === nowMinute && cached.changes === this.changes) return cached.view;

    const firstMinute = nowMinute - MINUTES_PER_WINDOW + 1;
    let openMinute = Infinity;
    let open = this.lastPriceTicks;
    let high = -Infinity;
    let low = Infinity;
    let base = 0;
    let quote = 0n;
    for (let slot = 0; slot < MINUTES_PER_WINDOW; slot++) {
      const minute = this.minutes[slot] as number;
      if (minute < firstMinute || minute > nowMinute) continue;
      if (minute < openMinute) {
        openMinute = minute;
        open = this.opens[slot] as number;
      }
      high = Math.max(high, this.highs[slot] as number);
      low = Math.min(low, this.lows[slot] as number);
      base += this.baseLots[slot] as number;
      quote += this.quoteUnits[slot] as bigint;
    }
    const anyTrade = openMinute !== Infinity;
    const today = Math.floor((nowMinute * MS_PER_MINUTE) / MS_PER_DAY);
    const view: TickerView = {
      lastPriceTicks: this.lastPriceTicks,
      open24h: open,
      high24h: anyTrade ? high : this.lastPriceTicks,
      low24h: anyTrade ? low : this.lastPriceTicks,
      baseVolumeLots: base,
      quoteVolumeUnits: quote,
      openUtc:
        this.dayOpen !== null && this.dayOpen.utcDay === today
          ? this.dayOpen.priceTicks
          : this.lastPriceTicks,
    };
    this.cached = { minute: nowMinute, changes: this.changes, view };
    return view;
  }

  toJSON(): TickerStatsJson {
    const buckets: TickerStatsJson['buckets'] = [];
    for (let slot = 0; slot < MINUTES_PER_WINDOW; slot++) {
      const minute = this.minutes[slot] as number;
      if (minute === EMPTY) continue;
      buckets.push([
        minute,
        this.opens[slot] as number,
        this.highs[slot] as number,
        this.lows[slot] as number,
        this.closes[slot] as number,
        this.baseLots[slot] as number,
        (this.quoteUnits[slot] as bigint).toString(),
      ]);
    }
    buckets.sort((left, right) => left[0] - right[0]);
    return {
      lastPriceTicks: this.lastPriceTicks,
      lastTradeTs: this.lastTradeTs,
      dayOpen: this.dayOpen === null ? null : { ...this.dayOpen },
      buckets,
    };
  }

  static fromJSON(json: unknown): TickerStats {
    const data = tickerStatsSchema.parse(json);
    const stats = new TickerStats(data.lastPriceTicks);
    stats.lastTradeTs = data.lastTradeTs;
    stats.dayOpen = data.dayOpen === null ? null : { ...data.dayOpen };
    for (const [minute, open, high, low, close, base, quote] of data.buckets) {
      const slot = minute % MINUTES_PER_WINDOW;
      if ((stats.minutes[slot] as number) >= minute) continue;
      stats.minutes[slot] = minute;
      stats.opens[slot] = open;
      stats.highs[slot] = high;
      stats.lows[slot] = low;
      stats.closes[slot] = close;
      stats.baseLots[slot] = base;
      stats.quoteUnits[slot] = BigInt(quote);
    }
    return stats;
  }
}

function assertPositiveInteger(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`${what} must be a positive integer, got ${value}`);
}
