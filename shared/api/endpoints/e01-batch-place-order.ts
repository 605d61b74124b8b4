import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { MARGIN_MODES, ORDER_TYPES, SIDES, STP_MODES, TIME_IN_FORCE, TRADE_SIDES } from '../enums';
import {
  ciEnum,
  coinField,
  decimalField,
  fieldWithDefault,
  optionalField,
  productTypeField,
  symbolField,
  v2ClientOidField,
  yesNoField,
} from '../primitives';
import { reportMissing } from './parameter-rules';

export const BATCH_PLACE_ORDER_MAX = 50;

const batchOrderItem = z
  .object({
    size: decimalField,
    price: optionalField(decimalField),
    side: ciEnum(SIDES),
    tradeSide: optionalField(ciEnum(TRADE_SIDES)),
    orderType: ciEnum(ORDER_TYPES),
    force: optionalField(ciEnum(TIME_IN_FORCE)),
    clientOid: optionalField(v2ClientOidField),
    reduceOnly: fieldWithDefault(yesNoField, 'NO'),
    presetStopSurplusPrice: optionalField(decimalField),
    presetStopLossPrice: optionalField(decimalField),
    stpMode: fieldWithDefault(ciEnum(STP_MODES), 'none'),
  })
  .transform((order) =>
    order.orderType === 'limit' && order.force === undefined ? { ...order, force: 'gtc' as const } : order,
  );

const request = z
  .object({
    symbol: symbolField,
    productType: productTypeField,
    marginCoin: coinField,
    marginMode: ciEnum(MARGIN_MODES),
    orderList: z
      .array(batchOrderItem)
      .min(1, 'must hold at least 1 order')
      .max(BATCH_PLACE_ORDER_MAX, `must hold at most ${BATCH_PLACE_ORDER_MAX} orders`),
  })
  .superRefine((body, ctx) => {
    body.orderList.forEach((order, index) => {
      if (order.orderType === 'limit' && order.price === undefined) {
        reportMissing(ctx, 'v2', ['orderList', index, 'price']);
      }
    });
  });

const orderRef = z.object({ orderId: z.string(), clientOid: z.string() });

const response = z.object({
  successList: z.array(orderRef),
  failureList: z.array(orderRef.extend({ errorMsg: z.string(), errorCode: z.string() })),
});

export const batchPlaceOrder = defineEndpoint({
  id: 'E1',
  name: 'Place batch of futures orders',
  method: 'POST',
  path: '/api/v2/mix/order/batch-place-order',
  version: 'v2',
  auth: 'signed',
  permission: 'trade',
  rateLimit: { perSecond: 5, keyedBy: 'uid' },
  request,
  response,
});

export type BatchPlaceOrderRequest = z.output<typeof request>;
export type BatchOrder = BatchPlaceOrderRequest['orderList'][number];
export type BatchPlaceOrderResult = z.output<typeof response>;

/** One order of the list, for servers that answer each item on its own. */
export const batchOrderItemSchema = batchOrderItem;
