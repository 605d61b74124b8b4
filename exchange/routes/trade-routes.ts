import { z } from 'zod';
import { ERROR_CODES } from '../../shared/api/error-codes';
import { MARGIN_MODES } from '../../shared/api/enums';
import {
  BATCH_PLACE_ORDER_MAX,
  PLACE_BATCH_V3_MAX,
  batchCancelOrders,
  batchOrderItemSchema,
  batchPlaceOrder,
  cancelOrderV3,
  orderInfo,
  ordersPending,
  placeBatchV3,
  placePosTpsl,
  placeStrategyOrder,
} from '../../shared/api/endpoints';
import { ciEnum, coinField, productTypeField, symbolField } from '../../shared/api/primitives';
import type { TpslLeg } from '../engine/commands';
import type { PlaceOrderInput } from '../engine/trading';
import { registerEndpoint } from '../http/register-endpoint';
import { accountOf, type RouteContext } from './context';
import { engineCall } from './engine-errors';
import { checkItem, missingPrice, type ItemCheck } from './order-item-checks';
import { isSpotBatch, placeSpotBatch } from './spot-trade-routes';
import { answerV3Batch, checkV3Batch, validInputs } from './v3-batch';

/**
 * The batch bodies are checked as a whole (list present, size limits), then order by order, so
 * that one bad order is reported in its own slot and never stops the others (spec E1, E2).
 */
const batchPlaceOrderEnvelope = z.object({
  symbol: symbolField,
  productType: productTypeField,
  marginCoin: coinField,
  marginMode: ciEnum(MARGIN_MODES),
  orderList: z
    .array(z.unknown())
    .min(1)
    .max(BATCH_PLACE_ORDER_MAX, `must hold at most ${BATCH_PLACE_ORDER_MAX} orders`),
});
const placeBatchV3Envelope = z
  .array(z.unknown())
  .min(1, 'must hold at least 1 order')
  .max(PLACE_BATCH_V3_MAX, `must hold at most ${PLACE_BATCH_V3_MAX} orders`);

