import { batchOrderV3Schema } from '../../shared/api/endpoints';
import { ERROR_CODES } from '../../shared/api/error-codes';
import type { Account } from '../engine/types';
import type { SpotOrderInput } from '../engine/spot/spot-trading';
import type { ExchangeService } from '../exchange-service';
import { codeFor, engineCall } from './engine-errors';
import { checkItem, missingPrice, type ItemCheck } from './trade-routes';

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
): Promise<Array<{ orderId: string | null; clientOid: string; code: string; msg: string }>> {
  let category: string | null = null;
  const slots: Array<ItemCheck<SpotOrderInput>> = batch.map((raw, index) => {
    const checked = checkItem(batchOrderV3Schema, raw, 'v3', `[${index}].`);
    if (!checked.ok) return checked;
    const item = checked.value;
    category ??= item.category;
    const clientOid = item.clientOid ?? null;
    if (item.category !== category) {
      return {
        ok: false,
        clientOid,
        error: {
          code: ERROR_CODES.paramVerifyV3.code,
          msg: `Parameter verification failed category: all orders of a batch must share one category (${category})`,
        },
      };
    }
    if (item.orderType === 'limit' && item.price === undefined) {
      return { ok: false, clientOid, error: missingPrice('v3', `[${index}].price`) };
    }
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
  const valid = slots.flatMap((slot) => (slot.ok ? [slot.value] : []));
  const results =
    valid.length === 0
      ? []
      : await engineCall('v3', () =>
          service.execute({ type: 'placeSpotOrders', uid: account.uid, orders: valid }),
        );
  let next = 0;
  return slots.map((slot) => {
    if (!slot.ok) {
      return { orderId: null, clientOid: slot.clientOid ?? '', code: slot.error.code, msg: slot.error.msg };
    }
    const result = results[next++];
    if (result === undefined || !result.ok) {
      return {
        orderId: null,
        clientOid: slot.value.clientOid ?? '',
        code: result === undefined ? '45001' : codeFor(result.code, 'v3'),
        msg: result === undefined ? 'Unknown error' : result.msg,
      };
    }
    return { orderId: result.orderId, clientOid: result.clientOid, code: '00000', msg: 'success' };
  });
}
