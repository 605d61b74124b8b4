import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint } from '../../shared/api/endpoint';
import { prehash } from '../../shared/signing';
import { signPrehash } from './auth';
import { registerEndpoint } from './register-endpoint';
import type { EndpointDeps } from './register-endpoint';
import { FIXTURE_KEYS, startFixtureExchange } from '../testing/http-fixture';
import type { FixtureExchange } from '../testing/http-fixture';
import { createSignedClient } from '../testing/signed-client';

const LEVERAGE = '/api/v2/mix/account/set-leverage';
const POSITIONS = '/api/v2/mix/position/all-position';
const ORDER_INFO = '/api/v3/trade/order-info';
const PLACE_STRATEGY = '/api/v3/trade/place-strategy-order';
const TICKERS = '/api/v2/mix/market/tickers';

const leverageBody = { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT', leverage: '20' };

let exchange: FixtureExchange;
const NOW = 1_700_000_000_000;

function traderSignature(method: string, path: string, query: string, body: string): string {
  return signPrehash(FIXTURE_KEYS.trader.secretKey, prehash(String(NOW), method, path, query, body));
}

const probeEndpoint = defineEndpoint({
  id: 'T-probe',
  name: 'Probe',
  method: 'GET',
  path: '/api/v2/probe',
  version: 'v2',
  auth: 'signed',
  permission: 'read',
  rateLimit: { perSecond: 10, keyedBy: 'uid' },
  request: z.object({}),
  response: z.null(),
});

function registerProbe(
  app: FastifyInstance,
  deps: EndpointDeps,
  seen: Array<{ uid: string | undefined; ip: string; requestTime: number }>,
): void {
  registerEndpoint(
    app,
    probeEndpoint,
    ({ key, ip, requestTime }) => {
      seen.push({ uid: key?.uid, ip, requestTime });
      return null;
    },
    deps,
  );
}

describe('signed endpoints: authentication', () => {
  beforeEach(async () => {
    exchange = await startFixtureExchange({ now: () => NOW });
  });
  afterEach(() => exchange.close());

  it('answers each missing or wrong header with its code, in the exchange order', async () => {
    const trader = exchange.client('trader');
    const good = FIXTURE_KEYS.trader;
    const attempt = async (headers: Record<string, string | undefined>): Promise<string | undefined> => {
      const answer = await trader.get(
        POSITIONS,
        { productType: 'USDT-FUTURES' },
        {
          timestamp: String(NOW),
          headers,
        },
      );
      return answer.body?.code;
    };
    const noAuth = {
      'ACCESS-KEY': undefined,
      'ACCESS-SIGN': undefined,
      'ACCESS-PASSPHRASE': undefined,
      'ACCESS-TIMESTAMP': undefined,
    };
    expect(await attempt(noAuth)).toBe('40001');
    expect(await attempt({ ...noAuth, 'ACCESS-KEY': 'nobody' })).toBe('40002');
    expect(await attempt({ ...noAuth, 'ACCESS-KEY': 'nobody', 'ACCESS-SIGN': 'x' })).toBe('40011');
    const unknownKey = { 'ACCESS-KEY': 'nobody', 'ACCESS-SIGN': 'x', 'ACCESS-PASSPHRASE': 'wrong' };
    expect(await attempt({ ...unknownKey, 'ACCESS-TIMESTAMP': undefined })).toBe('40005');
    expect(await attempt({ ...unknownKey, 'ACCESS-TIMESTAMP': '17e11' })).toBe('40005');
    expect(await attempt({ ...unknownKey, 'ACCESS-TIMESTAMP': String(NOW - 30_001) })).toBe('40008');
    expect(await attempt({ ...unknownKey, 'ACCESS-TIMESTAMP': String(NOW) })).toBe('40006');
    expect(await attempt({ 'ACCESS-SIGN': 'x', 'ACCESS-PASSPHRASE': 'wrong' })).toBe('40012');
    expect(await attempt({ 'ACCESS-SIGN': 'x', 'ACCESS-PASSPHRASE': good.passphrase })).toBe('40009');
    expect(await attempt({})).toBe('00000');
    expect(exchange.calls).toHaveLength(1);
  });

  it('refuses auth failures with HTTP 400 and an error envelope', async () => {
    const answer = await exchange.client('trader').get(
      POSITIONS,
      { productType: 'USDT-FUTURES' },
      {
        timestamp: String(NOW),
        signWithSecret: 'not-the-secret',
      },
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ code: '40009', msg: 'sign signature error', requestTime: NOW, data: null });
  });

  it('takes the paptrading header or its absence, and ignores X-CHANNEL-API-CODE and locale', async () => {
    const demo = exchange.client('trader', { paptrading: true });
    const withDemo = await demo.get(POSITIONS, { productType: 'USDT-FUTURES' }, { timestamp: String(NOW) });
    const extra = await exchange.client('trader').get(
      POSITIONS,
      { productType: 'USDT-FUTURES' },
      {
        timestamp: String(NOW),
        headers: { 'X-CHANNEL-API-CODE': 'abc123', locale: 'zh-CN' },
      },
    );
    expect(withDemo.body?.code).toBe('00000');
    expect(extra.body?.code).toBe('00000');
  });

  it('verifies a body signed byte for byte as sent, spaces included', async () => {
    const spaced =
      '{"symbol": "BTCUSDT", "productType": "USDT-FUTURES", "marginCoin": "USDT", "leverage": "20"}';
    const answer = await exchange
      .client('trader')
      .post(LEVERAGE, { raw: spaced }, { timestamp: String(NOW) });
    expect(answer.status).toBe(200);
    expect(answer.body?.data).toEqual({ symbol: 'BTCUSDT', longLeverage: '20', shortLeverage: '20' });
  });

  it('refuses a body that differs from the one signed', async () => {
    const trader = exchange.client('trader');
    const compact = JSON.stringify(leverageBody);
    const answer = await trader.post(
      LEVERAGE,
      { raw: compact.replace('"20"', '"21"') },
      {
        timestamp: String(NOW),
        headers: { 'ACCESS-SIGN': traderSignature('POST', LEVERAGE, '', compact) },
      },
    );
    expect(answer.body?.code).toBe('40009');
    expect(exchange.calls).toHaveLength(0);
  });

  it('verifies an encoded query whether the client signed it encoded or decoded', async () => {
    const trader = exchange.client('trader');
    const encoded = 'symbol=BTC%2FUSDT%20perp&clientOid=a%3Ab';
    const signedRaw = await trader.get(ORDER_INFO, encoded, { timestamp: String(NOW) });
    const signedDecoded = await trader.get(ORDER_INFO, encoded, {
      timestamp: String(NOW),
      signDecodedQuery: true,
    });
    expect(signedRaw.body?.code).toBe('00000');
    expect(signedDecoded.body?.code).toBe('00000');
    expect(exchange.calls.map((call) => call.params)).toEqual([
      { symbol: 'BTC/USDT perp' },
      { symbol: 'BTC/USDT perp' },
    ]);
  });

  it('refuses a query signed in another order than sent', async () => {
    const trader = exchange.client('trader');
    const answer = await trader.get(POSITIONS, 'productType=USDT-FUTURES&marginCoin=USDT', {
      timestamp: String(NOW),
      headers: {
        'ACCESS-SIGN': traderSignature('GET', POSITIONS, 'marginCoin=USDT&productType=USDT-FUTURES', ''),
      },
    });
    expect(answer.body?.code).toBe('40009');
  });
});

