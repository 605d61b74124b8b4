// The public market endpoints read without keys, and the resting limit orders of the test's own
// accounts that make up what they answer while the simulated market is paused.
import { expect } from 'vitest';
import type { OrderSpec } from './account-trading';
import { ok, paced } from './responses';
import type { ClientResponse, QueryInput, SignedClient } from './signed-client';
import type { TestExchange } from './test-exchange';

export const FILLS = '/api/v2/mix/market/fills-history';
export const DEPTH = '/api/v2/mix/market/merge-depth';
const PLACE = '/api/v2/mix/order/batch-place-order';
const CANCEL = '/api/v2/mix/order/batch-cancel-orders';

/** E15 merge-depth data as it arrives: levels are [price, size] numbers. */
export interface RawDepth {
  asks: Array<[number, number]>;
  bids: Array<[number, number]>;
  precision: string;
  scale: string;
  isMaxPrecision: string;
  ts: string;
}

/** An unsigned request to `test`, waiting out the rate limits. */
export function publicGet(test: TestExchange, path: string, query?: QueryInput): Promise<ClientResponse> {
  return paced(() => test.client.publicGet(path, query));
}

/** A new account on `test`. */
export async function trader(test: TestExchange): Promise<SignedClient> {
  return (await test.newAccount()).client;
}

/** Places limit orders on a USDT-FUTURES symbol, 50 a request, and expects every one accepted. */
export async function place(client: SignedClient, symbol: string, orders: OrderSpec[]): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < orders.length; start += 50) {
    const batch = orders.slice(start, start + 50);
    const data = ok(
      await paced(() =>
        client.post(PLACE, {
          symbol,
          productType: 'USDT-FUTURES',
          marginCoin: 'USDT',
          marginMode: 'crossed',
          orderList: batch.map((order) => ({ ...order, orderType: 'limit', force: 'gtc' })),
        }),
      ),
    ) as { successList: Array<{ orderId: string }>; failureList: unknown[] };
    expect(data.failureList).toEqual([]);
    ids.push(...data.successList.map((item) => item.orderId));
  }
  return ids;
}

export async function cancelAll(client: SignedClient, symbol: string): Promise<void> {
  ok(await paced(() => client.post(CANCEL, { productType: 'USDT-FUTURES', symbol })));
}
