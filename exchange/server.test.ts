// The paper exchange's HTTP surface as a client meets it over the wire: authentication codes, the
// spec's rate limits, the envelope on requests that never reach an endpoint, and injected faults
// after which the order is found by clientOid exactly once.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  batchPlaceOrder,
  ordersPending,
  orderInfo,
  placeBatchV3,
  setLeverage,
} from '../shared/api/endpoints';
import { faultSchema, paperAdmin } from '../shared/api/paper-admin';
import { prehash } from '../shared/signing';
import { startTestExchange, type TestExchange } from './testing/test-exchange';
import { createSignedClient, type ClientResponse, type SignedClient } from './testing/signed-client';

const PLACE = batchPlaceOrder.path;
const PENDING = ordersPending.path;
const ORDER_INFO = orderInfo.path;
const SET_LEVERAGE = setLeverage.path;
const ALL_POSITION = '/api/v2/mix/position/all-position';
const TICKERS = '/api/v2/mix/market/tickers';
const DEPOSIT_ACCOUNT = '/api/v3/account/deposit-account';
const FAULTS = paperAdmin.addFault.path;

let test: TestExchange;
beforeAll(async () => {
  test = await startTestExchange();
});
afterAll(async () => {
  await test.stop();
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function restingBuy(clientOid: string, price = '50000', size = '0.001') {
  return {
    symbol: 'BTCUSDT',
    productType: 'USDT-FUTURES',
    marginCoin: 'USDT',
    marginMode: 'crossed',
    orderList: [{ side: 'buy', orderType: 'limit', price, size, clientOid }],
  };
}

function leverageBody(leverage: string) {
  return { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT', leverage };
}

function expectError(response: ClientResponse, status: number, code: string, msg?: string): void {
  expect({ status: response.status, code: response.body?.code }).toEqual({ status, code });
  expect(response.body?.data).toBeNull();
  if (msg !== undefined) expect(response.body?.msg).toBe(msg);
}

function expectSuccess(response: ClientResponse): void {
  expect({ status: response.status, code: response.body?.code, msg: response.body?.msg }).toEqual({
    status: 200,
    code: '00000',
    msg: 'success',
  });
}

/** Every pending order of `client` with that clientOid, read through E17's clientOid filter. */
async function pendingByClientOid(client: SignedClient, clientOid: string) {
  const response = await client.get(PENDING, { productType: 'USDT-FUTURES', clientOid });
  expectSuccess(response);
  return ordersPending.response.parse(response.body?.data).entrustedList;
}

async function allPending(client: SignedClient) {
  const response = await client.get(PENDING, { productType: 'USDT-FUTURES' });
  expectSuccess(response);
  return ordersPending.response.parse(response.body?.data).entrustedList;
}

async function orderByClientOid(client: SignedClient, clientOid: string) {
  const response = await client.get(ORDER_INFO, { clientOid });
  expectSuccess(response);
  return orderInfo.response.parse(response.body?.data);
}

describe('authentication', () => {
  it('reports the first failing check, in the exchange order 40001 40002 40011 40005 40008 40006 40012 40009', async () => {
    const { client } = await test.newAccount();
    const query = { productType: 'USDT-FUTURES' };
    const stale = String(Date.now() - 60_000);
    // Each step repairs the check that failed before, leaving every later one broken.
    const steps: Array<{ code: string; msg: string; options: Parameters<SignedClient['get']>[2] }> = [
      {
        code: '40001',
        msg: 'ACCESS_KEY cannot be empty',
        options: {
          timestamp: 'soon',
          headers: { 'ACCESS-KEY': undefined, 'ACCESS-SIGN': undefined, 'ACCESS-PASSPHRASE': undefined },
        },
      },
      {
        code: '40002',
        msg: 'ACCESS_SIGN cannot be empty',
        options: {
          timestamp: 'soon',
          headers: { 'ACCESS-KEY': 'bg_unknown', 'ACCESS-SIGN': undefined, 'ACCESS-PASSPHRASE': undefined },
        },
      },
      {
        code: '40011',
        msg: 'ACCESS_PASSPHRASE cannot be empty',
        options: {
          timestamp: 'soon',
          headers: { 'ACCESS-KEY': 'bg_unknown', 'ACCESS-PASSPHRASE': undefined },
        },
      },
      {
        code: '40005',
        msg: 'Invalid ACCESS_TIMESTAMP',
        options: { timestamp: 'soon', headers: { 'ACCESS-KEY': 'bg_unknown', 'ACCESS-PASSPHRASE': 'wrong' } },
      },
      {
        code: '40008',
        msg: 'Request timestamp expired',
        options: { timestamp: stale, headers: { 'ACCESS-KEY': 'bg_unknown', 'ACCESS-PASSPHRASE': 'wrong' } },
      },
      {
        code: '40006',
        msg: 'Invalid ACCESS_KEY',
        options: { headers: { 'ACCESS-KEY': 'bg_unknown', 'ACCESS-PASSPHRASE': 'wrong' } },
      },
      {
        code: '40012',
        msg: 'apikey/password is incorrect',
        options: { headers: { 'ACCESS-PASSPHRASE': 'wrong' }, signWithSecret: 'not-the-secret' },
      },
      { code: '40009', msg: 'sign signature error', options: { signWithSecret: 'not-the-secret' } },
    ];
    const seen: string[] = [];
    for (const step of steps) {
      const response = await client.get(ALL_POSITION, query, step.options);
      expectError(response, 400, step.code, step.msg);
      seen.push(response.body?.code ?? '');
    }
    expect(seen).toEqual(['40001', '40002', '40011', '40005', '40008', '40006', '40012', '40009']);
    expectSuccess(await client.get(ALL_POSITION, query));
  });

  it('accepts a timestamp 20 s off the server clock and refuses one 40 s off', async () => {
    const { client } = await test.newAccount();
    const query = { productType: 'USDT-FUTURES' };
    expectSuccess(await client.get(ALL_POSITION, query, { timestamp: String(Date.now() + 20_000) }));
    expectSuccess(await client.get(ALL_POSITION, query, { timestamp: String(Date.now() - 20_000) }));
    expectError(
      await client.get(ALL_POSITION, query, { timestamp: String(Date.now() + 40_000) }),
      400,
      '40008',
    );
  });

  it('refuses a write whose signature fails, without placing the order', async () => {
    const { client } = await test.newAccount();
    const refused = await client.post(PLACE, restingBuy('bad-sign'), { signWithSecret: 'not-the-secret' });
    expectError(refused, 400, '40009');
    expect(await allPending(client)).toEqual([]);
  });

  it('accepts the demo-trading header paptrading: 1', async () => {
    const { account } = await test.newAccount();
    const demo = createSignedClient({ baseUrl: test.exchange.baseUrl, ...account, paptrading: true });
    const placed = await demo.post(PLACE, restingBuy('demo-1'));
    expectSuccess(placed);
    expect(batchPlaceOrder.response.parse(placed.body?.data).successList).toHaveLength(1);
    expect((await pendingByClientOid(demo, 'demo-1')).map((order) => order.clientOid)).toEqual(['demo-1']);
  });

  it('verifies a JSON body signed exactly as sent, with spaces, and acts on it', async () => {
    const { client } = await test.newAccount();
    const spaced =
      '{"symbol": "BTCUSDT", "productType": "USDT-FUTURES", "marginCoin": "USDT", "leverage": "7"}';
    const response = await client.post(SET_LEVERAGE, { raw: spaced });
    expectSuccess(response);
    expect(setLeverage.response.parse(response.body?.data)).toMatchObject({
      symbol: 'BTCUSDT',
      marginMode: 'crossed',
      crossMarginLeverage: '7',
    });
    // The new leverage applies to the next order.
    expectSuccess(await client.post(PLACE, restingBuy('after-spaced')));
    expect(await pendingByClientOid(client, 'after-spaced')).toMatchObject([{ leverage: '7' }]);
  });

  it('refuses a body that differs from the signed bytes by one space', async () => {
    const { account, client } = await test.newAccount();
    const sent =
      '{"symbol": "BTCUSDT", "productType": "USDT-FUTURES", "marginCoin": "USDT", "leverage": "9"}';
    const signedOver = sent.replace('"leverage": "9"', '"leverage":"9"');
    const timestamp = String(Date.now());
    const sign = createHmac('sha256', account.secretKey)
      .update(prehash(timestamp, 'POST', SET_LEVERAGE, '', signedOver), 'utf8')
      .digest('base64');
    const response = await fetch(`${test.exchange.baseUrl}${SET_LEVERAGE}`, {
      method: 'POST',
      headers: {
        'ACCESS-KEY': account.apiKey,
        'ACCESS-SIGN': sign,
        'ACCESS-TIMESTAMP': timestamp,
        'ACCESS-PASSPHRASE': account.passphrase,
        'Content-Type': 'application/json',
      },
      body: sent,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: '40009', data: null });
    // The refused request changed nothing: the default leverage 20 still applies.
    expectSuccess(await client.post(PLACE, restingBuy('default-leverage')));
    expect(await pendingByClientOid(client, 'default-leverage')).toMatchObject([{ leverage: '20' }]);
  });

  it('accepts a percent-encoded query signed as sent and signed decoded, and reads the decoded value', async () => {
    const { client } = await test.newAccount();
    const clientOid = 'grid:1/a';
    expectSuccess(await client.post(PLACE, restingBuy(clientOid)));
    const query = `productType=USDT-FUTURES&clientOid=${encodeURIComponent(clientOid)}`;
    expect(query).toContain('grid%3A1%2Fa');

    const signedRaw = await client.get(PENDING, query);
    expectSuccess(signedRaw);
    expect(ordersPending.response.parse(signedRaw.body?.data).entrustedList).toMatchObject([{ clientOid }]);

    const signedDecoded = await client.get(PENDING, query, { signDecodedQuery: true });
    expectSuccess(signedDecoded);
    expect(ordersPending.response.parse(signedDecoded.body?.data).entrustedList).toMatchObject([
      { clientOid },
    ]);
  });

  it('refuses a query signed in a form other than the one sent or its decoded form', async () => {
    const { account, client } = await test.newAccount();
    const timestamp = String(Date.now());
    const sent = 'productType=USDT-FUTURES&symbol=BTCUSDT';
    const sign = createHmac('sha256', account.secretKey)
      .update(prehash(timestamp, 'GET', PENDING, 'symbol=BTCUSDT&productType=USDT-FUTURES', ''), 'utf8')
      .digest('base64');
    const response = await client.get(PENDING, sent, {
      timestamp,
      headers: { 'ACCESS-SIGN': sign },
    });
    expectError(response, 400, '40009');
  });

  it('refuses an endpoint the key has no permission for with 40014, and changes nothing', async () => {
    const { account, client: reader } = await test.newAccount({ permissions: ['read'] });
    const refused = await reader.post(PLACE, restingBuy('no-trade'));
    expectError(refused, 400, '40014', 'Incorrect permissions, need trade permissions');
    expectSuccess(await reader.get(ALL_POSITION, { productType: 'USDT-FUTURES' }));
    expect(await allPending(reader)).toEqual([]);

    // A second key of the same account, made by the admin with v3 read rights only.
    const made = await test.admin('POST', `/paper/v1/accounts/${account.uid}/keys`, {
      permissions: ['uta_trade_read'],
    });
    expect(made.status).toBe(200);
    const key = paperAdmin.createKey.response.parse(made.body?.data);
    expect(key.permissions).toEqual(['uta_trade_read']);
    const v3Reader = createSignedClient({ baseUrl: test.exchange.baseUrl, ...key });
    const placeV3 = await v3Reader.post(placeBatchV3.path, [
      {
        category: 'USDT-FUTURES',
        symbol: 'BTCUSDT',
        qty: '0.001',
        price: '50000',
        side: 'buy',
        orderType: 'limit',
      },
    ]);
    expectError(placeV3, 400, '40014', 'Incorrect permissions, need uta_trade_write permissions');
    const lookup = await v3Reader.get(ORDER_INFO, { clientOid: 'no-such-order' });
    expectError(lookup, 400, '25204');
    const v2Read = await v3Reader.get(ALL_POSITION, { productType: 'USDT-FUTURES' });
    expectError(v2Read, 400, '40014', 'Incorrect permissions, need read permissions');
  });
});

describe('rate limits', () => {
  it('E11 tickers: 20 per second per IP, the 21st gets 429, and a second later it works again', async () => {
    const query = { productType: 'USDT-FUTURES' };
    const burst = await Promise.all(Array.from({ length: 20 }, () => test.client.publicGet(TICKERS, query)));
    const burstEnded = performance.now();
    expect(burst.map((response) => response.status)).toEqual(Array<number>(20).fill(200));
    const refused = await test.client.publicGet(TICKERS, query);
    expectError(refused, 429, '429', 'Too Many Requests');
    await sleep(1_000 - (performance.now() - burstEnded) + 20);
    expectSuccess(await test.client.publicGet(TICKERS, query));
  });

  it('E12 set-leverage: 5 per second per UID, each account its own 5, every key of an account sharing them', async () => {
    const first = await test.newAccount();
    const second = await test.newAccount();
    const answers = [];
    for (const leverage of ['2', '3', '4', '5', '6'])
      answers.push(await first.client.post(SET_LEVERAGE, leverageBody(leverage)));
    expect(answers.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    const sixth = await first.client.post(SET_LEVERAGE, leverageBody('9'));
    expectError(sixth, 429, '429', 'Too Many Requests');

    const made = await test.admin('POST', `/paper/v1/accounts/${first.account.uid}/keys`, {
      permissions: ['read', 'trade'],
    });
    const sameAccount = createSignedClient({
      baseUrl: test.exchange.baseUrl,
      ...paperAdmin.createKey.response.parse(made.body?.data),
    });
    expectError(await sameAccount.post(SET_LEVERAGE, leverageBody('9')), 429, '429');

    const secondAnswers = [];
    for (const leverage of ['2', '3', '4', '5', '6'])
      secondAnswers.push(await second.client.post(SET_LEVERAGE, leverageBody(leverage)));
    expect(secondAnswers.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);

    // The refused requests changed nothing: the leverage is the fifth one accepted.
    expectSuccess(await first.client.post(PLACE, restingBuy('after-limit')));
    expect(await pendingByClientOid(first.client, 'after-limit')).toMatchObject([{ leverage: '6' }]);
  });

  // The spec's Limits table; E11, E12 and E16 have their own tests. A request the endpoint itself
  // refuses (4xx) counts too.
  const usdt = { productType: 'USDT-FUTURES' };
  const btc = { symbol: 'BTCUSDT', productType: 'USDT-FUTURES' };
  const limitProbes: Array<{
    id: string;
    limit: number;
    send: (client: SignedClient) => Promise<ClientResponse>;
  }> = [
    { id: 'E1', limit: 5, send: (client) => client.post(PLACE, restingBuy('limit-probe')) },
    { id: 'E2', limit: 5, send: (client) => client.post(placeBatchV3.path, []) },
    { id: 'E3', limit: 10, send: (client) => client.post('/api/v2/mix/order/batch-cancel-orders', usdt) },
    { id: 'E4', limit: 20, send: (client) => client.get('/api/v2/mix/position/history-position') },
    {
      id: 'E5',
      limit: 20,
      send: (client) => client.get('/api/v3/account/financial-records', { category: 'USDT-FUTURES' }),
    },
    {
      id: 'E6',
      limit: 10,
      send: (client) =>
        client.get('/api/v2/broker/account/subaccount-future-assets', { ...usdt, subUid: '1' }),
    },
    { id: 'E7', limit: 5, send: (client) => client.get(ALL_POSITION, usdt) },
    { id: 'E8', limit: 10, send: (client) => client.post('/api/v2/mix/order/place-pos-tpsl', {}) },
    { id: 'E9', limit: 10, send: (client) => client.post('/api/v3/trade/place-strategy-order', {}) },
    {
      id: 'E10',
      limit: 5,
      send: (client) => client.get('/api/v2/spot/ins-loan/transfered', { coin: 'USDT' }),
    },
    { id: 'E13', limit: 10, send: (client) => client.publicGet('/api/v2/mix/market/fills-history', btc) },
    {
      id: 'E14',
      limit: 3,
      send: (client) => client.get('/api/v3/account/max-transferable', { coin: 'USDT' }),
    },
    { id: 'E15', limit: 20, send: (client) => client.publicGet('/api/v2/mix/market/merge-depth', btc) },
    { id: 'E17', limit: 10, send: (client) => client.get(PENDING, usdt) },
    { id: 'E18', limit: 20, send: (client) => client.get(ORDER_INFO, { clientOid: 'none' }) },
  ];
  it.each(limitProbes)('$id: $limit per second, then 429', async ({ limit, send }) => {
    const { client } = await test.newAccount();
    const withinLimit = await Promise.all(Array.from({ length: limit }, () => send(client)));
    const statuses = withinLimit.map((response) => response.status);
    expect(statuses.filter((status) => status === 429 || status >= 500)).toEqual([]);
    expect((await send(client)).status).toBe(429);
  });

  it('E16 deposit-account: 1 per second per UID', async () => {
    const { client } = await test.newAccount();
    const body = { coin: 'USDT', accountType: 'unified' };
    expectSuccess(await client.post(DEPOSIT_ACCOUNT, body));
    const accepted = performance.now();
    expectError(await client.post(DEPOSIT_ACCOUNT, body), 429, '429', 'Too Many Requests');
    await sleep(1_000 - (performance.now() - accepted) + 20);
    expectSuccess(await client.post(DEPOSIT_ACCOUNT, body));
  });
});

describe('envelope for requests that reach no endpoint', () => {
  async function raw(path: string, init: RequestInit = {}) {
    const response = await fetch(`${test.exchange.baseUrl}${path}`, init);
    const text = await response.text();
    return {
      status: response.status,
      type: response.headers.get('content-type') ?? '',
      allow: response.headers.get('allow'),
      text,
    };
  }

  function envelopeOf(text: string): unknown {
    expect(text.trimStart().startsWith('<')).toBe(false);
    return JSON.parse(text);
  }

  it('unknown path: 404 JSON', async () => {
    const answer = await raw('/api/v2/mix/order/no-such-endpoint?x=1');
    expect(answer.status).toBe(404);
    expect(answer.type).toContain('application/json');
    expect(envelopeOf(answer.text)).toMatchObject({
      code: '40404',
      msg: 'Request URL NOT FOUND',
      data: null,
    });
  });

  it('wrong method: 405 JSON naming the allowed method', async () => {
    const answer = await raw(PLACE, { method: 'GET' });
    expect(answer.status).toBe(405);
    expect(answer.type).toContain('application/json');
    expect(answer.allow).toBe('POST');
    const envelope = envelopeOf(answer.text);
    expect(envelope).toMatchObject({ code: '40405', data: null });
    expect((envelope as { msg: string }).msg).toContain('use POST');
  });

  it('malformed JSON body, even correctly signed: 400 JSON, and nothing placed', async () => {
    const { client } = await test.newAccount();
    const response = await client.post(PLACE, { raw: '{"symbol":"BTCUSDT","orderList":[' });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: '40017',
      msg: 'Parameter verification failed: body is not valid JSON',
      data: null,
    });
    expect(await allPending(client)).toEqual([]);
  });

  it('body over 1 MiB: 413 JSON', async () => {
    const answer = await raw(PLACE, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ padding: 'x'.repeat(1024 * 1024) }),
    });
    expect(answer.status).toBe(413);
    expect(answer.type).toContain('application/json');
    expect(envelopeOf(answer.text)).toMatchObject({
      code: '40413',
      msg: 'Request body too large, limit 1048576 bytes',
      data: null,
    });
  });
});

