// The client's guarantees against a real paper exchange (and, for answers the exchange never
// gives, a small real HTTP server): what it sends and signs, what it refuses to send, how each
// failure comes back, and how it keeps signing valid timestamps on a wrong local clock.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  batchPlaceOrder,
  depositAccount,
  maxTransferable,
  orderInfo,
  serverTime,
  setLeverage,
  tickers,
} from '../../../shared/api/endpoints';
import type { CreateAccountResult } from '../../../shared/api/paper-admin';
import { prehash } from '../../../shared/signing';
import { startTestExchange, type TestExchange } from '../../../exchange/testing/test-exchange';
import { ApiCallError } from './api-call-error';
import { RateBudget } from './rate-budget';
import { signRequest } from './request-signing';
import { ServerClock } from './server-clock';
import { createApiClient, type ApiClientOptions, type Credentials } from './signed-client';

let exchange: TestExchange;
const budgets: RateBudget[] = [];

beforeAll(async () => {
  exchange = await startTestExchange();
});
afterAll(async () => {
  for (const budget of budgets) budget.dispose();
  await exchange.stop();
});
afterEach(async () => {
  await exchange.admin('DELETE', '/paper/v1/faults');
});

interface SentRequest {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly code: string | null;
}

/** The real fetch, with a log of what went out and what came back. */
function loggingFetch(log: SentRequest[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const text = await response.clone().text();
    let code: string | null = null;
    try {
      code = (JSON.parse(text) as { code?: string }).code ?? null;
    } catch {
      code = null;
    }
    log.push({ method: init?.method ?? 'GET', url: String(input), status: response.status, code });
    return response;
  };
}

function clientWith(
  credentials: Credentials | null,
  overrides: Partial<ApiClientOptions> = {},
  log: SentRequest[] = [],
) {
  const clock = overrides.clock ?? new ServerClock();
  const budget = overrides.budget ?? new RateBudget({ clock });
  budgets.push(budget);
  const client = createApiClient({
    baseUrl: exchange.exchange.baseUrl,
    credentials: () => credentials,
    fetch: loggingFetch(log),
    ...overrides,
    clock,
    budget,
  });
  return { client, clock, budget, log };
}

async function newAccount(): Promise<CreateAccountResult> {
  return (await exchange.newAccount()).account;
}

async function failureOf(promise: Promise<unknown>): Promise<ApiCallError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ApiCallError)) throw new Error(`expected an ApiCallError, got ${String(error)}`);
  return error;
}

