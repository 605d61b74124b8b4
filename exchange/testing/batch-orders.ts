// Orders on BTCUSDT (USDT-FUTURES, crossed) through E1 batch-place-order with any field values, as
// the route tests send them, and a position opened by a market order against a resting one.
import { expect } from 'vitest';
import { batchPlaceOrder } from '../../shared/api/endpoints';
import type { ClientResponse, SignedClient } from './signed-client';

/** One entry of orderList; strings throughout, so a test can send values the API refuses. */
export interface OrderItem {
  side?: string;
  orderType?: string;
  size?: string;
  price?: string;
  force?: string;
  clientOid?: string;
  tradeSide?: string;
  reduceOnly?: string;
  stpMode?: string;
  presetStopSurplusPrice?: string;
  presetStopLossPrice?: string;
}

export function place(
  client: SignedClient,
  orderList: ReadonlyArray<OrderItem>,
  envelope: Record<string, string> = {},
): Promise<ClientResponse> {
  return client.post(batchPlaceOrder.path, {
    symbol: 'BTCUSDT',
    productType: 'USDT-FUTURES',
    marginCoin: 'USDT',
    marginMode: 'crossed',
    ...envelope,
    orderList,
  });
}

/** Places the orders and expects every one to be accepted; returns their ids in order. */
export async function placeAll(
  client: SignedClient,
  orderList: ReadonlyArray<OrderItem>,
  envelope: Record<string, string> = {},
): Promise<string[]> {
  const response = await place(client, orderList, envelope);
  const result = placedResult(response);
  expect(result.failureList).toEqual([]);
  expect(result.successList).toHaveLength(orderList.length);
  return result.successList.map((item) => item.orderId);
}

/** The parsed answer of a batch that succeeded as a whole (its orders may still have failed). */
export function placedResult(response: ClientResponse) {
  expect(response.status).toBe(200);
  expect(response.body?.code).toBe('00000');
  return batchPlaceOrder.response.parse(response.body?.data);
}

/** A long (buy) or short (sell) position of `size` BTC at 95000, opened against `maker`'s resting order. */
export async function openPosition(
  client: SignedClient,
  maker: SignedClient,
  side: 'buy' | 'sell',
  size: string,
  orderFields: OrderItem = {},
): Promise<void> {
  await placeAll(maker, [
    { side: side === 'buy' ? 'sell' : 'buy', orderType: 'limit', price: '95000', size },
  ]);
  await placeAll(client, [{ side, orderType: 'market', size, ...orderFields }]);
}
