// The outbox against a real paper exchange whose answers are lost on purpose (admin faults that
// strike after the exchange acted): every order ends as exactly one order, found by clientOid.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchPlaceOrder } from '../../../shared/api/endpoints/e01-batch-place-order';
import { placeBatchV3 } from '../../../shared/api/endpoints/e02-place-batch-v3';
import { placePosTpsl } from '../../../shared/api/endpoints/e08-place-pos-tpsl';
import { ordersPending } from '../../../shared/api/endpoints/e17-orders-pending';
import type { OutboxEntry } from '../../../shared/ipc/outbox-entry';
import { startTestExchange, type TestExchange } from '../../../exchange/testing/test-exchange';
import { RateBudget } from '../api/rate-budget';
import { ServerClock } from '../api/server-clock';
import { createApiClient, type ApiClient } from '../api/signed-client';
import { CLIENT_OID_PATTERN } from './client-oid';
import { OrderOutbox } from './order-outbox';

let exchange: TestExchange;
let folder: string;
const clock = new ServerClock();
const budget = new RateBudget({ clock });

beforeAll(async () => {
  exchange = await startTestExchange();
  folder = await mkdtemp(join(tmpdir(), 'order-outbox-'));
});
afterAll(async () => {
  budget.dispose();
  await exchange.stop();
  await rm(folder, { recursive: true, force: true });
});

const BTC = {
  symbol: 'BTCUSDT',
  productType: 'USDT-FUTURES',
  marginCoin: 'USDT',
  marginMode: 'crossed',
} as const;
const RESTING_BUY = { side: 'buy', orderType: 'limit', price: '80000', size: '0.01' } as const;
let files = 0;

async function setUp(
  fetchOverride?: typeof fetch,
): Promise<{ client: ApiClient; outbox: OrderOutbox; filePath: string }> {
  const { account } = await exchange.newAccount();
  const client = createApiClient({
    baseUrl: exchange.exchange.baseUrl,
    credentials: () => account,
    clock,
    budget,
    timeoutMs: 2_000,
    ...(fetchOverride === undefined ? {} : { fetch: fetchOverride }),
  });
  files += 1;
  const filePath = join(folder, `outbox-${files}.jsonl`);
  const outbox = await OrderOutbox.open({
    filePath,
    client,
    firstLookupDelayMs: 50,
    notReceivedAfterMs: 300,
  });
  return { client, outbox, filePath };
}

async function armFault(path: string, kind: 'drop' | '40010' | '40725' | '45001'): Promise<void> {
  const armed = await exchange.admin('POST', '/paper/v1/faults', { path, count: 1, kind });
  expect(armed.status).toBe(200);
}

async function openOrders(client: ApiClient): Promise<Array<{ orderId: string; clientOid: string }>> {
  const page = await client.call(ordersPending, { productType: 'USDT-FUTURES' });
  return page.entrustedList.map(({ orderId, clientOid }) => ({ orderId, clientOid }));
}

function only(entries: readonly OutboxEntry[]): OutboxEntry {
  expect(entries).toHaveLength(1);
  return entries[0] as OutboxEntry;
}