const BTC = { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT' } as const;

describe('parameters are checked before anything is sent', () => {
  it('refuses a wrong value with BAD_REQUEST naming the parameter, and sends nothing', async () => {
    const { client, log } = clientWith(await newAccount());
    const error = await failureOf(client.call(setLeverage, { ...BTC, leverage: '1.5' }));
    expect(error).toMatchObject({
      kind: 'bad_request',
      code: 'BAD_REQUEST',
      endpointId: 'E12',
      httpStatus: null,
      outcomeUnknown: false,
    });
    expect(error.msg).toMatch(/^Parameter leverage error: must be .*whole number/);
    expect(error.message).toContain('not sent');
    expect(log).toEqual([]);
  });

  it('refuses a limit order without a price, naming the order in the list', async () => {
    const { client, log } = clientWith(await newAccount());
    const error = await failureOf(
      client.call(batchPlaceOrder, {
        ...BTC,
        marginMode: 'crossed',
        orderList: [{ side: 'buy', orderType: 'limit', size: '0.01' }],
      }),
    );
    expect(error.kind).toBe('bad_request');
    expect(error.msg).toContain('orderList[0].price');
    expect(log).toEqual([]);
  });

  it('refuses a signed endpoint when no key is set up, and sends nothing', async () => {
    const { client, log } = clientWith(null);
    const error = await failureOf(client.call(maxTransferable, { coin: 'USDT' }));
    expect(error).toMatchObject({ kind: 'no_credentials', code: 'NO_CREDENTIALS', outcomeUnknown: false });
    expect(error.message).toContain('add one in Settings');
    expect(log).toEqual([]);
  });
});

describe('what goes on the wire', () => {
  let server: Server;
  let baseUrl: string;
  let received: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }>;
  let answer: (response: ServerResponse) => void;

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        received.push({
          method: request.method ?? '',
          url: request.url ?? '',
          headers: request.headers,
          body,
        });
        answer(response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  function envelope(data: unknown, code = '00000'): (response: ServerResponse) => void {
    return (response) => {
      response.writeHead(code === '00000' ? 200 : 400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ code, msg: 'success', requestTime: Date.now(), data }));
    };
  }

  const credentials = { apiKey: 'key-1', secretKey: 'my_secret_key', passphrase: 'pass-1' };
  const ORDER_DETAIL = {
    orderId: '123',
    clientOid: 'a/b:c',
    category: 'USDT-FUTURES',
    symbol: 'BTCUSDT',
    orderType: 'limit',
    side: 'buy',
    price: '80000',
    qty: '0.01',
    amount: '800',
    cumExecQty: '0',
    cumExecValue: '0',
    avgPrice: '',
    timeInForce: 'gtc',
    orderStatus: 'live',
    posSide: '',
    holdMode: 'one_way_mode',
    tradeSide: 'open',
    stpMode: 'none',
    reduceOnly: 'NO',
    feeDetail: [],
    cancelReason: '',
    execType: 'normal',
    createdTime: '1',
    updatedTime: '1',
  };

  function localClient(options: Partial<ApiClientOptions> = {}) {
    const clock = new ServerClock();
    clock.observe(Date.now(), Date.now(), Date.now());
    const budget = new RateBudget({ clock });
    budgets.push(budget);
    received = [];
    return createApiClient({ baseUrl, credentials: () => credentials, clock, budget, ...options });
  }

  it('sends GET parameters sorted, percent-encoded and canonical, and signs exactly that query', async () => {
    const client = localClient({ demoTrading: true, locale: 'zh-CN' });
    answer = envelope(ORDER_DETAIL);
    const detail = await client.call(orderInfo, { orderId: '123', clientOid: 'a/b:c' });
    expect(detail.orderId).toBe('123');
    const [request] = received;
    expect(request?.url).toBe('/api/v3/trade/order-info?clientOid=a%2Fb%3Ac&orderId=123');
    const headers = request?.headers ?? {};
    expect(headers['paptrading']).toBe('1');
    expect(headers['locale']).toBe('zh-CN');
    expect(headers['access-key']).toBe('key-1');
    expect(headers['access-passphrase']).toBe('pass-1');
    const timestamp = String(headers['access-timestamp']);
    expect(Math.abs(Number(timestamp) - Date.now())).toBeLessThan(5_000);
    const expected = signRequest({
      secretKey: 'my_secret_key',
      timestamp,
      method: 'GET',
      path: '/api/v3/trade/order-info',
      query: 'clientOid=a%2Fb%3Ac&orderId=123',
      body: '',
    });
    expect(headers['access-sign']).toBe(expected);
  });

  it('sends a POST body as compact JSON in canonical spelling and signs those bytes', async () => {
    const client = localClient();
    answer = envelope({
      symbol: 'BTCUSDT',
      marginCoin: 'USDT',
      longLeverage: '20',
      shortLeverage: '20',
      crossMarginLeverage: '20',
      marginMode: 'crossed',
    });
    await client.call(setLeverage, {
      symbol: 'btcusdt',
      productType: 'usdt-futures',
      marginCoin: 'usdt',
      leverage: '20',
    });
    const [request] = received;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/api/v2/mix/account/set-leverage');
    expect(request?.body).toBe(
      '{"symbol":"BTCUSDT","productType":"USDT-FUTURES","marginCoin":"USDT","leverage":"20"}',
    );
    expect(request?.headers['content-type']).toBe('application/json');
    const timestamp = String(request?.headers['access-timestamp']);
    const expected = signRequest({
      secretKey: 'my_secret_key',
      timestamp,
      method: 'POST',
      path: '/api/v2/mix/account/set-leverage',
      query: '',
      body: request?.body ?? '',
    });
    expect(request?.headers['access-sign']).toBe(expected);
    expect(prehash(timestamp, 'POST', request?.url ?? '', '', request?.body ?? '')).toContain('{"symbol"');
  });

  it('sends public endpoints without any key header', async () => {
    const client = localClient();
    answer = envelope({ serverTime: String(Date.now()) });
    await client.call(serverTime, {});
    const headers = received[0]?.headers ?? {};
    expect(headers['access-key']).toBeUndefined();
    expect(headers['access-sign']).toBeUndefined();
  });

  it('refuses success data of the wrong shape with BAD_RESPONSE naming the field', async () => {
    const client = localClient();
    answer = envelope({ coin: 'USDT', maxTransfer: 12.5, borrowMaxTransfer: '0' });
    const error = await failureOf(client.call(maxTransferable, { coin: 'USDT' }));
    expect(error).toMatchObject({
      kind: 'bad_response',
      code: 'BAD_RESPONSE',
      endpointId: 'E14',
      httpStatus: 200,
    });
    expect(error.msg).toMatch(/^data\.maxTransfer: /);
  });

  it('reports an answer that is not the API envelope as an HTTP error, outcome unknown on 5xx', async () => {
    const client = localClient();
    answer = (response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html>Bad Gateway</html>');
    };
    const error = await failureOf(
      client.call(batchPlaceOrder, {
        ...BTC,
        marginMode: 'crossed',
        orderList: [{ side: 'buy', orderType: 'market', size: '0.01', clientOid: 'gw' }],
      }),
    );
    expect(error).toMatchObject({ kind: 'http', httpStatus: 502, code: 'HTTP_502', outcomeUnknown: true });
    expect(error.msg).toContain('Bad Gateway');
  });
});

