import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureExchange } from '../testing/http-fixture';
import type { FixtureExchange } from '../testing/http-fixture';
import { SlidingWindowRateLimiter } from './rate-limit';

function manualClock(start = 0): { now: () => number; set: (ms: number) => void } {
  let current = start;
  return { now: () => current, set: (ms) => (current = ms) };
}

function acceptedAt(
  bucket: { tryAcquire(client: string): boolean },
  clock: { set(ms: number): void },
  times: number[],
): boolean[] {
  return times.map((time) => {
    clock.set(time);
    return bucket.tryAcquire('client');
  });
}

describe('SlidingWindowRateLimiter', () => {
  it('accepts at most the limit in any window of 1,000 ms, and a slot frees exactly 1,000 ms later', () => {
    const clock = manualClock();
    const bucket = new SlidingWindowRateLimiter({ now: clock.now }).bucket('E', 3);
    expect(acceptedAt(bucket, clock, [0, 100, 200, 300, 999.9, 1000, 1050, 1100, 1199, 1200])).toEqual([
      true,
      true,
      true,
      false,
      false,
      true,
      false,
      true,
      false,
      true,
    ]);
  });

  it('does not let a burst at the end of one second be followed by another at the start of the next', () => {
    const clock = manualClock();
    const bucket = new SlidingWindowRateLimiter({ now: clock.now }).bucket('E', 5);
    const lateBurst = acceptedAt(bucket, clock, [999, 999, 999, 999, 999]);
    const nextSecond = acceptedAt(bucket, clock, [1000, 1500, 1998.9]);
    const recovered = acceptedAt(bucket, clock, [1999, 1999, 1999, 1999, 1999, 1999]);
    expect(lateBurst).toEqual([true, true, true, true, true]);
    expect(nextSecond).toEqual([false, false, false]);
    expect(recovered).toEqual([true, true, true, true, true, false]);
  });

  it('does not count refused requests, so a client that keeps knocking still recovers on time', () => {
    const clock = manualClock();
    const bucket = new SlidingWindowRateLimiter({ now: clock.now }).bucket('E', 2);
    acceptedAt(bucket, clock, [0, 0]);
    for (let time = 1; time < 1000; time += 7) acceptedAt(bucket, clock, [time]);
    expect(acceptedAt(bucket, clock, [1000, 1000, 1000])).toEqual([true, true, false]);
    expect(bucket.counters()).toMatchObject({ accepted: 4 });
  });

  it('keeps separate windows per client and per endpoint', () => {
    const clock = manualClock();
    const limiter = new SlidingWindowRateLimiter({ now: clock.now });
    const orders = limiter.bucket('orders', 1);
    const tickers = limiter.bucket('tickers', 1);
    expect(orders.tryAcquire('uid-1')).toBe(true);
    expect(orders.tryAcquire('uid-1')).toBe(false);
    expect(orders.tryAcquire('uid-2')).toBe(true);
    expect(tickers.tryAcquire('uid-1')).toBe(true);
    expect(limiter.counters('orders')).toEqual({ accepted: 2, rejected: 1, trackedClients: 2 });
  });

  it('forgets clients that stayed idle, so memory follows recent traffic only', () => {
    const clock = manualClock();
    const bucket = new SlidingWindowRateLimiter({ now: clock.now }).bucket('E', 5);
    for (let client = 0; client < 1000; client += 1) bucket.tryAcquire(`10.0.${client >> 8}.${client & 255}`);
    expect(bucket.counters().trackedClients).toBe(1000);
    clock.set(6_000);
    bucket.tryAcquire('10.9.9.9');
    expect(bucket.counters().trackedClients).toBe(1);
  });

  it('hands out one bucket per name and refuses to redefine its limit', () => {
    const limiter = new SlidingWindowRateLimiter();
    expect(limiter.bucket('E', 5)).toBe(limiter.bucket('E', 5));
    expect(() => limiter.bucket('E', 6)).toThrow(/already exists/);
    expect(() => limiter.bucket('F', 0)).toThrow(RangeError);
  });
});

describe('rate limits over HTTP', () => {
  let exchange: FixtureExchange;
  beforeEach(async () => {
    exchange = await startFixtureExchange();
  });
  afterEach(() => exchange.close());

  const TICKERS = '/api/v2/mix/market/tickers';
  const POSITIONS = '/api/v2/mix/position/all-position';
  const query = { productType: 'USDT-FUTURES' };

  it('limits a public endpoint per IP: 429 past 20 in a second, served again after the window', async () => {
    const client = exchange.client('reader');
    const first = await Promise.all(Array.from({ length: 20 }, () => client.publicGet(TICKERS, query)));
    const refused = await client.publicGet(TICKERS, query);
    expect(first.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: '429', msg: 'Too Many Requests', data: null });
    expect(exchange.calls).toHaveLength(20);
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    expect((await client.publicGet(TICKERS, query)).status).toBe(200);
  });

  it('limits a signed endpoint per UID, across every key of the account, but not other accounts', async () => {
    const trader = exchange.client('trader');
    const bot = exchange.client('traderBot');
    const reader = exchange.client('reader');
    const burst = await Promise.all([
      trader.get(POSITIONS, query),
      trader.get(POSITIONS, query),
      trader.get(POSITIONS, query),
      bot.get(POSITIONS, query),
      bot.get(POSITIONS, query),
    ]);
    expect(burst.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await bot.get(POSITIONS, query)).status).toBe(429);
    expect((await trader.get(POSITIONS, query)).body?.code).toBe('429');
    expect((await reader.get(POSITIONS, query)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    expect((await trader.get(POSITIONS, query)).status).toBe(200);
  });

  it('does not charge an account for requests that fail authentication', async () => {
    const trader = exchange.client('trader');
    const forged = await Promise.all(
      Array.from({ length: 10 }, () => trader.get(POSITIONS, query, { signWithSecret: 'guess' })),
    );
    expect(forged.every((answer) => answer.body?.code === '40009')).toBe(true);
    const genuine = await Promise.all(Array.from({ length: 5 }, () => trader.get(POSITIONS, query)));
    expect(genuine.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it('never refuses a client that paces itself at exactly 5 per sliding second', async () => {
    const trader = exchange.client('trader');
    const perSecond = 5;
    // A request counts from when its answer arrives: by then the server has surely counted it.
    const answeredAt: number[] = [];
    const statuses: number[] = [];
    const end = performance.now() + 2_600;
    while (performance.now() < end) {
      const oldest = answeredAt.length >= perSecond ? answeredAt[answeredAt.length - perSecond] : undefined;
      const wait = oldest === undefined ? 0 : oldest + 1_000 - performance.now();
      if (wait > 0) {
        await new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.ceil(wait))));
        continue;
      }
      statuses.push((await trader.get(POSITIONS, query)).status);
      answeredAt.push(performance.now());
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    // It did push against the limit: 5 at once, then 5 more each second.
    expect(statuses.length).toBeGreaterThanOrEqual(13);
  });
});
