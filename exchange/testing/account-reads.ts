// Reads a test makes of one account, each checked for success and parsed with the endpoint's
// response schema, so tests compare typed values.
import { expect } from 'vitest';
import { allPosition, financialRecords, maxTransferable, orderInfo } from '../../shared/api/endpoints';
import type { SignedClient } from './signed-client';

export async function positionsOf(client: SignedClient, productType = 'USDT-FUTURES') {
  const response = await client.get(allPosition.path, { productType });
  expect(response.body?.code).toBe('00000');
  return allPosition.response.parse(response.body?.data) ?? [];
}

/** E18 order detail by orderId or clientOid. */
export async function orderDetail(client: SignedClient, query: { orderId: string } | { clientOid: string }) {
  const response = await client.get(orderInfo.path, query);
  expect(response.body?.code).toBe('00000');
  return orderInfo.response.parse(response.body?.data);
}

/** USDT-FUTURES balance changes from trading, oldest first, without ids and times. */
export async function tradeRecordsOf(client: SignedClient) {
  const response = await client.get(financialRecords.path, { category: 'USDT-FUTURES' });
  expect(response.body?.code).toBe('00000');
  const list = financialRecords.response.parse(response.body?.data).list ?? [];
  return list
    .filter((record) => record.type !== 'TRANSFER_IN')
    .reverse()
    .map(({ type, amount, fee, balance }) => ({ type, amount, fee, balance }));
}

/** What E14 says can be moved out in USDT: the available balance. */
export async function availableUsdtOf(client: SignedClient): Promise<string> {
  const response = await client.get(maxTransferable.path, { coin: 'USDT' });
  expect(response.body?.code).toBe('00000');
  return maxTransferable.response.parse(response.body?.data).maxTransfer;
}