describe('refusals by the exchange', () => {
  it("comes back as ApiCallError with the exchange's code, status and message", async () => {
    const { client } = clientWith(await newAccount());
    const error = await failureOf(client.call(orderInfo, { orderId: '999999999' }));
    expect(error).toMatchObject({
      kind: 'exchange',
      httpStatus: 400,
      code: '25204',
      endpointId: 'E18',
      outcomeUnknown: false,
    });
    expect(error.message).toContain('code 25204');
  });

  it('tells the user what to do when the secret is wrong (40009)', async () => {
    const account = await newAccount();
    const { client } = clientWith({ ...account, secretKey: 'not-the-secret' });
    const error = await failureOf(client.call(maxTransferable, { coin: 'USDT' }));
    expect(error).toMatchObject({ kind: 'exchange', code: '40009' });
    expect(error.message).toContain('secret key');
  });

  it('marks 40010, 40725 and 45001 as outcome unknown', async () => {
    const { client } = clientWith(await newAccount());
    for (const kind of ['40010', '40725', '45001'] as const) {
      await exchange.admin('POST', '/paper/v1/faults', { path: batchPlaceOrder.path, kind });
      const error = await failureOf(
        client.call(batchPlaceOrder, {
          ...BTC,
          marginMode: 'crossed',
          orderList: [
            { side: 'buy', orderType: 'limit', price: '80000', size: '0.01', clientOid: `u-${kind}` },
          ],
        }),
      );
      expect(error).toMatchObject({ kind: 'exchange', code: kind, outcomeUnknown: true });
      expect(error.message).toContain('clientOid');
    }
  });

  it('marks a connection dropped after sending as a network error with outcome unknown', async () => {
    const { client } = clientWith(await newAccount());
    await exchange.admin('POST', '/paper/v1/faults', { path: batchPlaceOrder.path, kind: 'drop' });
    const error = await failureOf(
      client.call(batchPlaceOrder, {
        ...BTC,
        marginMode: 'crossed',
        orderList: [{ side: 'buy', orderType: 'limit', price: '80000', size: '0.01', clientOid: 'dropped' }],
      }),
    );
    expect(error).toMatchObject({ kind: 'network', outcomeUnknown: true });
  });

  it('marks a request that outlives its timeout as outcome unknown', async () => {
    const { client } = clientWith(await newAccount());
    await exchange.admin('POST', '/paper/v1/faults', {
      path: setLeverage.path,
      kind: 'delay',
      delayMs: 1_500,
    });
    const started = Date.now();
    const error = await failureOf(client.call(setLeverage, { ...BTC, leverage: '7' }, { timeoutMs: 200 }));
    expect(error).toMatchObject({ kind: 'timeout', code: 'TIMEOUT', outcomeUnknown: true });
    expect(Date.now() - started).toBeLessThan(1_400);
  });

  it('knows a refused connection sent nothing', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const { client } = clientWith(await newAccount(), { baseUrl: `http://127.0.0.1:${port}` });
    const error = await failureOf(client.call(tickers, { productType: 'USDT-FUTURES' }));
    expect(error).toMatchObject({ kind: 'network', outcomeUnknown: false });
    expect(error.msg).toContain('ECONNREFUSED');
  });
});