describe('faults', () => {
  async function armFault(fault: { path: string; kind: string; count?: number; delayMs?: number }) {
    const armed = await test.admin('POST', FAULTS, fault);
    expect(armed.status).toBe(200);
    return faultSchema.parse(armed.body?.data);
  }

  it('drop on batch-place-order: the fetch fails, yet the order exists exactly once by clientOid', async () => {
    const { client } = await test.newAccount();
    await armFault({ path: PLACE, kind: 'drop', count: 1 });
    await expect(client.post(PLACE, restingBuy('dropped-1', '51000.5', '0.002'))).rejects.toThrow();

    const pending = await pendingByClientOid(client, 'dropped-1');
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({
      clientOid: 'dropped-1',
      price: '51000.5',
      size: '0.002',
      status: 'live',
    });
    expect((await allPending(client)).filter((order) => order.clientOid === 'dropped-1')).toHaveLength(1);
    const detail = await orderByClientOid(client, 'dropped-1');
    expect(detail).toMatchObject({
      orderId: pending[0]?.orderId,
      clientOid: 'dropped-1',
      price: '51000.5',
      qty: '0.002',
      orderStatus: 'live',
    });

    // The fault was used up, and sending the same clientOid again cannot place a second order.
    const again = await client.post(PLACE, restingBuy('dropped-1', '51000.5', '0.002'));
    expectSuccess(again);
    expect(batchPlaceOrder.response.parse(again.body?.data)).toMatchObject({
      successList: [],
      failureList: [{ clientOid: 'dropped-1', errorCode: '40786' }],
    });
    expect(await pendingByClientOid(client, 'dropped-1')).toHaveLength(1);
  });

  it.each([
    { kind: '40010', status: 400, msg: 'Request timed out' },
    { kind: '40725', status: 400, msg: 'service return an error' },
    { kind: '45001', status: 500, msg: 'Unknown error' },
  ])(
    '$kind on batch-place-order: that code in the envelope, the order placed once',
    async ({ kind, status, msg }) => {
      const { client } = await test.newAccount();
      const clientOid = `fault-${kind}`;
      await armFault({ path: PLACE, kind, count: 1 });
      const struck = await client.post(PLACE, restingBuy(clientOid, '49000.1'));
      expectError(struck, status, kind, msg);

      const pending = await pendingByClientOid(client, clientOid);
      expect(pending).toMatchObject([{ clientOid, price: '49000.1', size: '0.001', status: 'live' }]);
      expect(await orderByClientOid(client, clientOid)).toMatchObject({
        orderId: pending[0]?.orderId,
        orderStatus: 'live',
      });
      expect((await allPending(client)).map((order) => order.clientOid)).toEqual([clientOid]);
    },
  );

  it('40010 on v3 place-batch: the order is found once through order-info by clientOid', async () => {
    const { client } = await test.newAccount();
    await armFault({ path: placeBatchV3.path, kind: '40010', count: 1 });
    const struck = await client.post(placeBatchV3.path, [
      {
        category: 'USDT-FUTURES',
        symbol: 'BTCUSDT',
        qty: '0.003',
        price: '48000.5',
        side: 'buy',
        orderType: 'limit',
        clientOid: 'v3-timeout',
      },
    ]);
    expectError(struck, 400, '40010', 'Request timed out');
    expect(await orderByClientOid(client, 'v3-timeout')).toMatchObject({
      clientOid: 'v3-timeout',
      price: '48000.5',
      qty: '0.003',
      orderStatus: 'live',
    });
    expect((await allPending(client)).map((order) => order.clientOid)).toEqual(['v3-timeout']);
  });

  it('a request refused before the exchange acts (signature, parameters) leaves the fault armed', async () => {
    const { client } = await test.newAccount();
    await armFault({ path: PLACE, kind: '45001', count: 1 });
    expectError(await client.post(PLACE, restingBuy('early-1'), { signWithSecret: 'wrong' }), 400, '40009');
    expectError(await client.post(PLACE, { symbol: 'BTCUSDT' }), 400, '40019');
    const listed = await test.admin('GET', FAULTS);
    expect(paperAdmin.listFaults.response.parse(listed.body?.data).faults).toMatchObject([
      { path: PLACE, kind: '45001', remaining: 1 },
    ]);
    expectError(await client.post(PLACE, restingBuy('early-2')), 500, '45001', 'Unknown error');
    expect((await allPending(client)).map((order) => order.clientOid)).toEqual(['early-2']);
  });

  it('delay: the real answer comes at least delayMs late', async () => {
    const { client } = await test.newAccount();
    await armFault({ path: PLACE, kind: 'delay', delayMs: 300, count: 1 });
    const started = performance.now();
    const delayed = await client.post(PLACE, restingBuy('delayed-1'));
    const elapsed = performance.now() - started;
    expectSuccess(delayed);
    expect(batchPlaceOrder.response.parse(delayed.body?.data).successList).toMatchObject([
      { clientOid: 'delayed-1' },
    ]);
    expect(elapsed).toBeGreaterThanOrEqual(300);

    const next = performance.now();
    expectSuccess(await client.post(PLACE, restingBuy('prompt-1')));
    expect(performance.now() - next).toBeLessThan(300);
  });

  it('strikes exactly count requests, is listed with what remains, and is cleared', async () => {
    const { client } = await test.newAccount();
    const armed = await armFault({ path: PENDING, kind: '40725', count: 2 });
    expect(armed).toMatchObject({ path: PENDING, kind: '40725', remaining: 2, delayMs: null });
    await armFault({ path: ORDER_INFO, kind: 'delay', delayMs: 50, count: 3 });

    expectError(await client.get(PENDING, { productType: 'USDT-FUTURES' }), 400, '40725');
    const listed = await test.admin('GET', FAULTS);
    expect(paperAdmin.listFaults.response.parse(listed.body?.data).faults).toEqual([
      { id: armed.id, path: PENDING, kind: '40725', remaining: 1, delayMs: null },
      expect.objectContaining({ path: ORDER_INFO, kind: 'delay', remaining: 3, delayMs: 50 }),
    ]);
    expectError(await client.get(PENDING, { productType: 'USDT-FUTURES' }), 400, '40725');
    expectSuccess(await client.get(PENDING, { productType: 'USDT-FUTURES' }));

    const afterUse = await test.admin('GET', FAULTS);
    expect(paperAdmin.listFaults.response.parse(afterUse.body?.data).faults).toEqual([
      expect.objectContaining({ path: ORDER_INFO, remaining: 3 }),
    ]);
    const cleared = await test.admin('DELETE', FAULTS);
    expect(paperAdmin.clearFaults.response.parse(cleared.body?.data)).toEqual({ cleared: 1 });
    const empty = await test.admin('GET', FAULTS);
    expect(paperAdmin.listFaults.response.parse(empty.body?.data).faults).toEqual([]);
  });

  it('arming a fault needs the admin token', async () => {
    const refused = await test.client.admin('POST', FAULTS, { path: PLACE, kind: 'drop', count: 1 }, 'wrong');
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: '40006', data: null });
    const listed = await test.admin('GET', FAULTS);
    expect(paperAdmin.listFaults.response.parse(listed.body?.data).faults).toEqual([]);
  });
});
