// Finds a request of the outbox on the exchange by its clientOid, read-only. An answer is
// `found`, `absent` (the exchange says definitively it has no such order) or `inconclusive`.
import Big from 'big.js';
import { allPosition } from '../../../shared/api/endpoints/e07-all-position';
import { ordersPending } from '../../../shared/api/endpoints/e17-orders-pending';
import { orderInfo } from '../../../shared/api/endpoints/e18-order-info';
import { ERROR_CODES } from '../../../shared/api/error-codes';
import type { OutboxEntry } from '../../../shared/ipc/outbox-entry';
import { ApiCallError } from '../api/api-call-error';
import type { ApiClient } from '../api/signed-client';

export type LookupResult =
  | { readonly kind: 'found'; readonly orderId: string }
  | { readonly kind: 'absent' }
  | { readonly kind: 'inconclusive'; readonly code: string; readonly message: string };

type Caller = Pick<ApiClient, 'call'>;

const ORDER_NOT_FOUND = new Set<string>([ERROR_CODES.orderNotExistV3.code, ERROR_CODES.orderNotExistV2.code]);

export async function lookUpEntry(client: Caller, entry: OutboxEntry): Promise<LookupResult> {
  try {
    if (entry.target.kind === 'tpsl') return await lookUpTpsl(client, entry);
    if (entry.version === 'v2') {
      const pending = await lookUpPending(client, entry);
      if (pending !== null) return pending;
    }
    return await lookUpOrderInfo(client, entry.clientOid);
  } catch (error) {
    if (error instanceof ApiCallError)
      return { kind: 'inconclusive', code: error.code, message: error.message };
    return {
      kind: 'inconclusive',
      code: 'LOOKUP_FAILED',
      message: error instanceof Error ? error.message : String(error),
    };
  }
}

/** v2 orders still open: orders-pending by clientOid, live first, then partially filled. */
async function lookUpPending(client: Caller, entry: OutboxEntry): Promise<LookupResult | null> {
  for (const status of ['live', 'partially_filled'] as const) {
    const page = await client.call(
      ordersPending,
      {
        productType: entry.target.productType,
        symbol: entry.target.symbol,
        clientOid: entry.clientOid,
        status,
      },
      { priority: 'user' },
    );
    const order = page.entrustedList.find((item) => item.clientOid === entry.clientOid);
    if (order !== undefined) return { kind: 'found', orderId: order.orderId };
  }
  return null;
}

/** Any order, open or finished: order-info by clientOid (it finds v2 orders too). */
async function lookUpOrderInfo(client: Caller, clientOid: string): Promise<LookupResult> {
  try {
    const detail = await client.call(orderInfo, { clientOid }, { priority: 'user' });
    return { kind: 'found', orderId: detail.orderId };
  } catch (error) {
    if (error instanceof ApiCallError && error.kind === 'exchange' && ORDER_NOT_FOUND.has(error.code)) {
      return { kind: 'absent' };
    }
    throw error;
  }
}

/**
 * Position TP/SL orders are not orders to order-info, so they are found on the position itself:
 * its takeProfit/stopLoss at our trigger price. Not seeing them proves nothing (the position may
 * have closed since), so this never answers `absent`.
 */
async function lookUpTpsl(client: Caller, entry: OutboxEntry): Promise<LookupResult> {
  const target = entry.target;
  if (target.kind !== 'tpsl') throw new Error('not a TP/SL entry');
  const inconclusive: LookupResult = {
    kind: 'inconclusive',
    code: 'TPSL_NOT_SEEN',
    message: `No ${target.symbol} position shows this TP/SL; check the position's TP/SL on the exchange before placing it again.`,
  };
  if (target.size !== null) return inconclusive;
  const holdSide =
    target.holdSide === 'buy' ? 'long' : target.holdSide === 'sell' ? 'short' : target.holdSide;
  const positions = await client.call(allPosition, { productType: target.productType }, { priority: 'user' });
  const position = positions.find((item) => item.symbol === target.symbol && item.holdSide === holdSide);
  if (position === undefined) return inconclusive;
  const takeProfitSet =
    target.takeProfit === null ||
    (sameDecimal(position.takeProfit, target.takeProfit) && position.takeProfitId !== '');
  const stopLossSet =
    target.stopLoss === null ||
    (sameDecimal(position.stopLoss, target.stopLoss) && position.stopLossId !== '');
  if (!takeProfitSet || !stopLossSet) return inconclusive;
  return { kind: 'found', orderId: target.takeProfit !== null ? position.takeProfitId : position.stopLossId };
}

function sameDecimal(shown: string, wanted: string): boolean {
  try {
    return shown !== '' && new Big(shown).eq(new Big(wanted));
  } catch {
    return false;
  }
}