describe('cancelling', () => {
  it('cancels a call still waiting for a slot without sending it', async () => {
    const { client, log } = clientWith(await newAccount());
    await client.syncClock();
    // 1/s: the second call waits about a second for its slot.
    const first = client.call(depositAccount, { coin: 'USDT', accountType: 'unified' });
    const controller = new AbortController();
    const second = client.call(
      depositAccount,
      { coin: 'USDT', accountType: 'funding' },
      { signal: controller.signal },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    const error = await failureOf(second);
    expect(error).toMatchObject({ kind: 'aborted', outcomeUnknown: false });
    await first;
    expect(log.filter((entry) => entry.url.endsWith(depositAccount.path))).toHaveLength(1);
  });

  it('refuses every call once disposed', async () => {
    const { client } = clientWith(null);
    client.dispose();
    const error = await failureOf(client.call(tickers, { productType: 'USDT-FUTURES' }));
    expect(error.kind).toBe('aborted');
  });
});

describe('the clock', () => {
  const FIVE_MINUTES = 5 * 60 * 1000;

  it('signs valid requests from a local clock 5 minutes fast, by learning the offset first', async () => {
    const clock = new ServerClock({ localNow: () => Date.now() + FIVE_MINUTES });
    const { client, log } = clientWith(await newAccount(), { clock });
    const result = await client.call(maxTransferable, { coin: 'USDT' });
    expect(result.maxTransfer).toBe('100000');
    expect(log.map((entry) => entry.code)).toEqual(['00000', '00000']);
    expect(log[0]?.url).toContain(serverTime.path);
    const offset = clock.state().offsetMs ?? 0;
    expect(Math.abs(offset + FIVE_MINUTES)).toBeLessThan(1_000);
  });

  it('re-syncs once and retries once when the local clock jumps after syncing (40008)', async () => {
    let skew = 0;
    const clock = new ServerClock({ localNow: () => Date.now() + skew });
    const { client, log } = clientWith(await newAccount(), { clock });
    await client.call(maxTransferable, { coin: 'USDT' });
    skew = FIVE_MINUTES;
    log.length = 0;
    const result = await client.call(maxTransferable, { coin: 'BTC' });
    expect(result.coin).toBe('BTC');
    expect(log.map((entry) => [entry.status, entry.code])).toEqual([
      [400, '40008'],
      [200, '00000'],
      [200, '00000'],
    ]);
    expect(log[1]?.url).toContain(serverTime.path);
  });

  it('learns from every answer, not only from the time endpoint', async () => {
    const clock = new ServerClock({ localNow: () => Date.now() - 60_000 });
    const { client } = clientWith(null, { clock });
    expect(clock.isSynced).toBe(false);
    await client.call(tickers, { productType: 'USDT-FUTURES' });
    expect(Math.abs((clock.state().offsetMs ?? 0) - 60_000)).toBeLessThan(1_000);
  });
});

describe('coalescing', () => {
  it('sends ten identical concurrent reads once, and different ones separately', async () => {
    const { client, log } = clientWith(null);
    const spellings = ['USDT-FUTURES', 'usdt-futures', 'Usdt-Futures'];
    const results = await Promise.all([
      ...Array.from({ length: 10 }, (_, index) =>
        client.call(tickers, { productType: spellings[index % spellings.length] ?? 'USDT-FUTURES' }),
      ),
      client.call(tickers, { productType: 'USDC-FUTURES' }),
    ]);
    expect(results).toHaveLength(11);
    expect(results[0]?.map((ticker) => ticker.symbol)).toContain('BTCUSDT');
    expect(log.map((entry) => new URL(entry.url).search).sort()).toEqual([
      '?productType=USDC-FUTURES',
      '?productType=USDT-FUTURES',
    ]);
  });

  it('never merges writes', async () => {
    const { client, log } = clientWith(await newAccount());
    await Promise.all([
      client.call(setLeverage, { ...BTC, leverage: '5' }),
      client.call(setLeverage, { ...BTC, leverage: '5' }),
    ]);
    expect(log).toHaveLength(3); // the clock's first read, then both writes
  });
});
