// The paper exchange's own admin interface (/paper/v1/...) over HTTP: the token, accounts and
// keys, price moves, pausing the simulated market, and injected faults. Each test checks what the
// change does to the API, not only the admin answer.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CreateAccountResult, Fault, NewApiKey, PaperAccount } from '../../shared/api/paper-admin';
import type { Ticker } from '../../shared/api/endpoints';
import { createSignedClient } from '../testing/signed-client';
import type { SignedClient } from '../testing/signed-client';
import { ok, refused } from '../testing/responses';
import { startTestExchange, type TestExchange } from '../testing/test-exchange';

const ACCOUNTS = '/paper/v1/accounts';
const PRICE = '/paper/v1/price';
const MARKET = '/paper/v1/market';
const FAULTS = '/paper/v1/faults';

const TIME = '/api/v2/public/time';
const TICKERS = '/api/v2/mix/market/tickers';
const DEPTH = '/api/v2/mix/market/merge-depth';
const PLACE = '/api/v2/mix/order/batch-place-order';
const PENDING = '/api/v2/mix/order/orders-pending';
const ALL_POSITION = '/api/v2/mix/position/all-position';
const FINANCIAL_RECORDS = '/api/v3/account/financial-records';
const MAX_TRANSFERABLE = '/api/v3/account/max-transferable';

const ALL_PERMISSIONS = [
  'read',
  'trade',
  'uta_trade_read',
  'uta_trade_write',
  'uta_mgt_read',
  'uta_mgt_write',
];

interface RawDepth {
  asks: Array<[number, number]>;
  bids: Array<[number, number]>;
}

let test: TestExchange;

beforeAll(async () => {
  test = await startTestExchange();
});
afterAll(async () => {
  await test.stop();
});

async function listAccounts(): Promise<PaperAccount[]> {
  return (ok(await test.admin('GET', ACCOUNTS)) as { accounts: PaperAccount[] }).accounts;
}

async function listed(uid: string): Promise<PaperAccount | undefined> {
  return (await listAccounts()).find((account) => account.uid === uid);
}

async function createAccount(body: unknown): Promise<CreateAccountResult> {
  return ok(await test.admin('POST', ACCOUNTS, body)) as CreateAccountResult;
}

function clientOf(key: NewApiKey): SignedClient {
  return createSignedClient({ baseUrl: test.exchange.baseUrl, ...key });
}

async function faults(): Promise<Fault[]> {
  return (ok(await test.admin('GET', FAULTS)) as { faults: Fault[] }).faults;
}

async function markPrice(symbol: string): Promise<string | undefined> {
  const list = ok(await test.client.publicGet(TICKERS, { productType: 'USDT-FUTURES' })) as Ticker[];
  return list.find((ticker) => ticker.symbol === symbol)?.markPrice;
}

