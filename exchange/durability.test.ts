// The standalone exchange as a separate process, killed the hard way: every order it acknowledged
// must be there after a restart, exactly once and unchanged, and so must every balance and position.
import { readdir, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { batchPlaceOrder, financialRecords, ordersPending, orderInfo } from '../shared/api/endpoints';
import { paperAdmin } from '../shared/api/paper-admin';
import { useChildExchanges, type ChildExchange } from './testing/child-exchange';
import { createSignedClient, type ClientResponse, type SignedClient } from './testing/signed-client';

const standalone = useChildExchanges('paper-durability-');

async function stopChild(exchange: ChildExchange, signal: 'SIGKILL' | 'SIGTERM') {
  exchange.child.kill(signal);
  return exchange.exited;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Reads are paced by the spec's per-UID limits: a refused read is simply asked again. */
async function patiently(call: () => Promise<ClientResponse>): Promise<ClientResponse> {
  for (let attempt = 0; attempt < 30; attempt++) {
    const response = await call();
    if (response.status !== 429) return response;
    await sleep(100);
  }
  throw new Error('still rate limited after 3 s');
}

function dataOf(response: ClientResponse): unknown {
  if (response.status !== 200 || response.body?.code !== '00000') {
    throw new Error(`request failed: ${response.status} ${response.text}`);
  }
  return response.body.data;
}

interface TestAccount {
  readonly uid: string;
  readonly label: string;
  readonly credentials: { apiKey: string; secretKey: string; passphrase: string };
}

function clientFor(exchange: ChildExchange, account: TestAccount): SignedClient {
  return createSignedClient({ baseUrl: exchange.ready.baseUrl, ...account.credentials });
}

async function admin(exchange: ChildExchange, method: 'GET' | 'POST', path: string, body?: unknown) {
  const client = createSignedClient({ baseUrl: exchange.ready.baseUrl, ...exchange.ready.account });
  return dataOf(await client.admin(method, path, body, exchange.ready.adminToken));
}

async function createAccount(exchange: ChildExchange, label: string): Promise<TestAccount> {
  const created = paperAdmin.createAccount.response.parse(
    await admin(exchange, 'POST', paperAdmin.createAccount.path, { label }),
  );
  return { uid: created.uid, label, credentials: created };
}

/** Every pending order of the account, newest first, read page by page. */
async function allPendingOrders(client: SignedClient) {
  const orders: z.output<typeof ordersPending.response>['entrustedList'] = [];
  let idLessThan: string | undefined;
  for (let page = 0; page < 20; page++) {
    const query: Record<string, string> = { productType: 'USDT-FUTURES', limit: '100' };
    if (idLessThan !== undefined) query['idLessThan'] = idLessThan;
    const data = ordersPending.response.parse(
      dataOf(await patiently(() => client.get(ordersPending.path, query))),
    );
    orders.push(...data.entrustedList);
    if (data.entrustedList.length < 100 || !data.endId) return orders;
    idLessThan = data.endId;
  }
  throw new Error('more than 20 pages of pending orders');
}

/** What a user can see of an account: balances, positions, records and open orders. */
async function readAccount(exchange: ChildExchange, account: TestAccount) {
  const client = clientFor(exchange, account);
  const positions = dataOf(
    await patiently(() => client.get('/api/v2/mix/position/all-position', { productType: 'USDT-FUTURES' })),
  );
  const records = financialRecords.response.parse(
    dataOf(await patiently(() => client.get(financialRecords.path, { category: 'USDT-FUTURES' }))),
  );
  const listed = paperAdmin.listAccounts.response.parse(
    await admin(exchange, 'GET', paperAdmin.listAccounts.path),
  );
  const balances = listed.accounts.find((entry) => entry.uid === account.uid)?.balances;
  return { positions, records: records.list, balances, pending: await allPendingOrders(client) };
}

async function readAll(exchange: ChildExchange, accounts: readonly TestAccount[]) {
  const readings: Record<string, Awaited<ReturnType<typeof readAccount>>> = {};
  for (const account of accounts) readings[account.label] = await readAccount(exchange, account);
  return readings;
}

interface SentOrder {
  readonly clientOid: string;
  readonly side: 'buy' | 'sell';
  readonly price: string;
  readonly size: string;
}

interface AcknowledgedOrder extends SentOrder {
  readonly orderId: string;
  readonly account: TestAccount;
}

/** Resting orders that never cross: buys far below the sells, each at its own price. */
function burstBatch(account: TestAccount, side: 'buy' | 'sell', round: number, count: number): SentOrder[] {
  return Array.from({ length: count }, (_, index) => {
    const serial = round * count + index;
    const price = side === 'buy' ? `${40_000 + serial}.5` : `${150_000 + serial}.5`;
    return { clientOid: `${account.label}-${round}-${index}`, side, price, size: `0.00${1 + (serial % 9)}` };
  });
}

function placeBody(symbol: string, orders: readonly SentOrder[]) {
  return {
    symbol,
    productType: 'USDT-FUTURES',
    marginCoin: 'USDT',
    marginMode: 'crossed',
    orderList: orders.map((order) => ({ orderType: 'limit', force: 'gtc', ...order })),
  };
}

async function expectOrdersIntact(
  exchange: ChildExchange,
  acknowledged: readonly AcknowledgedOrder[],
  sentClientOids: ReadonlySet<string>,
  burstAccounts: readonly TestAccount[],
  refused: readonly SentOrder[],
) {
  const refusedClientOids = new Set(refused.map((order) => order.clientOid));
  for (const account of burstAccounts) {
    const pending = await allPendingOrders(clientFor(exchange, account));
    const byClientOid = new Map(pending.map((order) => [order.clientOid, order]));
    // No order twice, and nothing the test did not send.
    expect(byClientOid.size).toBe(pending.length);
    expect(new Set(pending.map((order) => order.orderId)).size).toBe(pending.length);
    for (const order of pending) {
      expect(sentClientOids.has(order.clientOid)).toBe(true);
      expect(refusedClientOids.has(order.clientOid)).toBe(false);
    }
    const mine = acknowledged.filter((order) => order.account === account);
    expect(mine.length).toBeGreaterThan(0);
    for (const order of mine) {
      expect(byClientOid.get(order.clientOid), order.clientOid).toMatchObject({
        orderId: order.orderId,
        clientOid: order.clientOid,
        side: order.side,
        price: order.price,
        size: order.size,
        status: 'live',
      });
    }
    // order-info answers for the first and last acknowledged orders of the account, by clientOid.
    const client = clientFor(exchange, account);
    for (const order of [mine[0], mine[mine.length - 1]]) {
      if (order === undefined) continue;
      const detail = orderInfo.response.parse(
        dataOf(await patiently(() => client.get(orderInfo.path, { clientOid: order.clientOid }))),
      );
      expect(detail).toMatchObject({
        orderId: order.orderId,
        clientOid: order.clientOid,
        price: order.price,
        qty: order.size,
        orderStatus: 'live',
      });
    }
  }
}

async function lastSegment(journalDir: string): Promise<string> {
  const segments = (await readdir(journalDir)).filter((name) => /^segment-\d+\.journal$/.test(name)).sort();
  const last = segments[segments.length - 1];
  if (last === undefined) throw new Error(`no journal segment in ${journalDir}`);
  return join(journalDir, last);
}

describe('durability of the standalone exchange', () => {
  it('keeps every acknowledged order and fill through kill -9, a clean stop and a torn journal tail', async () => {
    const dataDir = await standalone.newDataDir();
    let exchange = await standalone.start(dataDir);
    await admin(exchange, 'POST', paperAdmin.setMarket.path, { paused: true });

    // Two accounts trade with each other, and that is all they ever do.
    const maker = await createAccount(exchange, 'maker');
    const taker = await createAccount(exchange, 'taker');
    const makerBuy = await clientFor(exchange, maker).post(
      batchPlaceOrder.path,
      placeBody('ETHUSDT', [{ clientOid: 'eth-buy', side: 'buy', price: '3000', size: '0.5' }]),
    );
    expect(batchPlaceOrder.response.parse(dataOf(makerBuy)).successList).toHaveLength(1);
    const takerSell = await clientFor(exchange, taker).post(
      batchPlaceOrder.path,
      placeBody('ETHUSDT', [{ clientOid: 'eth-sell', side: 'sell', price: '3000', size: '0.5' }]),
    );
    expect(batchPlaceOrder.response.parse(dataOf(takerSell)).successList).toHaveLength(1);
    const traders = [maker, taker];
    const beforeKill = await readAll(exchange, traders);
    expect(beforeKill['maker']?.positions).toMatchObject([
      { symbol: 'ETHUSDT', holdSide: 'long', total: '0.5' },
    ]);
    expect(beforeKill['taker']?.positions).toMatchObject([
      { symbol: 'ETHUSDT', holdSide: 'short', total: '0.5' },
    ]);
    expect(beforeKill['maker']?.records.map((record) => [record.type, record.fee])).toContainEqual([
      'OPEN_LONG',
      '-0.3',
    ]);
    expect(beforeKill['taker']?.records.map((record) => [record.type, record.fee])).toContainEqual([
      'OPEN_SHORT',
      '-0.9',
    ]);

    // The burst: four accounts, each a batch of 25 every 300 ms (E1 allows 5/s per UID).
    const burstAccounts = [
      await createAccount(exchange, 'b1'),
      await createAccount(exchange, 'b2'),
      await createAccount(exchange, 'b3'),
      await createAccount(exchange, 'b4'),
    ];
    const burstBefore = await readAll(exchange, burstAccounts);
    const acknowledged: AcknowledgedOrder[] = [];
    const sentClientOids = new Set<string>();
    const refused: SentOrder[] = [];
    let unanswered = 0;
    const inFlight: Array<Promise<void>> = [];
    const ROUNDS = 8;
    const KILL_DURING_ROUND = 5;
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, account] of burstAccounts.entries()) {
        const orders = burstBatch(account, index % 2 === 0 ? 'buy' : 'sell', round, 25);
        for (const order of orders) sentClientOids.add(order.clientOid);
        const request = clientFor(exchange, account).post(batchPlaceOrder.path, placeBody('BTCUSDT', orders));
        inFlight.push(
          request.then(
            (response) => {
              // A refused request placed nothing; a busy machine may bunch requests up.
              if (response.status === 429) {
                refused.push(...orders);
                return;
              }
              const result = batchPlaceOrder.response.parse(dataOf(response));
              expect(result.failureList).toEqual([]);
              for (const success of result.successList) {
                const sent = orders.find((order) => order.clientOid === success.clientOid);
                if (sent === undefined)
                  throw new Error(`unknown clientOid ${success.clientOid} acknowledged`);
                acknowledged.push({ ...sent, orderId: success.orderId, account });
              }
            },
            () => {
              unanswered += 1;
            },
          ),
        );
      }
      if (round === KILL_DURING_ROUND) {
        // Kill while this round's requests are on their way.
        await sleep(2);
        exchange.child.kill('SIGKILL');
      }
      await sleep(300);
    }
    await Promise.all(inFlight);
    expect(await exchange.exited).toMatchObject({ signal: 'SIGKILL' });
    expect(acknowledged.length).toBeGreaterThanOrEqual(100);
    expect(unanswered).toBeGreaterThanOrEqual((ROUNDS - KILL_DURING_ROUND - 1) * burstAccounts.length);

    exchange = await standalone.start(dataDir);
    await expectOrdersIntact(exchange, acknowledged, sentClientOids, burstAccounts, refused);
    expect(await readAll(exchange, traders)).toEqual(beforeKill);
    const burstAfter = await readAll(exchange, burstAccounts);
    for (const account of burstAccounts) {
      // Resting orders move no money: balances and records are what they were before the burst.
      expect(burstAfter[account.label]?.balances).toEqual(burstBefore[account.label]?.balances);
      expect(burstAfter[account.label]?.records).toEqual(burstBefore[account.label]?.records);
    }

    // A clean stop and start reproduces everything exactly.
    const everyone = [...traders, ...burstAccounts];
    const beforeStop = await readAll(exchange, everyone);
    expect(await stopChild(exchange, 'SIGTERM')).toEqual({ code: 0, signal: null });
    exchange = await standalone.start(dataDir);
    expect(await readAll(exchange, everyone)).toEqual(beforeStop);

    // One more acknowledged batch, then only the market clock writes before the crash: the bytes
    // cut off below fall in a clock step no client was ever answered for.
    const last = burstAccounts[0] as TestAccount;
    const finalOrders = burstBatch(last, 'buy', 100, 10);
    for (const order of finalOrders) sentClientOids.add(order.clientOid);
    const final = batchPlaceOrder.response.parse(
      dataOf(await clientFor(exchange, last).post(batchPlaceOrder.path, placeBody('BTCUSDT', finalOrders))),
    );
    expect(final.successList).toHaveLength(10);
    for (const success of final.successList) {
      const sent = finalOrders.find((order) => order.clientOid === success.clientOid) as SentOrder;
      acknowledged.push({ ...sent, orderId: success.orderId, account: last });
    }
    const beforeCrash = await readAll(exchange, everyone);
    await sleep(700);
    expect(await stopChild(exchange, 'SIGKILL')).toMatchObject({ signal: 'SIGKILL' });

    const journalDir = join(dataDir, 'journal');
    const segment = await lastSegment(journalDir);
    const size = (await stat(segment)).size;
    await truncate(segment, size - 3);

    exchange = await standalone.start(dataDir);
    expect(exchange.stderr()).toMatch(/ended in \d+ damaged bytes/);
    expect(exchange.stderr()).toContain('truncated the segment');
    expect((await readdir(journalDir)).some((name) => name.includes('.torn-'))).toBe(true);
    await expectOrdersIntact(exchange, acknowledged, sentClientOids, burstAccounts, refused);
    expect(await readAll(exchange, everyone)).toEqual(beforeCrash);
    expect(await stopChild(exchange, 'SIGTERM')).toEqual({ code: 0, signal: null });
  });
});
