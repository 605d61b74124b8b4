import { ERROR_CODES } from '../../shared/api/error-codes';
import type { Account } from '../engine/types';
import type { SpotOrderInput } from '../engine/spot/spot-trading';
import type { ExchangeService } from '../exchange-service';
import { engineCall } from './engine-errors';
import { answerV3Batch, checkV3Batch, validInputs, type V3BatchAnswer } from './v3-batch';

/** Whether an E2 batch trades spot or margin: its first order's category says it for all. */
export function isSpotBatch(batch: readonly unknown[]): boolean {
  const first = batch[0];
  if (typeof first !== 'object' || first === null) return false;
  const category = (first as { category?: unknown }).category;
  return typeof category === 'string' && ['SPOT', 'MARGIN'].includes(category.toUpperCase());
}

/** E2 with category SPOT or MARGIN: each order checked and answered in its own slot. */
export async function placeSpotBatch(
  service: ExchangeService,
  account: Account,
  batch: readonly unknown[],
): Promise<V3BatchAnswer[]> {
  const slots = checkV3Batch<SpotOrderInput>(batch, (item, clientOid) => {
    if (item.category !== 'SPOT' && item.category !== 'MARGIN') {
      // The batch was taken for spot by its first order, which failed its own checks.
      return {
        ok: false,
        clientOid,
        error: {
          code: ERROR_CODES.paramVerifyV3.code,
          msg: 'Parameter verification failed category: all orders of a batch must share one category (SPOT or MARGIN)',
        },
      };
    }
    return {
      ok: true,
      value: {
        symbol: item.symbol,
        category: item.category,
        side: item.side,
        orderType: item.orderType,
        force: item.timeInForce ?? 'gtc',
        price: item.orderType === 'limit' ? (item.price ?? null) : null,
        qty: item.qty,
        clientOid,
        stpMode: item.stpMode,
        isolated: item.marginMode === 'isolated',
      },
    };
  });
  const valid = validInputs(slots);
  const results =
    valid.length === 0
      ? []
      : await engineCall('v3', () =>
          service.execute({ type: 'placeSpotOrders', uid: account.uid, orders: valid }),
        );
  return answerV3Batch(slots, results);
}
