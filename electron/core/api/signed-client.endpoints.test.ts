// Every endpoint of the API called through the client against a real paper exchange, each with
// the account state it needs, and each answer checked by the endpoint's response schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { EndpointDefinition } from '../../../shared/api/endpoint';
import {
  allPosition,
  batchCancelOrders,
  batchPlaceOrder,
  cancelOrderV3,
  contracts,
  depositAccount,
  ENDPOINTS,
  fillsHistory,
  financialRecords,
  historyPosition,
  insLoanTransfered,
  maxTransferable,
  mergeDepth,
  orderInfo,
  ordersPending,
  placeBatchV3,
  placePosTpsl,
  placeStrategyOrder,
  serverTime,
  setLeverage,
  setMarginMode,
  setPositionMode,
  subaccountFutureAssets,
  tickers,
} from '../../../shared/api/endpoints';
import type { CreateAccountRequest, CreateAccountResult } from '../../../shared/api/paper-admin';
import { startTestExchange, type TestExchange } from '../../../exchange/testing/test-exchange';
import { RateBudget } from './rate-budget';
import { ServerClock } from './server-clock';
import { createApiClient, type ApiClient, type CallOptions } from './signed-client';

let exchange: TestExchange;
const clock = new ServerClock();
const budget = new RateBudget({ clock });
const calledEndpoints = new Set<string>();

beforeAll(async () => {
  exchange = await startTestExchange();
});
afterAll(async () => {
  budget.dispose();
  await exchange.stop();
});

interface Trader {
  readonly account: CreateAccountResult;
  call<E extends EndpointDefinition>(
    endpoint: E,
    params: z.input<E['request']>,
    options?: CallOptions,
  ): Promise<z.output<E['response']>>;
}

function recording(client: ApiClient): Trader['call'] {
  return (endpoint, params, options) => {
    calledEndpoints.add(endpoint.id);
    return client.call(endpoint, params, options);
  };
}

async function newTrader(request: Partial<CreateAccountRequest> = {}): Promise<Trader> {
  const { account } = await exchange.newAccount(request);
  const client = createApiClient({
    baseUrl: exchange.exchange.baseUrl,
    credentials: () => account,
    clock,
    budget,
  });
  return { account, call: recording(client) };
}

const publicCall = () =>
  recording(createApiClient({ baseUrl: exchange.exchange.baseUrl, credentials: () => null, clock, budget }));

const BTC = { symbol: 'btcusdt', productType: 'usdt-futures', marginCoin: 'USDT' } as const;

