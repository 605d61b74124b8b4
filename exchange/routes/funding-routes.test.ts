// Funding against a real paper exchange: the tickers' index, mark and funding rate, the admin
// settlement (POST /paper/v1/funding/settle), what it leaves in positions and financial records,
// and that a restart replays it. The simulated market is paused, so the book holds only the test's
// orders and the rate follows from them alone.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchPlaceOrder, financialRecords, historyPosition, tickers } from '../../shared/api/endpoints';
import { positionsOf } from '../testing/account-reads';
import { ok, refused } from '../testing/responses';
import type { CreateAccountResult } from '../../shared/api/paper-admin';
import { createSignedClient, type SignedClient } from '../testing/signed-client';
import { startTestExchange, type TestExchange } from '../testing/test-exchange';

const SETTLE = '/paper/v1/funding/settle';

let dataDir: string;
let test: TestExchange;
let alice: SignedClient;
let bob: SignedClient;
let carol: SignedClient;
let accounts: CreateAccountResult[];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'paper-funding-'));
  test = await startTestExchange({ dataDir });
  await test.setPrice('BTCUSDT', '100000');
  accounts = [];
  for (let count = 0; count < 3; count++) accounts.push((await test.newAccount()).account);
  connect();
});
afterAll(async () => {
  await test.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** Clients of the three accounts signing against the running exchange. */
function connect(): void {
  [alice, bob, carol] = accounts.map((account) =>
    createSignedClient({ baseUrl: test.exchange.baseUrl, ...account }),
  ) as [SignedClient, SignedClient, SignedClient];
}

async function place(client: SignedClient, side: 'buy' | 'sell', price: string, size: string) {
  const response = await client.post(batchPlaceOrder.path, {
    symbol: 'BTCUSDT',
    productType: 'USDT-FUTURES',
    marginCoin: 'USDT',
    marginMode: 'crossed',
    orderList: [{ side, orderType: 'limit', price, size }],
  });
  expect(batchPlaceOrder.response.parse(ok(response)).failureList).toEqual([]);
}

async function tickerOf(symbol: string, productType: string) {
  const list = tickers.response.parse(ok(await test.client.publicGet(tickers.path, { productType })));
  return list.find((item) => item.symbol === symbol);
}

async function fundingRecordsOf(client: SignedClient) {
  const response = await client.get(financialRecords.path, { category: 'USDT-FUTURES' });
  return financialRecords.response
    .parse(ok(response))
    .list?.filter((record) => record.type.startsWith('CONTRACT_MAIN_SETTLE_FEE'))
    .map(({ symbol, coin, type, amount, fee }) => ({ symbol, coin, type, amount, fee }));
}

describe('funding over HTTP', () => {
  it('shows index, mark and funding rate for every BTC contract after an admin move', async () => {
    for (const [symbol, productType] of [
      ['BTCUSDT', 'USDT-FUTURES'],
      ['BTCUSD', 'COIN-FUTURES'],
      ['BTCPERP', 'USDC-FUTURES'],
    ] as const) {
      // An empty book has no premium: 0 + clamp(0.01% - 0, +-0.05%) = 0.01%.
      expect(await tickerOf(symbol, productType)).toMatchObject({
        indexPrice: '100000',
        markPrice: '100000',
        fundingRate: '0.0001',
      });
    }
  });

  it('settles a long and a short at the displayed rate, with records and totalFee', async () => {
    await place(bob, 'sell', '100000', '1');
    await place(alice, 'buy', '100000', '1');
    const answer = ok(await test.admin('POST', SETTLE, { symbol: 'BTCUSDT' }));
    expect(answer).toEqual({ settled: [{ symbol: 'BTCUSDT', fundingRate: '0.0001', positions: 2 }] });
    // 1 BTC x 100,000 mark x 0.01% = 10 USDT from the long to the short.
    expect(await fundingRecordsOf(alice)).toEqual([
      { symbol: 'BTCUSDT', coin: 'USDT', type: 'CONTRACT_MAIN_SETTLE_FEE_USER_OUT', amount: '-10', fee: '0' },
    ]);
    expect(await fundingRecordsOf(bob)).toEqual([
      { symbol: 'BTCUSDT', coin: 'USDT', type: 'CONTRACT_MAIN_SETTLE_FEE_USER_IN', amount: '10', fee: '0' },
    ]);
    expect((await positionsOf(alice))[0]).toMatchObject({ totalFee: '-10', markPrice: '100000' });
    expect((await positionsOf(bob))[0]).toMatchObject({ totalFee: '10' });
  });

  it('turns negative when asks stand under the index, and shorts pay longs', async () => {
    // carol's 0.1 BTC ask at 99,900 is the ask side: P = -0.1%, rate = -0.1% + 0.05% = -0.05%.
    await place(carol, 'sell', '99900', '0.1');
    expect((await tickerOf('BTCUSDT', 'USDT-FUTURES'))?.fundingRate).toBe('-0.0005');
    const answer = ok(await test.admin('POST', SETTLE, {})) as { settled: unknown[] };
    expect(answer.settled).toContainEqual({ symbol: 'BTCUSDT', fundingRate: '-0.0005', positions: 2 });
    expect(answer.settled).toContainEqual({ symbol: 'ETHUSDT', fundingRate: '0.0001', positions: 0 });
    // 100,000 x 0.05% = 50 USDT to alice: -10 + 50 = 40 in all.
    expect((await positionsOf(alice))[0]).toMatchObject({ totalFee: '40' });
    expect((await positionsOf(bob))[0]).toMatchObject({ totalFee: '-40' });
  });

  it('refuses an unknown symbol and a malformed body', async () => {
    refused(await test.admin('POST', SETTLE, { symbol: 'NOPEUSDT' }), '40034');
    const bad = await test.admin('POST', SETTLE, { symbol: 12 });
    expect(bad.status).toBe(400);
    expect((await positionsOf(alice))[0]).toMatchObject({ totalFee: '40' });
  });

  it('keeps the funding through a restart, and in the history when the position closes', async () => {
    await test.stop();
    test = await startTestExchange({ dataDir });
    connect();
    expect((await positionsOf(alice))[0]).toMatchObject({ totalFee: '40' });
    expect((await tickerOf('BTCUSDT', 'USDT-FUTURES'))?.fundingRate).toBe('-0.0005');
    ok(await carol.post('/api/v2/mix/order/batch-cancel-orders', { productType: 'USDT-FUTURES' }));
    // alice sells her long into bob's bid (both at 100,000, no PnL): alice is taker (60), bob maker (20).
    await place(bob, 'buy', '100000', '1');
    await place(alice, 'sell', '100000', '1');
    const response = await alice.get(historyPosition.path, { productType: 'USDT-FUTURES' });
    const [closed] = historyPosition.response.parse(ok(response)).list ?? [];
    // netProfit = 0 PnL - 60 open fee - 60 close fee + 40 funding = -80.
    expect(closed).toMatchObject({ totalFunding: '40', openFee: '-60', closeFee: '-60', netProfit: '-80' });
  });
});
