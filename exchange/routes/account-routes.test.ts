// Positions, records, leverage and account settings (E4-E7, E10, E12, E14, E16, C3, C4) over
// HTTP against a real paper exchange. The simulated market is paused: the test's accounts trade
// only with each other, at the prices they choose, so every margin, fee and PnL is exact.
// Fees: maker 0.0002, taker 0.0006; default leverage 20, crossed, one-way.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CurrentPosition,
  FinancialRecord,
  HistoricalPosition,
  HistoryPositionPage,
  FinancialRecordsPage,
  SubaccountFutureAsset,
} from '../../shared/api/endpoints';
import type { CreateAccountRequest, NewApiKey, PaperAccount } from '../../shared/api/paper-admin';
import type { Permission, ProductType } from '../../shared/api/enums';
import { createSignedClient } from '../testing/signed-client';
import type { QueryInput, SignedClient } from '../testing/signed-client';
import { ok, pacedClient, refused } from '../testing/responses';
import { startTestExchange, type TestExchange } from '../testing/test-exchange';

const PLACE = '/api/v2/mix/order/batch-place-order';
const PLACE_V3 = '/api/v3/trade/place-batch';
const CANCEL = '/api/v2/mix/order/batch-cancel-orders';
const PENDING = '/api/v2/mix/order/orders-pending';
const ALL_POSITION = '/api/v2/mix/position/all-position';
const HISTORY_POSITION = '/api/v2/mix/position/history-position';
const FINANCIAL_RECORDS = '/api/v3/account/financial-records';
const SUB_ASSETS = '/api/v2/broker/account/subaccount-future-assets';
const INS_LOAN = '/api/v2/spot/ins-loan/transfered';
const SET_LEVERAGE = '/api/v2/mix/account/set-leverage';
const SET_POSITION_MODE = '/api/v2/mix/account/set-position-mode';
const SET_MARGIN_MODE = '/api/v2/mix/account/set-margin-mode';
const MAX_TRANSFERABLE = '/api/v3/account/max-transferable';
const DEPOSIT_ACCOUNT = '/api/v3/account/deposit-account';

const DAY_MS = 86_400_000;

interface Market {
  symbol: string;
  productType: ProductType;
  marginCoin: string;
}