describe('every endpoint through the signed client', () => {
  it('reads public market data: server time, contracts, tickers, depth (C1, C2, E11, E15)', async () => {
    const call = publicCall();
    const time = await call(serverTime, {});
    expect(Math.abs(Number(time.serverTime) - Date.now())).toBeLessThan(5_000);

    const configs = await call(contracts, { productType: 'USDT-FUTURES', symbol: 'BTCUSDT' });
    expect(configs).toMatchObject([{ symbol: 'BTCUSDT', pricePlace: '1', volumePlace: '4' }]);

    const all = await call(tickers, { productType: 'USDT-FUTURES' });
    expect(all.map((ticker) => ticker.symbol)).toContain('BTCUSDT');

    const depth = await call(mergeDepth, { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', limit: '5' });
    expect(depth.precision).toBe('scale0');
    expect(depth.isMaxPrecision === 'YES' || depth.isMaxPrecision === 'NO').toBe(true);
  });

  it('trades: places v2 and v3 orders, lists, looks up and cancels them, and reads the fills (E1, E2, E3, E13, E17, E18)', async () => {
    const maker = await newTrader();
    const taker = await newTrader();

    const placed = await maker.call(batchPlaceOrder, {
      ...BTC,
      marginMode: 'crossed',
      orderList: [
        { side: 'sell', orderType: 'limit', price: '95000', size: '0.01', clientOid: 'ask-1' },
        { side: 'buy', orderType: 'limit', price: '80000', size: '0.01', clientOid: 'far-bid' },
      ],
    });
    expect(placed.failureList).toEqual([]);
    expect(placed.successList.map((item) => item.clientOid)).toEqual(['ask-1', 'far-bid']);
    const farBidId = placed.successList[1]?.orderId ?? '';

    const pending = await maker.call(ordersPending, { productType: 'USDT-FUTURES', symbol: 'BTCUSDT' });
    expect(pending.entrustedList.map((order) => order.clientOid).sort()).toEqual(['ask-1', 'far-bid']);

    const detail = await maker.call(orderInfo, { orderId: farBidId });
    expect(detail).toMatchObject({
      orderId: farBidId,
      clientOid: 'far-bid',
      orderStatus: 'live',
      price: '80000',
    });

    const bought = await taker.call(placeBatchV3, [
      {
        category: 'USDT-FUTURES',
        symbol: 'BTCUSDT',
        side: 'buy',
        orderType: 'limit',
        price: '95000',
        qty: '0.01',
        clientOid: 'v3-take',
      },
    ]);
    expect(bought).toMatchObject([{ clientOid: 'v3-take', code: '00000' }]);
    const takenDetail = await taker.call(orderInfo, { clientOid: 'v3-take' });
    expect(takenDetail).toMatchObject({ orderStatus: 'filled', cumExecQty: '0.01', avgPrice: '95000' });

    const cancelled = await maker.call(batchCancelOrders, {
      productType: 'USDT-FUTURES',
      symbol: 'BTCUSDT',
      orderIdList: [{ orderId: farBidId }],
    });
    expect(cancelled.successList).toEqual([{ orderId: farBidId, clientOid: 'far-bid' }]);
    expect(cancelled.failureList).toEqual([]);

    const fills = await publicCall()(fillsHistory, { symbol: 'BTCUSDT', productType: 'USDT-FUTURES' });
    expect(fills[0]).toMatchObject({ price: '95000', size: '0.01', side: 'buy', symbol: 'BTCUSDT' });
  });

  it('cancels a resting spot order of the unified account (E2 SPOT, C5)', async () => {
    const trader = await newTrader({ balances: { USDT: '1000' } });
    const [placed] = await trader.call(placeBatchV3, [
      {
        category: 'SPOT',
        symbol: 'BTCUSDT',
        side: 'buy',
        orderType: 'limit',
        price: '50000',
        qty: '0.001',
        clientOid: 'spot-far-bid',
      },
    ]);
    expect(placed).toMatchObject({ clientOid: 'spot-far-bid', code: '00000' });
    const cancelled = await trader.call(cancelOrderV3, { clientOid: 'spot-far-bid' });
    expect(cancelled).toEqual({ orderId: placed?.orderId, clientOid: 'spot-far-bid' });
    expect(await trader.call(orderInfo, { clientOid: 'spot-far-bid' })).toMatchObject({
      category: 'SPOT',
      orderStatus: 'cancelled',
    });
  });

  it('manages a position: lists it, sets TP/SL both ways, closes it and finds it in the history (E4, E7, E8, E9)', async () => {
    const maker = await newTrader();
    const trader = await newTrader();
    await maker.call(batchPlaceOrder, {
      ...BTC,
      marginMode: 'crossed',
      orderList: [
        { side: 'sell', orderType: 'limit', price: '95000', size: '0.02' },
        { side: 'buy', orderType: 'limit', price: '94000', size: '0.02' },
      ],
    });
    await trader.call(batchPlaceOrder, {
      ...BTC,
      marginMode: 'crossed',
      orderList: [{ side: 'buy', orderType: 'market', size: '0.02' }],
    });

    const positions = await trader.call(allPosition, { productType: 'USDT-FUTURES' });
    expect(positions).toMatchObject([
      { symbol: 'BTCUSDT', holdSide: 'long', total: '0.02', openPriceAvg: '95000' },
    ]);

    const plans = await trader.call(placePosTpsl, {
      ...BTC,
      holdSide: 'buy',
      stopSurplusTriggerPrice: '100000',
      stopSurplusClientOid: 'pos-tp',
    });
    expect(plans).toMatchObject([{ stopSurplusClientOid: 'pos-tp' }]);
    expect(plans[0]?.orderId).toMatch(/^\d+$/);

    const strategy = await trader.call(placeStrategyOrder, {
      category: 'USDT-FUTURES',
      symbol: 'BTCUSDT',
      posSide: 'long',
      stopLoss: '90000',
      clientOid: 'pos-sl',
    });
    expect(strategy).toMatchObject({ clientOid: 'pos-sl' });
    expect(await trader.call(allPosition, { productType: 'USDT-FUTURES' })).toMatchObject([
      { takeProfit: '100000', stopLoss: '90000' },
    ]);

    await trader.call(batchPlaceOrder, {
      ...BTC,
      marginMode: 'crossed',
      orderList: [{ side: 'sell', orderType: 'market', size: '0.02', reduceOnly: 'YES' }],
    });
    expect(await trader.call(allPosition, { productType: 'USDT-FUTURES' })).toEqual([]);
    const history = await trader.call(historyPosition, { symbol: 'BTCUSDT' });
    expect(history.list).toMatchObject([
      { symbol: 'BTCUSDT', holdSide: 'long', openAvgPrice: '95000', closeAvgPrice: '94000', pnl: '-20' },
    ]);
  });

  it('changes account settings: leverage, margin mode, position mode, deposit account (E12, C3, C4, E16)', async () => {
    const trader = await newTrader();
    const leverage = await trader.call(setLeverage, { ...BTC, leverage: '20' });
    expect(leverage).toMatchObject({ symbol: 'BTCUSDT', marginCoin: 'USDT', crossMarginLeverage: '20' });

    const margin = await trader.call(setMarginMode, { ...BTC, marginMode: 'isolated' });
    expect(margin).toMatchObject({ symbol: 'BTCUSDT', marginMode: 'isolated' });

    const mode = await trader.call(setPositionMode, { productType: 'USDT-FUTURES', posMode: 'hedge_mode' });
    expect(mode).toEqual({ posMode: 'hedge_mode' });

    const deposit = await trader.call(depositAccount, { coin: 'usdt', accountType: 'unified' });
    expect(typeof deposit).toBe('string');
  });

  it('reads balances and records: max transferable, financial records, institutional loan (E5, E10, E14)', async () => {
    const trader = await newTrader({ balances: { USDT: '2500' } });
    expect(await trader.call(maxTransferable, { coin: 'USDT' })).toMatchObject({
      coin: 'USDT',
      maxTransfer: '2500',
    });
    const records = await trader.call(financialRecords, { category: 'USDT-FUTURES' });
    expect(Array.isArray(records.list)).toBe(true);
    expect(await trader.call(insLoanTransfered, { coin: 'USDT' })).toEqual({
      coin: 'USDT',
      transfered: '0',
      userId: trader.account.uid,
    });
  });

  it("lets a broker read its sub-account's futures assets (E6)", async () => {
    const broker = await newTrader({ kind: 'broker' });
    const { account: sub } = await exchange.newAccount({
      kind: 'sub',
      brokerUid: broker.account.uid,
      balances: { USDT: '1234.5' },
    });
    const assets = await broker.call(subaccountFutureAssets, {
      subUid: sub.uid,
      productType: 'USDT-FUTURES',
    });
    expect(assets.assetsList).toMatchObject([{ marginCoin: 'USDT', available: '1234.5' }]);
  });

  it('has called every endpoint of ENDPOINTS', () => {
    expect([...calledEndpoints].sort()).toEqual(ENDPOINTS.map((endpoint) => endpoint.id).sort());
  });
});
