// Dated contracts over HTTP: the admin interface lists them with near times, the exchange's clock
// (a tick every 50 ms, the simulated market paused) walks them through the four delivery states,
// and at the delivery time every position is settled at the delivery price. A restart keeps them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  batchCancelOrders,
  batchPlaceOrder,
  contracts,
  financialRecords,
  historyPosition,
  orderInfo,
  tickers,
  type Ticker,
} from '../../shared/api/endpoints';
import type { CreateAccountResult, ListedContract } from '../../shared/api/paper-admin';
import { ok, pacedClient, refused } from '../testing/responses';
import { createSignedClient, type SignedClient } from '../testing/signed-client';
import { startTestExchange, type TestExchange } from '../testing/test-exchange';

const CONTRACTS_ADMIN = '/paper/v1/contracts';
const MARGIN_COINS: Readonly<Record<string, string>> = {
  'USDT-FUTURES': 'USDT',
  'USDC-FUTURES': 'USDC',
  'COIN-FUTURES': 'BTC',
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let test: TestExchange;
let dataDir: string;

beforeAll(async () => {
  test = await startTestExchange({ tickMs: 50, dataDir: await tempDir() });
  dataDir = test.dataDir;
});
afterAll(async () => {
  await test.stop();
  const { rm } = await import('node:fs/promises');
  await rm(dataDir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const { mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  return mkdtemp(join(tmpdir(), 'paper-delivery-'));
}

async function listContract(body: Record<string, unknown>): Promise<ListedContract> {
  return ok(await test.admin('POST', CONTRACTS_ADMIN, body)) as ListedContract;
}

async function tickerOf(productType: string, symbol: string): Promise<Ticker | undefined> {
  const list = ok(await pacedClient(test.client).publicGet(tickers.path, { productType })) as Ticker[];
  return list.find((ticker) => ticker.symbol === symbol);
}

/** Waits (up to 10 s) until the exchange's clock shows `status` for the contract, or it is gone. */
async function waitFor(
  productType: string,
  symbol: string,
  status: string | 'gone',
): Promise<Ticker | undefined> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const ticker = await tickerOf(productType, symbol);
    if (status === 'gone' ? ticker === undefined : ticker?.deliveryStatus === status) return ticker;
    await sleep(100);
  }
  throw new Error(`${symbol} never reached ${status}`);
}

interface Trader {
  account: CreateAccountResult;
  client: SignedClient;
}

async function trader(posMode: 'one_way_mode' | 'hedge_mode' = 'one_way_mode'): Promise<Trader> {
  const { account, client } = await test.newAccount({ posMode });
  return { account, client: pacedClient(client) };
}

async function place(
  client: SignedClient,
  productType: string,
  symbol: string,
  item: Record<string, string>,
): Promise<{ orderId?: string; errorCode?: string }> {
  const marginCoin = MARGIN_COINS[productType] ?? 'USDT';
  const response = await client.post(batchPlaceOrder.path, {
    symbol,
    productType,
    marginCoin,
    marginMode: 'crossed',
    orderList: [{ orderType: 'limit', size: '0.1', ...item }],
  });
  const result = batchPlaceOrder.response.parse(ok(response));
  const success = result.successList?.[0];
  if (success !== undefined) return { orderId: success.orderId };
  return { errorCode: result.failureList?.[0]?.errorCode };
}

async function lastRecord(client: SignedClient, category: string) {
  const page = financialRecords.response.parse(ok(await client.get(financialRecords.path, { category })));
  return page.list?.[0];
}

describe('a dated contract listed by the admin interface', () => {
  it('walks through its four states and settles long and short, linear and inverse', async () => {
    // One BTC index: the coin-margined contracts follow it too.
    await test.setPrice('BTCUSDT', '60000');
    const now = Date.now();
    const times = {
      listTime: now + 800,
      limitOpenTime: now + 3_000,
      deliveryStartTime: now + 4_500,
      deliveryTime: now + 6_000,
    };
    const linear = await listContract({ baseSymbol: 'BTCUSDT', ...times });
    const inverse = await listContract({ baseSymbol: 'btcusd', ...times });
    expect(linear).toMatchObject({
      productType: 'USDT-FUTURES',
      baseSymbol: 'BTCUSDT',
      deliveryTime: String(times.deliveryTime),
    });
    expect(linear.symbol).toMatch(/^BTCUSDT\d{4}(_\d+)?$/);
    expect(inverse).toMatchObject({ productType: 'COIN-FUTURES', baseSymbol: 'BTCUSD' });
    const [alice, bob, carol, dave] = [
      await trader(),
      await trader('hedge_mode'),
      await trader(),
      await trader(),
    ];
    if (alice === undefined || bob === undefined || carol === undefined || dave === undefined)
      throw new Error('');

    // delivery_config_period: listed, shown, not tradable.
    const configured = await tickerOf('USDT-FUTURES', linear.symbol);
    expect(configured).toMatchObject({
      deliveryStatus: 'delivery_config_period',
      deliveryStartTime: String(times.deliveryStartTime),
      deliveryTime: String(times.deliveryTime),
      indexPrice: '60000',
    });
    const config = contracts.response.parse(
      ok(await test.client.publicGet(contracts.path, { productType: 'USDT-FUTURES', symbol: linear.symbol })),
    );
    expect(config[0]).toMatchObject({ symbolType: 'delivery', symbolStatus: 'listed', fundInterval: '0' });
    expect(await place(alice.client, 'USDT-FUTURES', linear.symbol, { side: 'buy', price: '59000' })).toEqual(
      {
        errorCode: '43115',
      },
    );

    // delivery_normal: alice (one-way) buys 0.1 from bob (hedge, opening a short) at 59,000;
    // carol buys 0.1 BTCUSD-dated from dave at 48,000.
    await waitFor('USDT-FUTURES', linear.symbol, 'delivery_normal');
    expect(
      (await place(alice.client, 'USDT-FUTURES', linear.symbol, { side: 'buy', price: '59000' })).orderId,
    ).toBeDefined();
    expect(
      (
        await place(bob.client, 'USDT-FUTURES', linear.symbol, {
          side: 'sell',
          tradeSide: 'open',
          price: '59000',
        })
      ).orderId,
    ).toBeDefined();
    expect(
      (await place(carol.client, 'COIN-FUTURES', inverse.symbol, { side: 'buy', price: '48000' })).orderId,
    ).toBeDefined();
    expect(
      (await place(dave.client, 'COIN-FUTURES', inverse.symbol, { side: 'sell', price: '48000' })).orderId,
    ).toBeDefined();

    // delivery_before: no opening; closing still rests on the book.
    await waitFor('USDT-FUTURES', linear.symbol, 'delivery_before');
    expect(await place(alice.client, 'USDT-FUTURES', linear.symbol, { side: 'buy', price: '59000' })).toEqual(
      {
        errorCode: '40308',
      },
    );
    const resting = await place(alice.client, 'USDT-FUTURES', linear.symbol, {
      side: 'sell',
      size: '0.05',
      price: '70000',
      reduceOnly: 'YES',
    });
    expect(resting.orderId).toBeDefined();

    // delivery_period: no opening, closing or cancelling.
    await waitFor('USDT-FUTURES', linear.symbol, 'delivery_period');
    expect(
      await place(bob.client, 'USDT-FUTURES', linear.symbol, {
        side: 'sell',
        tradeSide: 'close',
        price: '59000',
      }),
    ).toEqual({ errorCode: '40308' });
    refused(
      await alice.client.post(batchCancelOrders.path, {
        productType: 'USDT-FUTURES',
        symbol: linear.symbol,
        orderIdList: [{ orderId: resting.orderId }],
      }),
      '40308',
    );

    // Delivered: gone from tickers and contracts, positions settled at the delivery price.
    await waitFor('USDT-FUTURES', linear.symbol, 'gone');
    await waitFor('COIN-FUTURES', inverse.symbol, 'gone');
    refused(
      await test.client.publicGet(contracts.path, { productType: 'USDT-FUTURES', symbol: linear.symbol }),
      '40034',
    );
    expect(await place(alice.client, 'USDT-FUTURES', linear.symbol, { side: 'buy', price: '59000' })).toEqual(
      {
        errorCode: '40309',
      },
    );
    // The index stood at 60,000 all along, so the delivery price is 60,000.
    // alice long 0.1 from 59,000: PnL 0.1 x (60,000 - 59,000) = 100; fee 0.1 x 60,000 x 0.0006 = 3.6.
    expect(await lastRecord(alice.client, 'USDT-FUTURES')).toMatchObject({
      symbol: linear.symbol,
      type: 'DELIVERY_LONG',
      amount: '100',
      fee: '-3.6',
    });
    expect(await lastRecord(bob.client, 'USDT-FUTURES')).toMatchObject({
      type: 'DELIVERY_SHORT',
      amount: '-100',
      fee: '-3.6',
    });
    // carol long 0.1 BTC from 48,000 delivered at 60,000: PnL 0.1 x 12,000 / 60,000 = 0.02 BTC,
    // fee 0.1 x 0.0006 = 0.00006 BTC.
    expect(await lastRecord(carol.client, 'COIN-FUTURES')).toMatchObject({
      type: 'DELIVERY_LONG',
      coin: 'BTC',
      amount: '0.02',
      fee: '-0.00006',
    });
    expect(await lastRecord(dave.client, 'COIN-FUTURES')).toMatchObject({
      type: 'DELIVERY_SHORT',
      amount: '-0.02',
    });
    const history = historyPosition.response.parse(
      ok(await alice.client.get(historyPosition.path, { symbol: linear.symbol })),
    );
    expect(history.list?.[0]).toMatchObject({
      holdSide: 'long',
      openAvgPrice: '59000',
      closeAvgPrice: '60000',
      pnl: '100',
      // alice's order rested first and paid the maker rate to open: 0.1 x 59,000 x 0.0002 = 1.18.
      netProfit: '95.22',
      closeFee: '-3.6',
    });
    const cancelled = orderInfo.response.parse(
      ok(await alice.client.get(orderInfo.path, { orderId: resting.orderId ?? '' })),
    );
    expect(cancelled).toMatchObject({ orderStatus: 'cancelled', cancelReason: 'delivery' });
  });

  it('refuses a listing on an unknown perpetual or with times out of order', async () => {
    refused(
      await test.admin('POST', CONTRACTS_ADMIN, {
        baseSymbol: 'DOGEUSDT',
        deliveryTime: Date.now() + 60_000,
      }),
      '40034',
    );
    const late = Date.now() + 60_000;
    expect(
      refused(
        await test.admin('POST', CONTRACTS_ADMIN, {
          baseSymbol: 'BTCUSDT',
          deliveryStartTime: late + 1,
          deliveryTime: late,
        }),
        '40020',
      ),
    ).toContain('deliveryStartTime');
    expect(refused(await test.admin('POST', CONTRACTS_ADMIN, { baseSymbol: 'BTCUSDT' }), '40020')).toContain(
      'deliveryTime',
    );
  });

  it('keeps a listed contract and its state across a restart', async () => {
    const deliveryTime = Date.now() + 86_400_000;
    const listTime = Date.now();
    const listed = await listContract({
      baseSymbol: 'BTCPERP',
      deliveryTime,
      listTime,
      limitOpenTime: listTime,
    });
    expect(listed.productType).toBe('USDC-FUTURES');
    const { account } = await test.newAccount();
    await test.stop();
    test = await startTestExchange({ tickMs: 50, dataDir });
    const after = await tickerOf('USDC-FUTURES', listed.symbol);
    expect(after).toMatchObject({ deliveryTime: String(deliveryTime), deliveryStatus: 'delivery_before' });
    const client = pacedClient(createSignedClient({ baseUrl: test.exchange.baseUrl, ...account }));
    // Opening is refused after the restart as before it.
    expect(await place(client, 'USDC-FUTURES', listed.symbol, { side: 'buy', price: '60000' })).toMatchObject(
      {
        errorCode: '40308',
      },
    );
  });
});