const BTCUSDT: Market = { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT' };
const ETHUSDT: Market = { symbol: 'ETHUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT' };
const SOLUSDT: Market = { symbol: 'SOLUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT' };
const BTCPERP: Market = { symbol: 'BTCPERP', productType: 'USDC-FUTURES', marginCoin: 'USDC' };

interface OrderSpec {
  side: 'buy' | 'sell';
  price: string;
  size: string;
  tradeSide?: 'open' | 'close';
  reduceOnly?: 'YES' | 'NO';
}

interface BatchResult {
  successList: Array<{ orderId: string }>;
  failureList: Array<{ errorCode: string; errorMsg: string }>;
}

interface Trader {
  uid: string;
  client: SignedClient;
}

let test: TestExchange;

beforeAll(async () => {
  test = await startTestExchange();
});
afterAll(async () => {
  await test.stop();
});

async function open(request: Partial<CreateAccountRequest> = {}): Promise<Trader> {
  const { account, client } = await test.newAccount(request);
  return { uid: account.uid, client: pacedClient(client) };
}

/** A second key of `uid` with only `permissions`. */
async function keyWith(uid: string, permissions: Permission[]): Promise<SignedClient> {
  const created = await test.admin('POST', `/paper/v1/accounts/${uid}/keys`, { permissions });
  expect(created.status, created.text).toBe(200);
  const key = created.body?.data as NewApiKey;
  return pacedClient(createSignedClient({ baseUrl: test.exchange.baseUrl, ...key }));
}

async function placeRaw(
  trader: Trader,
  orders: OrderSpec[],
  market: Market = BTCUSDT,
  marginMode: 'crossed' | 'isolated' = 'crossed',
): Promise<BatchResult> {
  return ok(
    await trader.client.post(PLACE, {
      ...market,
      marginMode,
      orderList: orders.map((order) => ({ orderType: 'limit', ...order })),
    }),
  ) as BatchResult;
}

/** Places limit orders and expects every one accepted. */
async function place(
  trader: Trader,
  orders: OrderSpec[],
  market: Market = BTCUSDT,
  marginMode: 'crossed' | 'isolated' = 'crossed',
): Promise<string[]> {
  const data = await placeRaw(trader, orders, market, marginMode);
  expect(data.failureList).toEqual([]);
  return data.successList.map((item) => item.orderId);
}

interface TradeOptions {
  market?: Market;
  /** Fields of the taker's order beyond side, price and size (tradeSide in hedge mode). */
  taker?: Partial<OrderSpec>;
  /** A v2 order names a margin mode and, with nothing open, switches the symbol to it. */
  takerMarginMode?: 'crossed' | 'isolated';
}

/** `maker` rests `order`, `taker` takes all of it at the same price with the opposite side. */
async function trade(
  maker: Trader,
  taker: Trader,
  order: OrderSpec,
  options: TradeOptions = {},
): Promise<void> {
  const market = options.market ?? BTCUSDT;
  await place(maker, [order], market);
  const opposite: OrderSpec = {
    side: order.side === 'buy' ? 'sell' : 'buy',
    price: order.price,
    size: order.size,
    ...options.taker,
  };
  await place(taker, [opposite], market, options.takerMarginMode);
  const resting = ok(
    await maker.client.get(PENDING, { productType: market.productType, symbol: market.symbol }),
  ) as {
    entrustedList: unknown[] | null;
  };
  expect(resting.entrustedList, 'the maker order was filled').toBeNull();
}

async function cancelAll(trader: Trader, market: Market = BTCUSDT): Promise<void> {
  ok(await trader.client.post(CANCEL, { productType: market.productType, symbol: market.symbol }));
}

async function positions(
  trader: Trader,
  query: Record<string, string> = { productType: 'USDT-FUTURES' },
): Promise<CurrentPosition[]> {
  return ok(await trader.client.get(ALL_POSITION, query)) as CurrentPosition[];
}

async function onlyPosition(
  trader: Trader,
  productType: ProductType = 'USDT-FUTURES',
): Promise<CurrentPosition> {
  const list = await positions(trader, { productType });
  expect(list).toHaveLength(1);
  return list[0] as CurrentPosition;
}

async function history(trader: Trader, query: Record<string, string> = {}): Promise<HistoryPositionPage> {
  return ok(await trader.client.get(HISTORY_POSITION, query)) as HistoryPositionPage;
}

async function records(trader: Trader, query: QueryInput): Promise<FinancialRecordsPage> {
  return ok(await trader.client.get(FINANCIAL_RECORDS, query)) as FinancialRecordsPage;
}

function withoutIdAndTime(record: FinancialRecord): Omit<FinancialRecord, 'id' | 'ts'> {
  const { id: _id, ts: _ts, ...rest } = record;
  return rest;
}

async function setLeverage(trader: Trader, body: Record<string, string>, market: Market = BTCUSDT) {
  return trader.client.post(SET_LEVERAGE, { ...market, ...body });
}

async function setMarginMode(trader: Trader, marginMode: string, market: Market = BTCUSDT) {
  return trader.client.post(SET_MARGIN_MODE, { ...market, marginMode });
}

async function setPositionMode(trader: Trader, posMode: string, productType: ProductType = 'USDT-FUTURES') {
  return trader.client.post(SET_POSITION_MODE, { productType, posMode });
}

async function maxTransfer(trader: Trader, coin = 'USDT'): Promise<string> {
  const data = ok(await trader.client.get(MAX_TRANSFERABLE, { coin })) as { maxTransfer: string };
  return data.maxTransfer;
}

async function adminAccount(uid: string): Promise<PaperAccount> {
  const listed = await test.admin('GET', '/paper/v1/accounts');
  const account = (listed.body?.data as { accounts: PaperAccount[] }).accounts.find(
    (item) => item.uid === uid,
  );
  if (account === undefined) throw new Error(`no account ${uid}`);
  return account;
}

describe('E7 all-position', () => {
  it('reports a fresh position at its entry, its mark and its fees', async () => {
    await test.setPrice('BTCUSDT', '95000');
    const short = await open();
    const long = await open();
    await trade(short, long, { side: 'sell', price: '95000', size: '0.1' });

    const common = {
      symbol: 'BTCUSDT',
      marginCoin: 'USDT',
      openPriceAvg: '95000',
      total: '0.1',
      available: '0.1',
      locked: '0',
      openDelegateSize: '0',
      // 9500 / 20
      marginSize: '475',
      leverage: '20',
      achievedProfits: '0',
      unrealizedPL: '0',
      markPrice: '95000',
      marginMode: 'crossed',
      posMode: 'one_way_mode',
      totalFee: '',
      takeProfit: '',
      stopLoss: '',
    };
    expect(await onlyPosition(long)).toMatchObject({
      ...common,
      holdSide: 'long',
      // taker: 9500 x 0.0006
      deductedFee: '5.7',
      // 95000 x 1.0006 / 0.9994: the exit that pays back both taker fees
      breakEvenPrice: '95114.068',
    });
    expect(await onlyPosition(short)).toMatchObject({
      ...common,
      holdSide: 'short',
      // maker: 9500 x 0.0002
      deductedFee: '1.9',
      // 95000 x 0.9994 / 1.0006
      breakEvenPrice: '94886.068',
    });

    await test.setPrice('BTCUSDT', '96000.5');
    expect(await onlyPosition(long)).toMatchObject({ unrealizedPL: '100.05', markPrice: '96000.5' });
    expect(await onlyPosition(short)).toMatchObject({ unrealizedPL: '-100.05', markPrice: '96000.5' });
    await test.setPrice('BTCUSDT', '94000');
    expect(await onlyPosition(long)).toMatchObject({ unrealizedPL: '-100', marginSize: '475' });
  });

  it('locks what closing orders promise, counts opening orders, and realizes a partial close', async () => {
    await test.setPrice('BTCUSDT', '95000');
    const short = await open();
    const long = await open();
    const buyer = await open();
    await trade(short, long, { side: 'sell', price: '95000', size: '0.1' });

    await place(long, [
      { side: 'sell', price: '97000', size: '0.04', reduceOnly: 'YES' },
      { side: 'buy', price: '90000', size: '0.02' },
    ]);
    expect(await onlyPosition(long)).toMatchObject({
      total: '0.1',
      locked: '0.04',
      available: '0.06',
      openDelegateSize: '0.02',
    });
    await cancelAll(long);
    expect(await onlyPosition(long)).toMatchObject({ locked: '0', available: '0.1', openDelegateSize: '0' });

    // The long sells 0.04 as maker at 96000: PnL 0.04 x 1000, fee 3840 x 0.0002.
    await trade(long, buyer, { side: 'sell', price: '96000', size: '0.04', reduceOnly: 'YES' });
    expect(await onlyPosition(long)).toMatchObject({
      holdSide: 'long',
      total: '0.06',
      available: '0.06',
      openPriceAvg: '95000',
      achievedProfits: '40',
      marginSize: '285',
      deductedFee: '6.468',
    });
  });

  it('lists positions per product type and filters by margin coin', async () => {
    await test.setPrice('BTCUSDT', '95000');
    const maker = await open();
    const trader = await open();
    await trade(maker, trader, { side: 'sell', price: '95000', size: '0.01' });
    await trade(maker, trader, { side: 'buy', price: '95000', size: '0.02' }, { market: BTCPERP });

    const usdt = await positions(trader, { productType: 'USDT-FUTURES' });
    expect(usdt.map((position) => [position.symbol, position.holdSide, position.total])).toEqual([
      ['BTCUSDT', 'long', '0.01'],
    ]);
    expect(await positions(trader, { productType: 'usdt-futures', marginCoin: 'usdt' })).toHaveLength(1);
    expect(await positions(trader, { productType: 'USDT-FUTURES', marginCoin: 'USDC' })).toEqual([]);
    const usdc = await positions(trader, { productType: 'USDC-FUTURES' });
    expect(
      usdc.map((position) => [position.symbol, position.marginCoin, position.holdSide, position.total]),
    ).toEqual([['BTCPERP', 'USDC', 'short', '0.02']]);
    expect(await positions(trader, { productType: 'COIN-FUTURES' })).toEqual([]);
  });

  it('refuses a missing product type and a malformed margin coin, and a key without read', async () => {
    const trader = await open();
    expect(refused(await trader.client.get(ALL_POSITION, {}), '40019')).toBe(
      'Parameter productType cannot be empty',
    );
    refused(
      await trader.client.get(ALL_POSITION, { productType: 'USDT-FUTURES', marginCoin: 'US-DT' }),
      '40020',
    );
    const mgtOnly = await keyWith(trader.uid, ['uta_mgt_read']);
    expect(refused(await mgtOnly.get(ALL_POSITION, { productType: 'USDT-FUTURES' }), '40014')).toBe(
      'Incorrect permissions, need read permissions',
    );
  });
});

describe('E4 history-position', () => {
  it('archives a closed position with exact averages, pnl, fees and net profit', async () => {
    const opener = await open();
    const closer = await open();
    const trader = await open();
    await place(opener, [
      { side: 'sell', price: '95000', size: '0.05' },
      { side: 'sell', price: '95100', size: '0.05' },
    ]);
    await place(trader, [{ side: 'buy', price: '95100', size: '0.1' }]);
    await place(closer, [
      { side: 'buy', price: '97000', size: '0.06' },
      { side: 'buy', price: '96000', size: '0.04' },
    ]);
    await place(trader, [{ side: 'sell', price: '96000', size: '0.1' }]);
    expect(await positions(trader)).toEqual([]);

    const page = await history(trader);
    expect(page.list).toHaveLength(1);
    const closed = page.list[0] as HistoricalPosition;
    expect(closed).toMatchObject({
      symbol: 'BTCUSDT',
      marginCoin: 'USDT',
      holdSide: 'long',
      posMode: 'one_way_mode',
      marginMode: 'crossed',
      openAvgPrice: '95050',
      // (0.06 x 97000 + 0.04 x 96000) / 0.1
      closeAvgPrice: '96600',
      openTotalPos: '0.1',
      closeTotalPos: '0.1',
      // 0.06 x 1950 + 0.04 x 950
      pnl: '155',
      // taker fees: 4750 x 0.0006 + 4755 x 0.0006, then 5820 x 0.0006 + 3840 x 0.0006
      openFee: '-5.703',
      closeFee: '-5.796',
      netProfit: '143.501',
      totalFunding: '0',
    });
    expect(page.endId).toBe(closed.positionId);
    expect(Number(closed.cTime)).toBeLessThanOrEqual(Number(closed.uTime));
  });

  it('pages from the most recently closed position back, without gaps or repeats', async () => {
    const maker = await open();
    const trader = await open();
    // Opened BTC, ETH, then closed ETH before BTC, then a whole SOL round trip.
    await trade(maker, trader, { side: 'sell', price: '95000', size: '0.01' });
    await trade(maker, trader, { side: 'sell', price: '3400', size: '0.1' }, { market: ETHUSDT });
    await trade(maker, trader, { side: 'buy', price: '3410', size: '0.1' }, { market: ETHUSDT });
    await trade(maker, trader, { side: 'buy', price: '95100', size: '0.01' });
    await trade(maker, trader, { side: 'sell', price: '180', size: '1' }, { market: SOLUSDT });
    await trade(maker, trader, { side: 'buy', price: '181', size: '1' }, { market: SOLUSDT });

    const all = (await history(trader, { productType: 'USDT-FUTURES' })).list;
    expect(all.map((item) => [item.symbol, item.pnl])).toEqual([
      ['SOLUSDT', '1'],
      ['BTCUSDT', '1'],
      ['ETHUSDT', '1'],
    ]);
    const seen: string[] = [];
    let idLessThan: string | undefined;
    for (let page = 0; page < 5; page++) {
      const query: Record<string, string> = { limit: '1' };
      if (idLessThan !== undefined) query.idLessThan = idLessThan;
      const result = await history(trader, query);
      if (result.list.length === 0) break;
      seen.push(...result.list.map((item) => item.positionId));
      idLessThan = result.endId ?? undefined;
    }
    expect(seen).toEqual(all.map((item) => item.positionId));
    const ids = seen.map(Number);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const firstTwo = await history(trader, { limit: '2' });
    expect(firstTwo.list.map((item) => item.symbol)).toEqual(['SOLUSDT', 'BTCUSDT']);
    const rest = await history(trader, { limit: '2', idLessThan: firstTwo.endId ?? '' });
    expect(rest.list.map((item) => item.symbol)).toEqual(['ETHUSDT']);
  });

  it('filters by product type, or by symbol whatever the product type says', async () => {
    const maker = await open();
    const trader = await open();
    await trade(maker, trader, { side: 'sell', price: '95000', size: '0.01' });
    await trade(maker, trader, { side: 'buy', price: '95000', size: '0.01' });
    await trade(maker, trader, { side: 'sell', price: '95000', size: '0.01' }, { market: BTCPERP });
    await trade(maker, trader, { side: 'buy', price: '94000', size: '0.01' }, { market: BTCPERP });

    const symbols = async (query: Record<string, string>) =>
      (await history(trader, query)).list.map((item) => [item.symbol, item.marginCoin]);
    expect(await symbols({})).toEqual([['BTCUSDT', 'USDT']]);
    expect(await symbols({ productType: 'USDC-FUTURES' })).toEqual([['BTCPERP', 'USDC']]);
    expect(await symbols({ productType: 'USDT-FUTURES', symbol: 'BTCPERP' })).toEqual([['BTCPERP', 'USDC']]);
    expect(await symbols({ symbol: 'btcusdt' })).toEqual([['BTCUSDT', 'USDT']]);
    expect(await symbols({ productType: 'COIN-FUTURES' })).toEqual([]);
    // -10 on the BTCPERP long: 0.01 x (94000 - 95000)
    expect((await history(trader, { productType: 'USDC-FUTURES' })).list[0]?.pnl).toBe('-10');
  });

  it('keeps to the time window and refuses bad parameters', async () => {
    const maker = await open();
    const trader = await open();
    await trade(maker, trader, { side: 'sell', price: '95000', size: '0.01' });
    await trade(maker, trader, { side: 'buy', price: '95000', size: '0.01' });
    const now = Date.now();
    expect((await history(trader, { startTime: String(now - 60_000) })).list).toHaveLength(1);
    expect((await history(trader, { endTime: String(now - 60_000) })).list).toEqual([]);
    expect(
      (await history(trader, { startTime: String(now - 89 * DAY_MS), endTime: String(now + 60_000) })).list,
    ).toHaveLength(1);

    const wide = refused(
      await trader.client.get(HISTORY_POSITION, {
        startTime: String(now - 91 * DAY_MS),
        endTime: String(now),
      }),
      '40020',
    );
    expect(wide).toContain('3 months');
    expect(refused(await trader.client.get(HISTORY_POSITION, { limit: '101' }), '40020')).toContain('limit');
    refused(await trader.client.get(HISTORY_POSITION, { idLessThan: 'newest' }), '40020');
    refused(await trader.client.get(HISTORY_POSITION, { productType: 'SPOT' }), '40020');
  });
});

describe('E5 financial-records', () => {
  it('leaves a record with the exact amount, fee and balance for every balance change', async () => {
    const trader = await open({ balances: { USDT: '1000' } });
    const other = await open();
    // Opens 0.01 as taker at 95000 (fee 0.57), closes as maker at 95500 (PnL 5, fee 0.191).
    await trade(other, trader, { side: 'sell', price: '95000', size: '0.01' });
    await trade(trader, other, { side: 'sell', price: '95500', size: '0.01' });

    const page = await records(trader, { category: 'USDT-FUTURES' });
    expect(page.list.map(withoutIdAndTime)).toEqual([
      {
        category: 'USDT-FUTURES',
        symbol: 'BTCUSDT',
        coin: 'USDT',
        type: 'CLOSE_LONG',
        amount: '5',
        fee: '-0.191',
        balance: '1004.239',
      },
      {
        category: 'USDT-FUTURES',
        symbol: 'BTCUSDT',
        coin: 'USDT',
        type: 'OPEN_LONG',
        amount: '0',
        fee: '-0.57',
        balance: '999.43',
      },
      {
        category: 'USDT-FUTURES',
        symbol: '',
        coin: 'USDT',
        type: 'TRANSFER_IN',
        amount: '1000',
        fee: '0',
        balance: '1000',
      },
    ]);
    const ids = page.list.map((record) => Number(record.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(page.cursor).toBe(page.list[2]?.id);
    expect((await adminAccount(trader.uid)).balances).toEqual({ USDT: '1004.239' });
    for (const category of ['COIN-FUTURES', 'USDC-FUTURES', 'SPOT', 'OTHER']) {
      expect((await records(trader, { category })).list).toEqual([]);
    }
  });

  it('filters by category, coin and type', async () => {
    const trader = await open();
    const other = await open();
    await trade(other, trader, { side: 'buy', price: '95000', size: '0.01' });

    const coinFutures = (await records(trader, { category: 'coin-futures' })).list;
    expect(coinFutures.map(withoutIdAndTime)).toEqual([
      {
        category: 'COIN-FUTURES',
        symbol: '',
        coin: 'BTC',
        type: 'TRANSFER_IN',
        amount: '2',
        fee: '0',
        balance: '2',
      },
    ]);
    const usdc = (await records(trader, { category: 'USDC-FUTURES' })).list;
    expect(usdc.map((record) => [record.coin, record.type, record.amount])).toEqual([
      ['USDC', 'TRANSFER_IN', '100000'],
    ]);

    const types = async (query: Record<string, string>) =>
      (await records(trader, { category: 'USDT-FUTURES', ...query })).list.map((record) => record.type);
    expect(await types({})).toEqual(['OPEN_SHORT', 'TRANSFER_IN']);
    expect(await types({ type: 'open_short' })).toEqual(['OPEN_SHORT']);
    expect(await types({ type: 'TRANSFER_IN' })).toEqual(['TRANSFER_IN']);
    expect(await types({ type: 'CLOSE_LONG' })).toEqual([]);
    expect(await types({ coin: 'usdt' })).toEqual(['OPEN_SHORT', 'TRANSFER_IN']);
    expect(await types({ coin: 'BTC' })).toEqual([]);
  });

  it('pages with the cursor until nothing is left', async () => {
    const trader = await open({ balances: { USDT: '5000' } });
    const other = await open();
    await trade(other, trader, { side: 'sell', price: '95000', size: '0.01' });
    await trade(other, trader, { side: 'sell', price: '95000', size: '0.01' });
    await trade(other, trader, { side: 'buy', price: '95500', size: '0.01' });
    await trade(other, trader, { side: 'buy', price: '95500', size: '0.01' });
    const all = (await records(trader, { category: 'USDT-FUTURES' })).list;
    expect(all.map((record) => record.type)).toEqual([
      'CLOSE_LONG',
      'CLOSE_LONG',
      'OPEN_LONG',
      'OPEN_LONG',
      'TRANSFER_IN',
    ]);

    const pages: string[][] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const query: Record<string, string> = { category: 'USDT-FUTURES', limit: '2' };
      if (cursor !== undefined) query.cursor = cursor;
      const result = await records(trader, query);
      if (result.list.length === 0) {
        expect(result.cursor ?? '').toBe('');
        break;
      }
      pages.push(result.list.map((record) => record.id));
      cursor = result.cursor ?? undefined;
    }
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(all.map((record) => record.id));
  });

  it('keeps to a window of at most 30 days', async () => {
    const trader = await open();
    const now = Date.now();
    expect(
      (
        await records(trader, {
          category: 'USDT-FUTURES',
          startTime: String(now - 30 * DAY_MS + 1000),
          endTime: String(now + 1000),
        })
      ).list,
    ).toHaveLength(1);
    expect(
      (await records(trader, { category: 'USDT-FUTURES', startTime: String(now - 60_000) })).list,
    ).toHaveLength(1);
    expect((await records(trader, { category: 'USDT-FUTURES', endTime: String(now - 60_000) })).list).toEqual(
      [],
    );
    const wide = refused(
      await trader.client.get(FINANCIAL_RECORDS, {
        category: 'USDT-FUTURES',
        startTime: String(now - 30 * DAY_MS - 1),
        endTime: String(now),
      }),
      '400172',
    );
    expect(wide).toContain('30 days');
    refused(
      await trader.client.get(FINANCIAL_RECORDS, {
        category: 'USDT-FUTURES',
        startTime: String(now),
        endTime: String(now - 1),
      }),
      '400172',
    );
  });

  it('refuses bad parameters with the v3 code, and a key without uta_mgt_read', async () => {
    const trader = await open();
    expect(refused(await trader.client.get(FINANCIAL_RECORDS, {}), '400172')).toBe(
      'Parameter verification failed category cannot be empty',
    );
    refused(await trader.client.get(FINANCIAL_RECORDS, { category: 'FUTURES' }), '400172');
    refused(await trader.client.get(FINANCIAL_RECORDS, { category: 'USDT-FUTURES', limit: '101' }), '400172');
    refused(
      await trader.client.get(FINANCIAL_RECORDS, { category: 'USDT-FUTURES', type: 'open long' }),
      '400172',
    );

    const tradeOnly = await keyWith(trader.uid, ['read', 'trade']);
    expect(refused(await tradeOnly.get(FINANCIAL_RECORDS, { category: 'USDT-FUTURES' }), '40014')).toBe(
      'Incorrect permissions, need uta_mgt_read permissions',
    );
    const mgtRead = await keyWith(trader.uid, ['uta_mgt_read']);
    ok(await mgtRead.get(FINANCIAL_RECORDS, { category: 'USDT-FUTURES' }));
    const mgtWrite = await keyWith(trader.uid, ['uta_mgt_write']);
    ok(await mgtWrite.get(FINANCIAL_RECORDS, { category: 'USDT-FUTURES' }));
  });
});

describe('E6 subaccount-future-assets', () => {
  it("shows a broker its sub-account's assets, equity and unrealized PnL", async () => {
    await test.setPrice('BTCUSDT', '95000');
    const broker = await open({ kind: 'broker' });
    const sub = await open({ kind: 'sub', brokerUid: broker.uid, balances: { USDT: '5000', BTC: '0.5' } });
    const assets = async (productType: ProductType) =>
      (
        ok(await broker.client.get(SUB_ASSETS, { subUid: sub.uid, productType })) as {
          assetsList: SubaccountFutureAsset[];
        }
      ).assetsList;

    expect(await assets('USDT-FUTURES')).toMatchObject([
      {
        marginCoin: 'USDT',
        available: '5000',
        locked: '0',
        frozen: '0',
        crossedMaxAvailable: '5000',
        isolatedMaxAvailable: '5000',
        maxTransferOut: '5000',
        accountEquity: '5000',
        usdtEquity: '5000',
        // 5000 / 95000, to 8 places
        btcEquity: '0.05263157',
        unrealizedPL: '0',
      },
    ]);

    // The sub buys 0.01 at 95000 as taker (fee 0.57, margin 47.5), then the mark falls 1000.
    const maker = await open();
    await trade(maker, sub, { side: 'sell', price: '95000', size: '0.01' });
    await test.setPrice('BTCUSDT', '94000');
    expect(await assets('USDT-FUTURES')).toMatchObject([
      {
        marginCoin: 'USDT',
        accountEquity: '4989.43',
        unrealizedPL: '-10',
        // 4999.43 - 47.5 margin - 10 loss
        maxTransferOut: '4941.93',
        crossedMaxAvailable: '4941.93',
        // wallet 4999.43 = available + locked (position margin) + frozen (orders)
        available: '4951.93',
        locked: '47.5',
        frozen: '0',
      },
    ]);
    // A resting buy of 0.01 at 90000 reserves 45 margin and 0.54 taker fee.
    await place(sub, [{ side: 'buy', price: '90000', size: '0.01' }]);
    expect(await assets('USDT-FUTURES')).toMatchObject([
      {
        available: '4906.39',
        locked: '47.5',
        frozen: '45.54',
        maxTransferOut: '4896.39',
        accountEquity: '4989.43',
      },
    ]);
    await cancelAll(sub);
    expect(await assets('COIN-FUTURES')).toMatchObject([
      { marginCoin: 'BTC', accountEquity: '0.5', usdtEquity: '47000', unrealizedPL: '0' },
    ]);
    expect(await assets('USDC-FUTURES')).toMatchObject([{ marginCoin: 'USDC', accountEquity: '0' }]);
  });

  it('refuses accounts that are not the broker of the sub-account', async () => {
    const broker = await open({ kind: 'broker' });
    const sub = await open({ kind: 'sub', brokerUid: broker.uid });
    const otherBroker = await open({ kind: 'broker' });
    const standard = await open();
    const query = { subUid: sub.uid, productType: 'USDT-FUTURES' };

    expect(refused(await standard.client.get(SUB_ASSETS, query), '40014')).toContain('broker');
    refused(await sub.client.get(SUB_ASSETS, query), '40014');
    expect(refused(await otherBroker.client.get(SUB_ASSETS, query), '40020')).toContain(sub.uid);
    refused(await broker.client.get(SUB_ASSETS, { ...query, subUid: standard.uid }), '40020');
    refused(await broker.client.get(SUB_ASSETS, { ...query, subUid: '12345' }), '40020');
    expect(refused(await broker.client.get(SUB_ASSETS, { productType: 'USDT-FUTURES' }), '40019')).toBe(
      'Parameter subUid cannot be empty',
    );
    refused(await broker.client.get(SUB_ASSETS, { subUid: sub.uid }), '40019');
  });
});

describe('E10 ins-loan transfered', () => {
  it("answers for the caller's own uid and for a broker's sub-account, and refuses strangers", async () => {
    const standard = await open();
    const broker = await open({ kind: 'broker' });
    const sub = await open({ kind: 'sub', brokerUid: broker.uid });

    expect(ok(await standard.client.get(INS_LOAN, { coin: 'usdt' }))).toEqual({
      coin: 'USDT',
      transfered: '0',
      userId: standard.uid,
    });
    expect(ok(await standard.client.get(INS_LOAN, { coin: 'USDT', userId: standard.uid }))).toMatchObject({
      userId: standard.uid,
    });
    expect(ok(await broker.client.get(INS_LOAN, { coin: 'BTC', userId: sub.uid }))).toEqual({
      coin: 'BTC',
      transfered: '0',
      userId: sub.uid,
    });
    expect(ok(await sub.client.get(INS_LOAN, { coin: 'USDT' }))).toMatchObject({ userId: sub.uid });

    expect(
      refused(await standard.client.get(INS_LOAN, { coin: 'USDT', userId: sub.uid }), '40020'),
    ).toContain('userId');
    refused(await sub.client.get(INS_LOAN, { coin: 'USDT', userId: broker.uid }), '40020');
    refused(await broker.client.get(INS_LOAN, { coin: 'USDT', userId: '12345' }), '40020');
    expect(refused(await standard.client.get(INS_LOAN, {}), '40019')).toBe('Parameter coin cannot be empty');
  });
});

describe('E12 set-leverage', () => {
  it('sets the crossed leverage that new orders and positions take, and re-margins a position', async () => {
    await test.setPrice('BTCUSDT', '95000');
    const trader = await open();
    const maker = await open();
    expect(ok(await setLeverage(trader, { leverage: '50' }))).toMatchObject({
      symbol: 'BTCUSDT',
      marginCoin: 'USDT',
      crossMarginLeverage: '50',
      marginMode: 'crossed',
    });

    await place(trader, [{ side: 'buy', price: '90000', size: '0.1' }]);
    const pending = ok(await trader.client.get(PENDING, { productType: 'USDT-FUTURES' })) as {
      entrustedList: Array<{ leverage: string }>;
    };
    expect(pending.entrustedList.map((order) => order.leverage)).toEqual(['50']);
    // 9000 / 50 margin + 9000 x 0.0006 taker fee reserved
    expect(await maxTransfer(trader)).toBe('99814.6');
    await cancelAll(trader);

    await trade(maker, trader, { side: 'sell', price: '95000', size: '0.1' });
    expect(await onlyPosition(trader)).toMatchObject({ leverage: '50', marginSize: '190' });
    ok(await setLeverage(trader, { leverage: '100' }));
    expect(await onlyPosition(trader)).toMatchObject({ leverage: '100', marginSize: '95' });
  });

  it('sets both directions at once in one-way isolated mode', async () => {
    const trader = await open();
    const maker = await open();
    ok(await setMarginMode(trader, 'isolated'));
    expect(ok(await setLeverage(trader, { leverage: '10' }))).toMatchObject({
      longLeverage: '10',
      shortLeverage: '10',
      marginMode: 'isolated',
    });
    expect(ok(await setLeverage(trader, { leverage: '8', holdSide: 'short' }))).toMatchObject({
      longLeverage: '8',
      shortLeverage: '8',
    });
    await trade(maker, trader, { side: 'buy', price: '95000', size: '0.1' }, { takerMarginMode: 'isolated' });
    expect(await onlyPosition(trader)).toMatchObject({
      holdSide: 'short',
      leverage: '8',
      marginMode: 'isolated',
      // 9500 / 8
      marginSize: '1187.5',
    });
  });

  it('needs holdSide, or both directions, in hedge isolated mode', async () => {
    const trader = await open({ posMode: 'hedge_mode' });
    const maker = await open();
    ok(await setMarginMode(trader, 'isolated'));
    expect(refused(await setLeverage(trader, { leverage: '30' }), '40019')).toBe(
      'Parameter holdSide cannot be empty',
    );
    expect(ok(await setLeverage(trader, { leverage: '30', holdSide: 'long' }))).toMatchObject({
      longLeverage: '30',
      shortLeverage: '20',
      marginMode: 'isolated',
    });
    expect(ok(await setLeverage(trader, { longLeverage: '15', shortLeverage: '25' }))).toMatchObject({
      longLeverage: '15',
      shortLeverage: '25',
    });
    expect(ok(await setLeverage(trader, { leverage: '40', shortLeverage: '5' }))).toMatchObject({
      longLeverage: '40',
      shortLeverage: '5',
    });
    ok(await setLeverage(trader, { longLeverage: '15', shortLeverage: '25' }));

    await trade(
      maker,
      trader,
      { side: 'sell', price: '95000', size: '0.1' },
      {
        taker: { tradeSide: 'open' },
        takerMarginMode: 'isolated',
      },
    );
    await trade(
      maker,
      trader,
      { side: 'buy', price: '95000', size: '0.1' },
      {
        taker: { tradeSide: 'open' },
        takerMarginMode: 'isolated',
      },
    );
    const held = await positions(trader);
    const bySide = Object.fromEntries(held.map((position) => [position.holdSide, position]));
    expect(bySide.long).toMatchObject({
      leverage: '15',
      marginMode: 'isolated',
      posMode: 'hedge_mode',
      marginSize: '633.33333334',
    });
    expect(bySide.short).toMatchObject({
      leverage: '25',
      marginMode: 'isolated',
      posMode: 'hedge_mode',
      marginSize: '380',
    });
  });

  it('refuses a leverage outside 1..maxLever with 43050', async () => {
    const trader = await open();
    const outOfRange = refused(await setLeverage(trader, { leverage: '126' }), '43050');
    expect(outOfRange).toContain('1 to 125');
    refused(await setLeverage(trader, { leverage: '0' }), '43050');
    refused(await setLeverage(trader, { leverage: '101' }, ETHUSDT), '43050');
    // The edges themselves are allowed (another account, so the 5/s limit never waits).
    const edges = await open();
    ok(await setLeverage(edges, { leverage: '100' }, ETHUSDT));
    expect(ok(await setLeverage(edges, { leverage: '125' }))).toMatchObject({ crossMarginLeverage: '125' });
    expect(ok(await setLeverage(edges, { leverage: '1' }))).toMatchObject({ crossMarginLeverage: '1' });

    const hedged = await open({ posMode: 'hedge_mode' });
    ok(await setMarginMode(hedged, 'isolated'));
    refused(await setLeverage(hedged, { longLeverage: '10', shortLeverage: '200' }), '43050');
  });

  it('refuses malformed requests', async () => {
    const trader = await open();
    expect(refused(await setLeverage(trader, {}), '40019')).toBe('Parameter leverage cannot be empty');
    refused(await setLeverage(trader, { leverage: '2.5' }), '40020');
    refused(await setLeverage(trader, { leverage: '10', marginCoin: 'USDC' }), '40020');
    refused(await setLeverage(trader, { leverage: '10', symbol: 'NOPEUSDT' }), '40034');
    refused(await setLeverage(trader, { leverage: '10', holdSide: 'up' }), '40020');
  });

  it('refuses with 40893 a leverage whose margin the account cannot cover', async () => {
    await test.setPrice('BTCUSDT', '95000');
    const trader = await open({ balances: { USDT: '1000' } });
    const maker = await open();
    await trade(maker, trader, { side: 'sell', price: '95000', size: '0.1' });
    // Balance 994.3, margin 475 at 20x: leverage 2 would need 4750.
    expect(refused(await setLeverage(trader, { leverage: '2' }), '40893')).toBe(
      'Unable to update the leverage, not enough margin',
    );
    expect(await onlyPosition(trader)).toMatchObject({ leverage: '20', marginSize: '475' });
    expect(await maxTransfer(trader)).toBe('519.3');
    // Leverage 10 needs 950: the extra 475 fits in the 519.3 available.
    ok(await setLeverage(trader, { leverage: '10' }));
    expect(await onlyPosition(trader)).toMatchObject({ leverage: '10', marginSize: '950' });
    expect(await maxTransfer(trader)).toBe('44.3');
  });

  it('is refused while the symbol has open orders, and allowed once they are cancelled', async () => {
    const trader = await open();
    await place(trader, [{ side: 'buy', price: '90000', size: '0.01' }]);
    expect(refused(await setLeverage(trader, { leverage: '10' }), '40730')).toContain(
      'cancel the open orders',
    );
    expect(ok(await setLeverage(trader, { leverage: '10' }, ETHUSDT))).toMatchObject({
      crossMarginLeverage: '10',
    });
    await cancelAll(trader);
    expect(ok(await setLeverage(trader, { leverage: '10' }))).toMatchObject({ crossMarginLeverage: '10' });
  });
});

describe('C3 set-position-mode', () => {
  it('switches with nothing open, and orders follow the mode', async () => {
    const trader = await open();
    expect(ok(await setPositionMode(trader, 'hedge_mode'))).toEqual({ posMode: 'hedge_mode' });
    expect((await adminAccount(trader.uid)).posMode).toBe('hedge_mode');

    const withoutTradeSide = await placeRaw(trader, [{ side: 'buy', price: '90000', size: '0.01' }]);
    expect(withoutTradeSide.failureList.map((item) => item.errorCode)).toEqual(['40774']);
    await place(trader, [{ side: 'buy', price: '90000', size: '0.01', tradeSide: 'open' }]);
    const pending = ok(await trader.client.get(PENDING, { productType: 'USDT-FUTURES' })) as {
      entrustedList: Array<{ posSide: string; tradeSide: string; posMode: string }>;
    };
    expect(pending.entrustedList).toMatchObject([
      { posSide: 'long', tradeSide: 'open', posMode: 'hedge_mode' },
    ]);

    expect(refused(await setPositionMode(trader, 'one_way_mode'), '40920')).toContain('open orders');
    await cancelAll(trader);
    expect(ok(await setPositionMode(trader, 'ONE_WAY_MODE'))).toEqual({ posMode: 'one_way_mode' });
    await place(trader, [{ side: 'buy', price: '90000', size: '0.01' }]);
    const oneWay = ok(await trader.client.get(PENDING, { productType: 'USDT-FUTURES' })) as {
      entrustedList: Array<{ posSide: string; tradeSide: string; posMode: string }>;
    };
    expect(oneWay.entrustedList).toMatchObject([
      { posSide: 'net', tradeSide: 'buy_single', posMode: 'one_way_mode' },
    ]);
    await cancelAll(trader);
  });

  it('is refused while a position is open, in that product type only', async () => {
    const trader = await open();
    const maker = await open();
    await trade(maker, trader, { side: 'sell', price: '95000', size: '0.01' });
    expect(refused(await setPositionMode(trader, 'hedge_mode'), '40920')).toContain('positions');
    expect(ok(await setPositionMode(trader, 'hedge_mode', 'USDC-FUTURES'))).toEqual({
      posMode: 'hedge_mode',
    });
    await trade(maker, trader, { side: 'buy', price: '95000', size: '0.01' });
    expect(await positions(trader)).toEqual([]);
    ok(await setPositionMode(trader, 'hedge_mode'));
  });

  it('refuses malformed requests', async () => {
    const trader = await open();
    refused(await setPositionMode(trader, 'two_way_mode'), '40020');
    expect(
      refused(await trader.client.post(SET_POSITION_MODE, { productType: 'USDT-FUTURES' }), '40019'),
    ).toBe('Parameter posMode cannot be empty');
    refused(await trader.client.post(SET_POSITION_MODE, { posMode: 'hedge_mode' }), '40019');
  });
});

describe('C4 set-margin-mode', () => {
  it('switches a symbol with nothing open, and the next position takes the mode', async () => {
    const trader = await open();
    const maker = await open();
    expect(ok(await setMarginMode(trader, 'isolated'))).toEqual({
      symbol: 'BTCUSDT',
      marginCoin: 'USDT',
      longLeverage: '20',
      shortLeverage: '20',
      marginMode: 'isolated',
    });
    // A v3 order carries no margin mode: it takes the symbol's.
    await place(maker, [{ side: 'sell', price: '95000', size: '0.01' }]);
    const placed = ok(
      await trader.client.post(PLACE_V3, [
        {
          category: 'USDT-FUTURES',
          symbol: 'BTCUSDT',
          qty: '0.01',
          price: '95000',
          side: 'buy',
          orderType: 'limit',
        },
      ]),
    ) as Array<{ code: string }>;
    expect(placed.map((item) => item.code)).toEqual(['00000']);
    expect(await onlyPosition(trader)).toMatchObject({
      marginMode: 'isolated',
      total: '0.01',
      marginSize: '47.5',
    });
    expect(refused(await setMarginMode(trader, 'crossed'), '45117')).toContain('BTCUSDT');
  });

  it('is refused while an order is open on the symbol, and allowed on another symbol', async () => {
    const trader = await open();
    await place(trader, [{ side: 'buy', price: '90000', size: '0.01' }]);
    expect(refused(await setMarginMode(trader, 'isolated'), '45117')).toContain('open orders');
    expect(ok(await setMarginMode(trader, 'isolated', ETHUSDT))).toMatchObject({
      symbol: 'ETHUSDT',
      marginMode: 'isolated',
    });
    await cancelAll(trader);
    expect(ok(await setMarginMode(trader, 'isolated'))).toMatchObject({ marginMode: 'isolated' });
    expect(ok(await setMarginMode(trader, 'crossed'))).toMatchObject({ marginMode: 'crossed' });
  });

  it('refuses malformed requests', async () => {
    const trader = await open();
    refused(await setMarginMode(trader, 'cross'), '40020');
    refused(
      await trader.client.post(SET_MARGIN_MODE, { ...BTCUSDT, marginCoin: 'USDC', marginMode: 'isolated' }),
      '40020',
    );
    refused(await setMarginMode(trader, 'isolated', { ...BTCUSDT, symbol: 'NOPEUSDT' }), '40034');
    expect(refused(await trader.client.post(SET_MARGIN_MODE, BTCUSDT), '40019')).toBe(
      'Parameter marginMode cannot be empty',
    );
  });
});

describe('E14 max-transferable', () => {
  it('equals the available balance of each coin', async () => {
    const trader = await open();
    // With borrowing, b more USDT may leave while the loan stays within 2x the net equity:
    // equity 100000 USDT + 100000 USDC + 2 BTC x 95000 = 390000; b <= 2 x (390000 - 100000 - b),
    // b = 580000 / 3 = 193333.33333333.
    expect(ok(await trader.client.get(MAX_TRANSFERABLE, { coin: 'usdt' }))).toEqual({
      coin: 'USDT',
      maxTransfer: '100000',
      borrowMaxTransfer: '293333.33333333',
    });
    expect(await maxTransfer(trader, 'USDC')).toBe('100000');
    // E14 allows 3 requests a second per account: the rest go to a second account.
    const another = await open();
    expect(await maxTransfer(another, 'BTC')).toBe('2');
    expect(await maxTransfer(another, 'DOGE')).toBe('0');
  });

  it('shrinks by the margin an open order reserves and by a position and its losses', async () => {
    await test.setPrice('BTCUSDT', '95000');
    const trader = await open();
    const maker = await open();
    await place(trader, [{ side: 'buy', price: '90000', size: '0.1' }]);
    // 9000 / 20 margin + 9000 x 0.0006 taker fee
    expect(await maxTransfer(trader)).toBe('99544.6');
    await cancelAll(trader);
    expect(await maxTransfer(trader)).toBe('100000');

    await trade(maker, trader, { side: 'sell', price: '95000', size: '0.1' });
    // 100000 - 5.7 fee - 475 margin
    expect(await maxTransfer(trader)).toBe('99519.3');
    await test.setPrice('BTCUSDT', '94000');
    expect(await maxTransfer(trader)).toBe('99419.3');
    expect(await maxTransfer(trader, 'USDC')).toBe('100000');
  });

  it('needs uta_mgt_read and a coin', async () => {
    const trader = await open();
    const tradeOnly = await keyWith(trader.uid, ['read', 'trade']);
    expect(refused(await tradeOnly.get(MAX_TRANSFERABLE, { coin: 'USDT' }), '40014')).toBe(
      'Incorrect permissions, need uta_mgt_read permissions',
    );
    expect(refused(await trader.client.get(MAX_TRANSFERABLE, {}), '400172')).toBe(
      'Parameter verification failed coin cannot be empty',
    );
  });
});

describe('E16 deposit-account', () => {
  it('sets the deposit account of a coin', async () => {
    const trader = await open();
    expect(ok(await trader.client.post(DEPOSIT_ACCOUNT, { coin: 'usdt', accountType: 'Unified' }))).toBe(
      'success',
    );
    const account = test.exchange.service.engine.state.accounts.get(trader.uid);
    expect(account?.depositAccounts.get('USDT')).toBe('unified');
  });

  it('refuses bad parameters with the v3 code, and a key without uta_mgt_write', async () => {
    const first = await open();
    refused(await first.client.post(DEPOSIT_ACCOUNT, { coin: 'USDT', accountType: 'spot' }), '400172');
    const second = await open();
    expect(refused(await second.client.post(DEPOSIT_ACCOUNT, { accountType: 'funding' }), '400172')).toBe(
      'Parameter verification failed coin cannot be empty',
    );
    const readOnly = await keyWith((await open()).uid, ['uta_mgt_read']);
    expect(
      refused(await readOnly.post(DEPOSIT_ACCOUNT, { coin: 'USDT', accountType: 'funding' }), '40014'),
    ).toBe('Incorrect permissions, need uta_mgt_write permissions');
  });

  it('keeps the setting across a restart of the exchange', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'paper-deposit-'));
    try {
      const first = await startTestExchange({ dataDir });
      const { account, client } = await first.newAccount();
      ok(await client.post(DEPOSIT_ACCOUNT, { coin: 'BTC', accountType: 'otc' }));
      await first.stop();

      const second = await startTestExchange({ dataDir });
      try {
        expect(
          second.exchange.service.engine.state.accounts.get(account.uid)?.depositAccounts.get('BTC'),
        ).toBe('otc');
        // The key survived too: the same client signs a request the restarted exchange accepts.
        const restartedClient = createSignedClient({ baseUrl: second.exchange.baseUrl, ...account });
        expect(ok(await restartedClient.post(DEPOSIT_ACCOUNT, { coin: 'BTC', accountType: 'funding' }))).toBe(
          'success',
        );
        expect(
          second.exchange.service.engine.state.accounts.get(account.uid)?.depositAccounts.get('BTC'),
        ).toBe('funding');
      } finally {
        await second.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
