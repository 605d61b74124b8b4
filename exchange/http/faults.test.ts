import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureExchange } from '../testing/http-fixture';
import type { FixtureExchange } from '../testing/http-fixture';
import { FaultRegistry, faultSpecSchema } from './faults';

const LEVERAGE = '/api/v2/mix/account/set-leverage';
const POSITIONS = '/api/v2/mix/position/all-position';
const leverageBody = { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT', leverage: '20' };

describe('FaultRegistry', () => {
  it('strikes a path as many times as armed, earliest fault first, then lets requests through', () => {
    const faults = new FaultRegistry();
    faults.add({ path: '/a', count: 2, kind: '40010' });
    faults.add({ path: '/a', count: 1, kind: 'drop' });
    expect(faults.take('/b')).toBeUndefined();
    expect([faults.take('/a')?.kind, faults.take('/a')?.kind, faults.take('/a')?.kind]).toEqual([
      '40010',
      '40010',
      'drop',
    ]);
    expect(faults.take('/a')).toBeUndefined();
    expect(faults.list()).toEqual([]);
  });

  it('lists what remains armed and clears everything', () => {
    const faults = new FaultRegistry();
    faults.add({ path: '/a', count: 3, kind: 'delay', delayMs: 50 });
    faults.add({ path: '/b', count: 1, kind: '45001' });
    faults.take('/a');
    expect(faults.list()).toEqual([
      { id: 1, path: '/a', kind: 'delay', delayMs: 50, remaining: 2 },
      { id: 2, path: '/b', kind: '45001', delayMs: undefined, remaining: 1 },
    ]);
    faults.clear();
    expect(faults.list()).toEqual([]);
    expect(faults.take('/a')).toBeUndefined();
  });

  it('refuses a delay without delayMs, a count below one, and an unknown kind', () => {
    expect(faultSpecSchema.safeParse({ path: '/a', count: 1, kind: 'delay' }).success).toBe(false);
    expect(faultSpecSchema.safeParse({ path: '/a', count: 0, kind: 'drop' }).success).toBe(false);
    expect(faultSpecSchema.safeParse({ path: '/a', count: 1, kind: '40404' }).success).toBe(false);
    expect(faultSpecSchema.safeParse({ path: 'a', count: 1, kind: 'drop' }).success).toBe(false);
  });
});

describe('faults over HTTP', () => {
  let exchange: FixtureExchange;
  beforeEach(async () => {
    exchange = await startFixtureExchange();
  });
  afterEach(() => exchange.close());

  it('drop: the handler runs, then the connection closes with no answer at all', async () => {
    exchange.faults.add({ path: LEVERAGE, count: 1, kind: 'drop' });
    const trader = exchange.client('trader');
    await expect(trader.post(LEVERAGE, leverageBody)).rejects.toThrow();
    expect(exchange.calls.map((call) => call.endpoint)).toEqual(['T-set-leverage']);
    const next = await trader.post(LEVERAGE, leverageBody);
    expect(next.status).toBe(200);
    expect(exchange.calls).toHaveLength(2);
  });

  it('drop on a GET: the client is not answered, and the handler ran exactly once', async () => {
    const trader = exchange.client('trader');
    await trader.get(POSITIONS, { productType: 'USDT-FUTURES' }); // a warm keep-alive connection
    exchange.faults.add({ path: POSITIONS, count: 1, kind: 'drop' });
    await expect(trader.get(POSITIONS, { productType: 'USDT-FUTURES' })).rejects.toThrow();
    expect(exchange.calls).toHaveLength(2);
  });

  it.each([
    ['40010', 400, 'Request timed out'],
    ['40725', 400, 'service return an error'],
    ['45001', 500, 'Unknown error'],
  ] as const)('%s: the handler runs, then the answer is that code', async (kind, status, msg) => {
    exchange.faults.add({ path: LEVERAGE, count: 1, kind });
    const answer = await exchange.client('trader').post(LEVERAGE, leverageBody);
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ code: kind, msg, data: null });
    expect(exchange.calls).toHaveLength(1);
  });

  it('delay: the real answer comes at least delayMs later', async () => {
    exchange.faults.add({ path: LEVERAGE, count: 1, kind: 'delay', delayMs: 400 });
    const started = performance.now();
    const answer = await exchange.client('trader').post(LEVERAGE, leverageBody);
    const elapsed = performance.now() - started;
    expect(answer.status).toBe(200);
    expect(answer.body?.data).toEqual({ symbol: 'BTCUSDT', longLeverage: '20', shortLeverage: '20' });
    expect(elapsed).toBeGreaterThanOrEqual(400);
    expect(exchange.calls).toHaveLength(1);
  });

  it('strikes only its own path, and only requests that reached the handler', async () => {
    exchange.faults.add({ path: LEVERAGE, count: 1, kind: '40725' });
    const trader = exchange.client('trader');
    expect((await trader.get(POSITIONS, { productType: 'USDT-FUTURES' })).body?.code).toBe('00000');
    expect((await trader.post(LEVERAGE, leverageBody, { signWithSecret: 'x' })).body?.code).toBe('40009');
    expect((await trader.post(LEVERAGE, { symbol: 'BTCUSDT' })).body?.code).toBe('40019');
    expect(exchange.faults.list()).toHaveLength(1);
    expect((await trader.post(LEVERAGE, leverageBody)).body?.code).toBe('40725');
    expect(exchange.faults.list()).toEqual([]);
  });
});