export function registerTradeRoutes({ app, service, deps }: RouteContext): void {
  registerEndpoint(
    app,
    { ...batchPlaceOrder, request: batchPlaceOrderEnvelope },
    async ({ params, key }) => {
      const account = accountOf(service, key);
      const slots: Array<ItemCheck<PlaceOrderInput>> = params.orderList.map((raw, index) => {
        const checked = checkItem(batchOrderItemSchema, raw, 'v2', `orderList[${index}].`);
        if (!checked.ok) return checked;
        const item = checked.value;
        if (item.orderType === 'limit' && item.price === undefined) {
          return {
            ok: false,
            clientOid: item.clientOid ?? null,
            error: missingPrice('v2', `orderList[${index}].price`),
          };
        }
        return {
          ok: true,
          value: {
            symbol: params.symbol,
            productType: params.productType,
            marginCoin: params.marginCoin,
            marginMode: params.marginMode,
            side: item.side,
            tradeSide: item.tradeSide ?? null,
            posSide: null,
            orderType: item.orderType,
            force: item.force ?? 'gtc',
            price: item.orderType === 'limit' ? (item.price ?? null) : null,
            size: item.size,
            clientOid: item.clientOid ?? null,
            reduceOnly: item.reduceOnly === 'YES',
            presetStopSurplusPrice: item.presetStopSurplusPrice ?? null,
            presetStopLossPrice: item.presetStopLossPrice ?? null,
            stpMode: item.stpMode,
          },
        };
      });
      const valid = slots.flatMap((slot) => (slot.ok ? [slot.value] : []));
      const results =
        valid.length === 0
          ? []
          : await engineCall('v2', () =>
              service.execute({ type: 'placeOrders', uid: account.uid, version: 'v2', orders: valid }),
            );
      const successList: Array<{ orderId: string; clientOid: string }> = [];
      const failureList: Array<{ orderId: string; clientOid: string; errorMsg: string; errorCode: string }> =
        [];
      let next = 0;
      for (const slot of slots) {
        if (!slot.ok) {
          failureList.push({
            orderId: '',
            clientOid: slot.clientOid ?? '',
            errorMsg: slot.error.msg,
            errorCode: slot.error.code,
          });
          continue;
        }
        const result = results[next++];
        if (result === undefined) continue;
        if (result.ok) successList.push({ orderId: result.orderId, clientOid: result.clientOid });
        else
          failureList.push({
            orderId: '',
            clientOid: result.clientOid ?? '',
            errorMsg: result.msg,
            errorCode: result.code,
          });
      }
      return { successList, failureList };
    },
    deps,
  );

  registerEndpoint(
    app,
    { ...placeBatchV3, request: placeBatchV3Envelope },
    async ({ params, key }) => {
      const account = accountOf(service, key);
      if (isSpotBatch(params)) return placeSpotBatch(service, account, params);
      const slots = checkV3Batch<PlaceOrderInput>(params, (item, clientOid) => {
        if (item.category === 'SPOT' || item.category === 'MARGIN') {
          return {
            ok: false,
            clientOid,
            error: {
              code: ERROR_CODES.symbolNotExistV3.code,
              msg: `Trading pair ${item.symbol} does not exist in ${item.category}`,
            },
          };
        }
        return {
          ok: true,
          value: {
            symbol: item.symbol,
            productType: item.category,
            marginCoin: null,
            marginMode: null,
            side: item.side,
            tradeSide: null,
            posSide: item.posSide ?? null,
            orderType: item.orderType,
            force: item.timeInForce ?? 'gtc',
            price: item.orderType === 'limit' ? (item.price ?? null) : null,
            size: item.qty,
            clientOid,
            reduceOnly: item.reduceOnly === 'YES',
            presetStopSurplusPrice: null,
            presetStopLossPrice: null,
            stpMode: item.stpMode,
          },
        };
      });
      const valid = validInputs(slots);
      const results =
        valid.length === 0
          ? []
          : await engineCall('v3', () =>
              service.execute({ type: 'placeOrders', uid: account.uid, version: 'v3', orders: valid }),
            );
      return answerV3Batch(slots, results);
    },
    deps,
  );

  registerEndpoint(
    app,
    batchCancelOrders,
    async ({ params, key }) => {
      const account = accountOf(service, key);
      const results = await engineCall('v2', () =>
        service.execute({
          type: 'cancelOrders',
          uid: account.uid,
          productType: params.productType,
          symbol: params.symbol ?? null,
          marginCoin: params.marginCoin ?? null,
          targets:
            params.orderIdList?.map((item) => ({
              orderId: item.orderId ?? null,
              clientOid: item.clientOid ?? null,
            })) ?? null,
        }),
      );
      return {
        successList: results.flatMap((result) =>
          result.ok ? [{ orderId: result.orderId, clientOid: result.clientOid }] : [],
        ),
        failureList: results.flatMap((result) =>
          result.ok
            ? []
            : [
                {
                  orderId: result.orderId,
                  clientOid: result.clientOid,
                  errorMsg: result.msg,
                  errorCode: result.code,
                },
              ],
        ),
      };
    },
    deps,
  );

  registerEndpoint(
    app,
    placePosTpsl,
    async ({ params, key }) => {
      const account = accountOf(service, key);
      const holdSide =
        params.holdSide === 'buy' ? 'long' : params.holdSide === 'sell' ? 'short' : params.holdSide;
      const legs: TpslLeg[] = [];
      if (params.stopSurplusTriggerPrice !== undefined) {
        legs.push({
          kind: 'profit',
          triggerPrice: params.stopSurplusTriggerPrice,
          triggerType: params.stopSurplusTriggerType,
          executePrice: params.stopSurplusExecutePrice ?? '',
          size: params.stopSurplusSize ?? '',
          clientOid: params.stopSurplusClientOid ?? null,
        });
      }
      if (params.stopLossTriggerPrice !== undefined) {
        legs.push({
          kind: 'loss',
          triggerPrice: params.stopLossTriggerPrice,
          triggerType: params.stopLossTriggerType,
          executePrice: params.stopLossExecutePrice ?? '',
          size: params.stopLossSize ?? '',
          clientOid: params.stopLossClientOid ?? null,
        });
      }
      const plans = await engineCall('v2', () =>
        service.execute({
          type: 'placeTpsl',
          uid: account.uid,
          version: 'v2',
          productType: params.productType,
          symbol: params.symbol,
          marginCoin: params.marginCoin,
          holdSide,
          stpMode: params.stpMode,
          legs,
        }),
      );
      return plans.map((plan) => ({
        orderId: String(plan.id),
        stopSurplusClientOid: plan.kind.includes('profit') ? plan.clientOid : '',
        stopLossClientOid: plan.kind.includes('loss') ? plan.clientOid : '',
      }));
    },
    deps,
  );

  registerEndpoint(
    app,
    placeStrategyOrder,
    async ({ params, key }) => {
      const account = accountOf(service, key);
      const size = params.tpslMode === 'partial' ? (params.qty ?? '') : '';
      const legs: TpslLeg[] = [];
      if (params.takeProfit !== undefined) {
        legs.push({
          kind: 'profit',
          triggerPrice: params.takeProfit,
          triggerType: params.tpTriggerBy === 'mark' ? 'mark_price' : 'fill_price',
          executePrice: params.tpLimitPrice ?? '',
          size,
          clientOid: params.clientOid ?? null,
        });
      }
      if (params.stopLoss !== undefined) {
        legs.push({
          kind: 'loss',
          triggerPrice: params.stopLoss,
          triggerType: params.slTriggerBy === 'mark' ? 'mark_price' : 'fill_price',
          executePrice: params.slLimitPrice ?? '',
          size,
          // One clientOid names the strategy order; it goes to its first leg.
          clientOid: legs.length === 0 ? (params.clientOid ?? null) : null,
        });
      }
      const plans = await engineCall('v3', () =>
        service.execute({
          type: 'placeTpsl',
          uid: account.uid,
          version: 'v3',
          productType: params.category,
          symbol: params.symbol,
          marginCoin: null,
          holdSide: params.posSide,
          stpMode: 'none',
          legs,
        }),
      );
      const first = plans[0];
      return { orderId: first === undefined ? '' : String(first.id), clientOid: first?.clientOid ?? '' };
    },
    deps,
  );

  registerEndpoint(
    app,
    ordersPending,
    ({ params, key }) => {
      const account = accountOf(service, key);
      return engineCall('v2', () => service.read(() => service.views.pendingOrders(account, params)));
    },
    deps,
  );

  registerEndpoint(
    app,
    cancelOrderV3,
    ({ params, key }) => {
      const account = accountOf(service, key);
      return engineCall('v3', () =>
        service.execute({
          type: 'cancelOrderV3',
          uid: account.uid,
          orderId: params.orderId ?? null,
          clientOid: params.clientOid ?? null,
          category: params.category ?? null,
          symbol: params.symbol ?? null,
        }),
      );
    },
    deps,
  );

  registerEndpoint(
    app,
    orderInfo,
    ({ params, key }) => {
      const account = accountOf(service, key);
      return engineCall('v3', () =>
        service.read(() => service.views.orderInfo(account, params.orderId, params.clientOid)),
      );
    },
    deps,
  );
}
