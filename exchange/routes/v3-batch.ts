// E2 place-batch, shared by its futures and its spot/margin orders: every order is checked and
// answered in its own slot, so one bad order never stops the others.
import { batchOrderV3Schema, type BatchOrderV3 } from '../../shared/api/endpoints';
import { ERROR_CODES } from '../../shared/api/error-codes';
import type { PlaceItemResult } from '../engine/engine';
import { codeFor } from './engine-errors';
import { checkItem, missingPrice, type ItemCheck } from './order-item-checks';

export interface V3BatchAnswer {
  orderId: string | null;
  clientOid: string;
  code: string;
  msg: string;
}

/**
 * The checks every E2 order passes (its schema, the batch's one category, a price for a limit
 * order), then `toInput` turns it into the engine's input or refuses it.
 */
export function checkV3Batch<T>(
  batch: readonly unknown[],
  toInput: (item: BatchOrderV3, clientOid: string | null) => ItemCheck<T>,
): Array<ItemCheck<T>> {
  let category: string | null = null;
  return batch.map((raw, index) => {
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
    return toInput(item, clientOid);
  });
}

/** The answer of each slot: its refusal, or the engine's result for the orders that reached it. */
export function answerV3Batch<T extends { clientOid: string | null }>(
  slots: ReadonlyArray<ItemCheck<T>>,
  results: readonly PlaceItemResult[],
): V3BatchAnswer[] {
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
    // E2 rule 4: an order that replaced earlier reduce-only orders is answered without an orderId.
    return {
      orderId: result.replaced ? null : result.orderId,
      clientOid: result.clientOid,
      code: '00000',
      msg: 'success',
    };
  });
}

/** The orders that passed their checks, in batch order. */
export function validInputs<T>(slots: ReadonlyArray<ItemCheck<T>>): T[] {
  return slots.flatMap((slot) => (slot.ok ? [slot.value] : []));
}