async function btcDepth(): Promise<RawDepth> {
  return ok(
    await test.client.publicGet(DEPTH, { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', limit: '5' }),
  ) as RawDepth;
}

describe('admin token', () => {
  const routes: Array<['GET' | 'POST' | 'DELETE', string, unknown]> = [
    ['POST', ACCOUNTS, {}],
    ['GET', ACCOUNTS, undefined],
    ['POST', `${ACCOUNTS}/1234567890/keys`, { permissions: ['read'] }],
    ['POST', PRICE, { productType: 'USDT-FUTURES', symbol: 'BTCUSDT', price: '1000' }],
    ['POST', MARKET, { paused: false }],
    ['POST', FAULTS, { path: TIME, kind: '45001' }],
    ['GET', FAULTS, undefined],
    ['DELETE', FAULTS, undefined],
  ];

  it('refuses every route without the token or with a wrong one, changing nothing', async () => {
    const accountsBefore = (await listAccounts()).length;
    const markBefore = await markPrice('BTCUSDT');
    for (const [method, path, body] of routes) {
      for (const token of [undefined, 'wrong-token', `${test.exchange.adminToken}x`]) {
        const answer = await test.client.admin(method, path, body, token);
        expect(refused(answer, '40006', 401), `${method} ${path}`).toBe(
          'Invalid or missing X-Paper-Admin token',
        );
      }
    }
    expect((await listAccounts()).length).toBe(accountsBefore);
    expect(await markPrice('BTCUSDT')).toBe(markBefore);
    expect(await faults()).toEqual([]);
    ok(await test.client.publicGet(TIME));
  });

  it('is not an API key: the admin token does not open signed endpoints', async () => {
    const response = await fetch(`${test.exchange.baseUrl}${ALL_POSITION}?productType=USDT-FUTURES`, {
      headers: { 'X-Paper-Admin': test.exchange.adminToken },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('40001');
  });
});

describe('accounts', () => {
  it('creates a standard account with the default balances and a key that trades', async () => {
    const created = await createAccount({});
    expect(created.uid).toMatch(/^\d{10}$/);
    expect(created).toMatchObject({ kind: 'standard', permissions: ALL_PERMISSIONS });
    expect(created.apiKey).not.toBe('');
    expect(created.secretKey).not.toBe('');
    expect(created.passphrase).not.toBe('');

    expect(await listed(created.uid)).toEqual({
      uid: created.uid,
      kind: 'standard',
      brokerUid: null,
      label: '',
      apiKeys: [{ apiKey: created.apiKey, permissions: ALL_PERMISSIONS }],
      balances: { USDT: '100000', USDC: '100000', BTC: '2' },
      fundingBalances: {},
      otcBalances: {},
      posMode: 'one_way_mode',
    });
    const client = clientOf(created);
    expect(ok(await client.get(MAX_TRANSFERABLE, { coin: 'USDT' }))).toMatchObject({ maxTransfer: '100000' });
  });

  it('lists every account, the default paper account among them, and never a secret', async () => {
    const created = await createAccount({ label: 'listed' });
    const answer = await test.admin('GET', ACCOUNTS);
    const accounts = (ok(answer) as { accounts: PaperAccount[] }).accounts;
    expect(accounts.find((account) => account.uid === test.exchange.account.uid)).toMatchObject({
      label: 'Paper',
      kind: 'standard',
    });
    expect(accounts.find((account) => account.uid === created.uid)?.label).toBe('listed');
    expect(answer.text).not.toContain(created.secretKey);
    expect(answer.text).not.toContain(created.passphrase);
    expect(answer.text).not.toContain(test.exchange.account.secretKey);
  });

  it('takes balances, a label and a position mode', async () => {
    const created = await createAccount({
      balances: { usdt: '250.5', ETH: '0' },
      label: 'bot',
      posMode: 'hedge_mode',
    });
    expect(await listed(created.uid)).toMatchObject({
      balances: { USDT: '250.5' },
      label: 'bot',
      posMode: 'hedge_mode',
    });
    // Hedge mode is in force: a v2 order without tradeSide is refused.
    const placed = ok(
      await clientOf(created).post(PLACE, {
        symbol: 'BTCUSDT',
        productType: 'USDT-FUTURES',
        marginCoin: 'USDT',
        marginMode: 'crossed',
        orderList: [{ side: 'buy', orderType: 'limit', price: '90000', size: '0.001' }],
      }),
    ) as { failureList: Array<{ errorCode: string }> };
    expect(placed.failureList.map((item) => item.errorCode)).toEqual(['40774']);
  });

  it('creates broker accounts and sub-accounts that belong to them', async () => {
    const broker = await createAccount({ kind: 'broker' });
    expect(broker.kind).toBe('broker');
    const sub = await createAccount({ kind: 'sub', brokerUid: broker.uid, balances: { USDT: '10' } });
    expect(sub.kind).toBe('sub');
    expect(await listed(sub.uid)).toMatchObject({
      kind: 'sub',
      brokerUid: broker.uid,
      balances: { USDT: '10' },
    });
    expect(await listed(broker.uid)).toMatchObject({ kind: 'broker', brokerUid: null });
  });

  it('refuses a sub-account without an existing broker, and malformed accounts', async () => {
    const before = (await listAccounts()).length;
    const standard = await createAccount({});
    expect(refused(await test.admin('POST', ACCOUNTS, { kind: 'sub' }), '40019')).toBe(
      'Parameter brokerUid cannot be empty',
    );
    expect(
      refused(await test.admin('POST', ACCOUNTS, { kind: 'sub', brokerUid: standard.uid }), '40020'),
    ).toContain('broker');
    refused(await test.admin('POST', ACCOUNTS, { kind: 'sub', brokerUid: '1000000000' }), '40020');
    refused(await test.admin('POST', ACCOUNTS, { kind: 'admin' }), '40020');
    refused(await test.admin('POST', ACCOUNTS, { balances: { USDT: '-5' } }), '40020');
    expect(
      refused(await test.admin('POST', ACCOUNTS, { balances: { USDT: '1.123456789' } }), '40020'),
    ).toContain('balances.USDT');
    refused(await test.admin('POST', ACCOUNTS, { posMode: 'hedge' }), '40020');
    refused(await test.admin('POST', ACCOUNTS, { permissions: ['admin'] }), '40020');
    expect((await listAccounts()).length).toBe(before + 1);
  });
});

describe('keys', () => {
  it('adds a key with limited permissions that the API holds to them', async () => {
    const owner = await createAccount({});
    const readKey = ok(
      await test.admin('POST', `${ACCOUNTS}/${owner.uid}/keys`, { permissions: ['read'] }),
    ) as NewApiKey;
    expect(readKey.permissions).toEqual(['read']);
    expect(readKey.apiKey).not.toBe(owner.apiKey);
    expect((await listed(owner.uid))?.apiKeys).toEqual([
      { apiKey: owner.apiKey, permissions: ALL_PERMISSIONS },
      { apiKey: readKey.apiKey, permissions: ['read'] },
    ]);

    const reader = clientOf(readKey);
    expect(ok(await reader.get(ALL_POSITION, { productType: 'USDT-FUTURES' }))).toEqual([]);
    const placing = await reader.post(PLACE, {
      symbol: 'BTCUSDT',
      productType: 'USDT-FUTURES',
      marginCoin: 'USDT',
      marginMode: 'crossed',
      orderList: [{ side: 'buy', orderType: 'limit', price: '90000', size: '0.001' }],
    });
    expect(refused(placing, '40014')).toBe('Incorrect permissions, need trade permissions');
    expect(refused(await reader.get(FINANCIAL_RECORDS, { category: 'USDT-FUTURES' }), '40014')).toBe(
      'Incorrect permissions, need uta_mgt_read permissions',
    );
    // Nothing was placed: the owner's full key sees no order.
    const pending = ok(await clientOf(owner).get(PENDING, { productType: 'USDT-FUTURES' })) as {
      entrustedList: unknown[] | null;
    };
    expect(pending.entrustedList).toBeNull();
  });

  it('names each permission once, and refuses unknown accounts and permissions', async () => {
    const owner = await createAccount({});
    const key = ok(
      await test.admin('POST', `${ACCOUNTS}/${owner.uid}/keys`, { permissions: ['trade', 'read', 'trade'] }),
    ) as NewApiKey;
    expect(key.permissions).toEqual(['read', 'trade']);
    expect(
      refused(await test.admin('POST', `${ACCOUNTS}/1000000000/keys`, { permissions: ['read'] }), '40020'),
    ).toContain('1000000000');
    refused(
      await test.admin('POST', `${ACCOUNTS}/${owner.uid}/keys`, { permissions: ['withdraw'] }),
      '40020',
    );
    refused(await test.admin('POST', `${ACCOUNTS}/${owner.uid}/keys`, {}), '40019');
    expect((await listed(owner.uid))?.apiKeys).toHaveLength(2);
  });
});

describe('price', () => {
  it('moves the mark and index price of a symbol, in any letter case', async () => {
    const tickerBefore = (
      ok(await test.client.publicGet(TICKERS, { productType: 'USDT-FUTURES' })) as Ticker[]
    ).find((ticker) => ticker.symbol === 'ETHUSDT');
    expect(
      ok(
        await test.admin('POST', PRICE, { productType: 'usdt-futures', symbol: 'ethusdt', price: '3612.34' }),
      ),
    ).toEqual({
      symbol: 'ETHUSDT',
      price: '3612.34',
    });
    const after = (
      ok(await test.client.publicGet(TICKERS, { productType: 'USDT-FUTURES' })) as Ticker[]
    ).find((ticker) => ticker.symbol === 'ETHUSDT');
    expect(after).toMatchObject({
      markPrice: '3612.34',
      indexPrice: '3612.34',
      lastPr: tickerBefore?.lastPr,
    });
  });

  it('refuses a price off the tick, an unknown symbol and a price that is not positive', async () => {
    const body = { productType: 'USDT-FUTURES', symbol: 'BTCUSDT', price: '96000' };
    const markBefore = await markPrice('BTCUSDT');
    expect(refused(await test.admin('POST', PRICE, { ...body, price: '96000.05' }), '45115')).toContain(
      '0.1',
    );
    expect(refused(await test.admin('POST', PRICE, { ...body, symbol: 'NOPEUSDT' }), '40034')).toContain(
      'NOPEUSDT',
    );
    refused(await test.admin('POST', PRICE, { ...body, symbol: 'BTCUSD' }), '40034');
    refused(await test.admin('POST', PRICE, { ...body, price: '0' }), '40020');
    refused(await test.admin('POST', PRICE, { ...body, price: '-1' }), '40020');
    expect(
      refused(await test.admin('POST', PRICE, { productType: 'USDT-FUTURES', symbol: 'BTCUSDT' }), '40019'),
    ).toBe('Parameter price cannot be empty');
    expect(await markPrice('BTCUSDT')).toBe(markBefore);
  });
});

describe('market pause and resume', () => {
  it('brings the market maker back on resume and takes it away on pause, leaving the accounts alone', async () => {
    const trader = clientOf(await createAccount({}));
    ok(
      await trader.post(PLACE, {
        symbol: 'BTCUSDT',
        productType: 'USDT-FUTURES',
        marginCoin: 'USDT',
        marginMode: 'crossed',
        orderList: [{ side: 'buy', orderType: 'limit', price: '50000', size: '0.01' }],
      }),
    );
    expect(await btcDepth()).toEqual(expect.objectContaining({ asks: [], bids: [[50000, 0.01]] }));

    expect(ok(await test.admin('POST', MARKET, { paused: false }))).toEqual({ paused: false });
    try {
      // The maker quotes again around the price it is moved to.
      await test.setPrice('BTCUSDT', '95000');
      const quoted = await btcDepth();
      expect(quoted.asks.length).toBeGreaterThan(0);
      expect(quoted.bids.length).toBeGreaterThan(0);
      expect(quoted.asks[0]?.[0]).toBeGreaterThan(quoted.bids[0]?.[0] ?? Infinity);
      expect(quoted.asks[0]?.[0]).toBeGreaterThan(95000);
      expect(quoted.bids[0]?.[0]).toBeLessThan(95000);
    } finally {
      expect(ok(await test.admin('POST', MARKET, { paused: true }))).toEqual({ paused: true });
    }
    expect(await btcDepth()).toEqual(expect.objectContaining({ asks: [], bids: [[50000, 0.01]] }));
  });

  it('refuses a body without a boolean', async () => {
    refused(await test.admin('POST', MARKET, { paused: 'yes' }), '40020');
    expect(refused(await test.admin('POST', MARKET, {}), '40019')).toBe('Parameter paused cannot be empty');
  });
});

describe('faults', () => {
  afterEach(async () => {
    ok(await test.admin('DELETE', FAULTS));
  });

  it('arms a fault, lists it, strikes the next requests of its path, and clears', async () => {
    const armed = ok(await test.admin('POST', FAULTS, { path: TIME, kind: '40725', count: 2 })) as Fault;
    expect(armed).toMatchObject({ path: TIME, kind: '40725', remaining: 2, delayMs: null });
    expect(await faults()).toEqual([armed]);

    expect(refused(await test.client.publicGet(TIME), '40725')).toBe('service return an error');
    ok(await test.client.publicGet(TICKERS, { productType: 'USDT-FUTURES' }));
    expect(await faults()).toEqual([{ ...armed, remaining: 1 }]);

    expect(ok(await test.admin('DELETE', FAULTS))).toEqual({ cleared: 1 });
    expect(await faults()).toEqual([]);
    ok(await test.client.publicGet(TIME));
  });

  it('strikes after the exchange has acted, as a lost answer would', async () => {
    const trader = clientOf(await createAccount({}));
    ok(await test.admin('POST', FAULTS, { path: PLACE, kind: '40010' }));
    const placing = await trader.post(PLACE, {
      symbol: 'BTCUSDT',
      productType: 'USDT-FUTURES',
      marginCoin: 'USDT',
      marginMode: 'crossed',
      orderList: [
        { side: 'buy', orderType: 'limit', price: '60000', size: '0.001', clientOid: 'lost-answer' },
      ],
    });
    expect(refused(placing, '40010')).toBe('Request timed out');
    const pending = ok(
      await trader.get(PENDING, { productType: 'USDT-FUTURES', clientOid: 'lost-answer' }),
    ) as {
      entrustedList: Array<{ clientOid: string; price: string }>;
    };
    expect(pending.entrustedList).toMatchObject([{ clientOid: 'lost-answer', price: '60000' }]);
    expect(await faults()).toEqual([]);
  });

  it('drops the connection or delays the answer', async () => {
    ok(await test.admin('POST', FAULTS, { path: TIME, kind: 'drop' }));
    await expect(test.client.publicGet(TIME)).rejects.toThrow();
    ok(await test.client.publicGet(TIME));

    ok(await test.admin('POST', FAULTS, { path: TIME, kind: 'delay', delayMs: 150 }));
    const started = Date.now();
    ok(await test.client.publicGet(TIME));
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('refuses malformed faults', async () => {
    expect(refused(await test.admin('POST', FAULTS, { path: TIME, kind: 'delay' }), '40019')).toBe(
      'Parameter delayMs cannot be empty',
    );
    refused(await test.admin('POST', FAULTS, { path: PRICE, kind: '45001' }), '40020');
    refused(await test.admin('POST', FAULTS, { path: TIME, kind: 'boom' }), '40020');
    refused(await test.admin('POST', FAULTS, { path: TIME, kind: '45001', count: 0 }), '40020');
    expect(await faults()).toEqual([]);
  });
});
