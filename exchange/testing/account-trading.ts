// Accounts that trade with each other over HTTP at the prices they choose (the market is paused),
// so every margin, fee and PnL is exact: opening them, placing and matching limit orders, reading
// back positions and balances. Fees: maker 0.0002, taker 0.0006; default leverage 20, crossed, one-way.
import { expect } from 'vitest';
import type { CurrentPosition } from '../../shared/api/endpoints';
import type { Permission, ProductType } from '../../shared/api/enums';
import type { CreateAccountRequest, NewApiKey, PaperAccount } from '../../shared/api/paper-admin';
import { ok, pacedClient } from './responses';
import { createSignedClient, type SignedClient } from './signed-client';
import type { TestExchange } from './test-exchange';

export const PENDING = '/api/v2/mix/order/orders-pending';
export const ALL_POSITION = '/api/v2/mix/position/all-position';
export const MAX_TRANSFERABLE = '/api/v3/account/max-transferable';
const PLACE = '/api/v2/mix/order/batch-place-order';
const CANCEL = '/api/v2/mix/order/batch-cancel-orders';

export const DAY_MS = 86_400_000;

export interface Market {
  symbol: string;
  productType: ProductType;
  marginCoin: string;
}

export const BTCUSDT: Market = { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT' };
export const ETHUSDT: Market = { symbol: 'ETHUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT' };

export interface OrderSpec {
  side: 'buy' | 'sell';
  price: string;
  size: string;
  tradeSide?: 'open' | 'close';
  reduceOnly?: 'YES' | 'NO';
}

export interface BatchResult {
  successList: Array<{ orderId: string }>;
  failureList: Array<{ errorCode: string; errorMsg: string }>;
}

export interface Trader {
  uid: string;
  client: SignedClient;
}

/** A new account on `test` whose client waits out the rate limits. */
export async function openTrader(
  test: TestExchange,
  request: Partial<CreateAccountRequest> = {},
): Promise<Trader> {
  const { account, client } = await test.newAccount(request);
  return { uid: account.uid, client: pacedClient(client) };
}

/** A second key of `uid` with only `permissions`. */
export async function keyWith(
  test: TestExchange,
  uid: string,
  permissions: Permission[],
): Promise<SignedClient> {
  const created = await test.admin('POST', `/paper/v1/accounts/${uid}/keys`, { permissions });
  expect(created.status, created.text).toBe(200);
  const key = created.body?.data as NewApiKey;
  return pacedClient(createSignedClient({ baseUrl: test.exchange.baseUrl, ...key }));
}

/** The account `uid` as the admin interface lists it. */
export async function adminAccount(test: TestExchange, uid: string): Promise<PaperAccount> {
  const listed = await test.admin('GET', '/paper/v1/accounts');
  const account = (listed.body?.data as { accounts: PaperAccount[] }).accounts.find(
    (item) => item.uid === uid,
  );
  if (account === undefined) throw new Error(`no account ${uid}`);
  return account;
}

export async function placeRaw(
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
export async function place(
  trader: Trader,
  orders: OrderSpec[],
  market: Market = BTCUSDT,
  marginMode: 'crossed' | 'isolated' = 'crossed',
): Promise<string[]> {
  const data = await placeRaw(trader, orders, market, marginMode);
  expect(data.failureList).toEqual([]);
  return data.successList.map((item) => item.orderId);
}

export interface TradeOptions {
  market?: Market;
  /** Fields of the taker's order beyond side, price and size (tradeSide in hedge mode). */
  taker?: Partial<OrderSpec>;
  /** A v2 order names a margin mode and, with nothing open, switches the symbol to it. */
  takerMarginMode?: 'crossed' | 'isolated';
}

/** `maker` rests `order`, `taker` takes all of it at the same price with the opposite side. */
export async function trade(
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

export async function cancelAll(trader: Trader, market: Market = BTCUSDT): Promise<void> {
  ok(await trader.client.post(CANCEL, { productType: market.productType, symbol: market.symbol }));
}

/** E7 as it answers `query`, checked for success. */
export async function positions(
  trader: Trader,
  query: Record<string, string> = { productType: 'USDT-FUTURES' },
): Promise<CurrentPosition[]> {
  return ok(await trader.client.get(ALL_POSITION, query)) as CurrentPosition[];
}

/** The one position the trader holds in `productType`. */
export async function onlyPosition(
  trader: Trader,
  productType: ProductType = 'USDT-FUTURES',
): Promise<CurrentPosition> {
  const list = await positions(trader, { productType });
  expect(list).toHaveLength(1);
  return list[0] as CurrentPosition;
}

/** What E14 says can be moved out of `coin`, checked for success. */
export async function maxTransfer(trader: Trader, coin = 'USDT'): Promise<string> {
  const data = ok(await trader.client.get(MAX_TRANSFERABLE, { coin })) as { maxTransfer: string };
  return data.maxTransfer;
}