describe('signed endpoints: permissions and parameters', () => {
  beforeEach(async () => {
    exchange = await startFixtureExchange();
  });
  afterEach(() => exchange.close());

  it('refuses a key without the endpoint permission, naming it, before the handler runs', async () => {
    const reader = exchange.client('reader');
    const leverage = await reader.post(LEVERAGE, leverageBody);
    const strategy = await reader.post(PLACE_STRATEGY, {
      category: 'USDT-FUTURES',
      symbol: 'BTCUSDT',
      qty: '1',
    });
    expect(leverage.status).toBe(400);
    expect(leverage.body?.code).toBe('40014');
    expect(leverage.body?.msg).toBe('Incorrect permissions, need trade permissions');
    expect(strategy.body?.msg).toBe('Incorrect permissions, need uta_trade_write permissions');
    expect(exchange.calls).toHaveLength(0);
  });

  it('lets a write permission serve endpoints that need its read', async () => {
    const trader = exchange.client('trader');
    expect((await trader.get(POSITIONS, { productType: 'USDT-FUTURES' })).body?.code).toBe('00000');
    expect((await trader.get(ORDER_INFO, { symbol: 'BTCUSDT' })).body?.code).toBe('00000');
  });

  it('maps a missing v2 parameter to 40019 and a wrong one to 40020', async () => {
    const trader = exchange.client('trader');
    const missing = await trader.post(LEVERAGE, {
      symbol: 'BTCUSDT',
      productType: 'USDT-FUTURES',
      marginCoin: 'USDT',
    });
    const wrong = await trader.post(LEVERAGE, { ...leverageBody, leverage: '2.5x' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      code: '40019',
      msg: 'Parameter leverage cannot be empty',
      data: null,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body?.code).toBe('40020');
    expect(wrong.body?.msg).toMatch(/^Parameter leverage error/);
    expect(exchange.calls).toHaveLength(0);
  });

  it('maps a v3 parameter error to 400172', async () => {
    const trader = exchange.client('trader');
    const missing = await trader.post(PLACE_STRATEGY, { category: 'USDT-FUTURES', symbol: 'BTCUSDT' });
    const wrong = await trader.post(PLACE_STRATEGY, { category: 'SPOT', symbol: 'BTCUSDT', qty: '1' });
    expect(missing.body?.code).toBe('400172');
    expect(missing.body?.msg).toBe('Parameter verification failed qty cannot be empty');
    expect(wrong.body?.code).toBe('400172');
  });

  it('reads GET parameters from the query as strings, the last of a repeated name winning', async () => {
    const trader = exchange.client('trader');
    const answer = await trader.get(
      POSITIONS,
      'productType=coin-futures&productType=usdt-futures&marginCoin=USDT',
    );
    expect(answer.body?.code).toBe('00000');
    expect(exchange.calls[0]?.params).toEqual({ productType: 'USDT-FUTURES', marginCoin: 'USDT' });
  });

  it('gives the handler the key, the client IP and the requestTime of the answer', async () => {
    const seen: Array<{ uid: string | undefined; ip: string; requestTime: number }> = [];
    const local = await startFixtureExchange({
      extend: (app, deps) => {
        registerProbe(app, deps, seen);
      },
    });
    try {
      const answer = await local.client('traderBot').get('/api/v2/probe', undefined, {
        headers: { 'X-Forwarded-For': '203.0.113.9' },
      });
      expect(answer.body?.code).toBe('00000');
      expect(seen).toEqual([{ uid: '1001', ip: '127.0.0.1', requestTime: answer.body?.requestTime }]);
    } finally {
      await local.close();
    }
  });

  it('answers an ApiError of the handler with its own code', async () => {
    const answer = await exchange.client('trader').get(ORDER_INFO, { symbol: 'NOPE' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: '25204', msg: 'Order does not exist', data: null });
  });

  it('answers an unexpected exception with a generic 500 envelope and keeps serving', async () => {
    const trader = exchange.client('trader');
    const broken = await trader.get(ORDER_INFO, { symbol: 'BOOM' });
    expect(broken.status).toBe(500);
    expect(broken.body).toMatchObject({ code: '45001', msg: 'Unknown error', data: null });
    expect(broken.text).not.toContain('invariant');
    const next = await trader.get(ORDER_INFO, { symbol: 'BTCUSDT' });
    expect(next.body?.code).toBe('00000');
  });

  it('serves public endpoints without any key', async () => {
    const anonymous = createSignedClient({
      baseUrl: exchange.baseUrl,
      apiKey: '',
      secretKey: '',
      passphrase: '',
    });
    const answer = await anonymous.publicGet(TICKERS, { productType: 'usdt-futures' });
    expect(answer.status).toBe(200);
    expect(answer.body?.data).toEqual([{ symbol: 'BTCUSDT', lastPr: '64000.5' }]);
    expect(exchange.calls[0]).toEqual({
      endpoint: 'T-tickers',
      params: { productType: 'USDT-FUTURES' },
      uid: null,
    });
  });
});