describe('OrderOutbox against the paper exchange', () => {
  it('records an accepted order with its clientOid and orderId, on disk before and after sending', async () => {
    const { client, outbox, filePath } = await setUp();
    const states: string[] = [];
    outbox.onChange((entry) => states.push(entry.state));
    const entry = only(await outbox.placeOrders({ ...BTC, orderList: [RESTING_BUY] }));
    expect(entry.state).toBe('accepted');
    expect(entry.clientOid).toMatch(CLIENT_OID_PATTERN);
    expect(entry.clientOid.length).toBeLessThanOrEqual(32);
    expect(states).toEqual(['pending', 'sent', 'accepted']);
    expect(await openOrders(client)).toEqual([{ orderId: entry.orderId, clientOid: entry.clientOid }]);
    const lines = (await readFile(filePath, 'utf8')).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as OutboxEntry).state)).toEqual([
      'pending',
      'sent',
      'accepted',
    ]);
    await outbox.close();
  });

  it.each(['drop', '40010', '40725', '45001'] as const)(
    'resolves a v2 order whose answer was lost (%s) as exactly one order, found by clientOid',
    async (kind) => {
      const { client, outbox } = await setUp();
      await armFault(batchPlaceOrder.path, kind);
      const answered = only(await outbox.placeOrders({ ...BTC, orderList: [RESTING_BUY] }));
      expect(answered.state).toBe('unknown');
      const resolved = await outbox.resolve(answered.clientOid);
      expect(resolved.state).toBe('accepted');
      expect(resolved.lookups).toBeGreaterThanOrEqual(1);
      const open = await openOrders(client);
      expect(open).toEqual([{ orderId: resolved.orderId, clientOid: answered.clientOid }]);
      await outbox.close();
    },
  );

  it('resolves a v2 order that filled at once (no longer pending) through order-info', async () => {
    const maker = await setUp();
    await maker.outbox.placeOrders({
      ...BTC,
      orderList: [{ side: 'sell', orderType: 'limit', price: '90000', size: '0.01' }],
    });
    const taker = await setUp();
    await armFault(batchPlaceOrder.path, 'drop');
    const answered = only(
      await taker.outbox.placeOrders({
        ...BTC,
        orderList: [{ side: 'buy', orderType: 'market', size: '0.01' }],
      }),
    );
    const resolved = await taker.outbox.resolve(answered.clientOid);
    expect(resolved.state).toBe('accepted');
    expect(resolved.orderId).toMatch(/^\d+$/);
    expect(await openOrders(taker.client)).toEqual([]);
    await maker.outbox.close();
    await taker.outbox.close();
  });

  it('gives each order of a batch its own entry and resolves them all after a drop', async () => {
    const { client, outbox } = await setUp();
    await armFault(batchPlaceOrder.path, 'drop');
    const answered = await outbox.placeOrders({
      ...BTC,
      orderList: [RESTING_BUY, { ...RESTING_BUY, price: '79000' }, { ...RESTING_BUY, price: '78000' }],
    });
    expect(new Set(answered.map((entry) => entry.clientOid)).size).toBe(3);
    expect(new Set(answered.map((entry) => entry.batchId)).size).toBe(1);
    const resolved = await Promise.all(answered.map((entry) => outbox.resolve(entry.clientOid)));
    expect(resolved.map((entry) => entry.state)).toEqual(['accepted', 'accepted', 'accepted']);
    const open = await openOrders(client);
    expect(open).toHaveLength(3);
    expect(open.map((order) => order.orderId).sort()).toEqual(resolved.map((entry) => entry.orderId).sort());
    await outbox.close();
  });

  it('resolves a v3 order whose connection was dropped by order-info', async () => {
    const { client, outbox } = await setUp();
    await armFault(placeBatchV3.path, 'drop');
    const answered = only(
      await outbox.placeOrdersV3([
        {
          category: 'USDT-FUTURES',
          symbol: 'BTCUSDT',
          side: 'buy',
          orderType: 'limit',
          price: '80000',
          qty: '0.01',
        },
      ]),
    );
    expect(answered.state).toBe('unknown');
    const resolved = await outbox.resolve(answered.clientOid);
    expect(resolved.state).toBe('accepted');
    expect(await openOrders(client)).toEqual([{ orderId: resolved.orderId, clientOid: answered.clientOid }]);
    await outbox.close();
  });

  it('settles a definite refusal as rejected with the exchange code, without lookups', async () => {
    const { client, outbox } = await setUp();
    // 0.0001 BTC at 40000 is 4 USDT, under the 5 USDT minimum.
    const entry = only(
      await outbox.placeOrders({ ...BTC, orderList: [{ ...RESTING_BUY, price: '40000', size: '0.0001' }] }),
    );
    expect(entry.state).toBe('rejected');
    expect(entry.error?.code).toBe('45110');
    expect(entry.lookups).toBe(0);
    expect(await openOrders(client)).toEqual([]);
    await outbox.close();
  });

  it('refuses an invalid request before recording it', async () => {
    const { outbox } = await setUp();
    await expect(
      outbox.placeOrders({ ...BTC, orderList: [{ ...RESTING_BUY, price: undefined }] }),
    ).rejects.toMatchObject({
      kind: 'bad_request',
    });
    expect(outbox.list()).toEqual([]);
    await outbox.close();
  });

  it('calls an order the exchange never received rejected (not_received) only after lookups say so', async () => {
    // The connection breaks before the request reaches the exchange, as on a lost network.
    const cutting: typeof fetch = (input, init) => {
      if (String(input).includes(batchPlaceOrder.path)) {
        return Promise.reject(
          new TypeError('fetch failed', {
            cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
          }),
        );
      }
      return fetch(input, init);
    };
    const { client, outbox } = await setUp(cutting);
    const answered = only(await outbox.placeOrders({ ...BTC, orderList: [RESTING_BUY] }));
    expect(answered.state).toBe('unknown');
    const resolved = await outbox.resolve(answered.clientOid);
    expect(resolved).toMatchObject({ state: 'rejected', error: { code: 'not_received' } });
    expect(resolved.lookups).toBeGreaterThanOrEqual(2);
    expect(Date.now() - (resolved.sentAt ?? 0)).toBeGreaterThanOrEqual(300);
    expect(await openOrders(client)).toEqual([]);
    await outbox.close();
  });

  it('resolves a position take-profit whose answer was lost from the position itself', async () => {
    const maker = await setUp();
    await maker.outbox.placeOrders({
      ...BTC,
      orderList: [{ side: 'sell', orderType: 'limit', price: '95000', size: '0.01' }],
    });
    const trader = await setUp();
    await trader.outbox.placeOrders({
      ...BTC,
      orderList: [{ side: 'buy', orderType: 'market', size: '0.01' }],
    });
    await armFault(placePosTpsl.path, '40725');
    const answered = only(
      await trader.outbox.placePositionTpsl({
        symbol: 'BTCUSDT',
        productType: 'USDT-FUTURES',
        marginCoin: 'USDT',
        holdSide: 'buy',
        stopSurplusTriggerPrice: '100000',
      }),
    );
    expect(answered.state).toBe('unknown');
    const resolved = await trader.outbox.resolve(answered.clientOid);
    expect(resolved.state).toBe('accepted');
    expect(resolved.orderId).toMatch(/^\d+$/);
    await maker.outbox.close();
    await trader.outbox.close();
  });

  it('keeps its entries across a restart and lists them newest first', async () => {
    const { outbox, filePath, client } = await setUp();
    await outbox.placeOrders({ ...BTC, orderList: [RESTING_BUY] });
    await outbox.placeOrders({ ...BTC, orderList: [{ ...RESTING_BUY, price: '79000' }] });
    const before = outbox.list();
    await outbox.close();
    const reopened = await OrderOutbox.open({ filePath, client });
    expect(reopened.list()).toEqual(before);
    expect(await reopened.recover()).toEqual([]);
    await reopened.close();
  });

  it('drops settled entries older than the retention when it opens', async () => {
    const { outbox, filePath, client } = await setUp();
    const [old] = await outbox.placeOrders({ ...BTC, orderList: [RESTING_BUY] });
    await outbox.close();
    const later = Date.now() + 31 * 86_400_000;
    const reopened = await OrderOutbox.open({ filePath, client, now: () => later, retentionDays: 30 });
    expect(reopened.get(old?.clientOid ?? '')).toBeUndefined();
    await reopened.close();
    expect((await readFile(filePath, 'utf8')).trim()).toBe('');
  });
});
