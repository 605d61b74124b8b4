import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { CATEGORIES, HOLD_SIDES, MARGIN_MODES, ORDER_TYPES, SIDES, STP_MODES, TIME_IN_FORCE } from '../enums';
import {
  ciEnum,
  decimalField,
  fieldWithDefault,
  optionalField,
  symbolField,
  v3ClientOidField,
  yesNoField,
} from '../primitives';
import { reportInvalid, reportMissing } from './parameter-rules';

export const PLACE_BATCH_V3_MAX = 20;

const batchOrderV3 = z
  .object({
    category: ciEnum(CATEGORIES),
    symbol: symbolField,
    qty: decimalField,
    price: optionalField(decimalField),
    side: ciEnum(SIDES),
    orderType: ciEnum(ORDER_TYPES),
    timeInForce: optionalField(ciEnum(TIME_IN_FORCE)),
    posSide: optionalField(ciEnum(HOLD_SIDES)),
    clientOid: optionalField(v3ClientOidField),
    // Not in the spec's table, but in its sample and its one-way close rules (`yes`/`no`).
    reduceOnly: fieldWithDefault(yesNoField, 'NO'),
    // The order detail reports stpMode, so an order may carry one; live v3 accepts it.
    stpMode: fieldWithDefault(ciEnum(STP_MODES), 'none'),
    // Not in the spec's table: a margin order may name its margin mode; isolated spot margin is
    // refused (E2 rule 2), crossed is what MARGIN orders trade on.
    marginMode: optionalField(ciEnum(MARGIN_MODES)),
  })
  .transform((order) =>
    order.orderType === 'limit' && order.timeInForce === undefined
      ? { ...order, timeInForce: 'gtc' as const }
      : order,
  );

/** The body is a JSON array of orders, not an object around one. */
const request = z
  .array(batchOrderV3)
  .min(1, 'must hold at least 1 order')
  .max(PLACE_BATCH_V3_MAX, `must hold at most ${PLACE_BATCH_V3_MAX} orders`)
  .superRefine((orders, ctx) => {
    const first = orders[0];
    orders.forEach((order, index) => {
      if (order.orderType === 'limit' && order.price === undefined) {
        reportMissing(ctx, 'v3', [index, 'price']);
      }
      if (first !== undefined && order.category !== first.category) {
        reportInvalid(
          ctx,
          'v3',
          [index, 'category'],
          `all orders of a batch must share one category (${first.category})`,
        );
      }
    });
  });

const response = z.array(
  z.object({
    // null when a one-way reduce-only order replaced an earlier one (spec E2 rule 4).
    orderId: z.string().nullable(),
    clientOid: z.string(),
    code: z.string(),
    msg: z.string(),
  }),
);

export const placeBatchV3 = defineEndpoint({
  id: 'E2',
  name: 'Place batch of orders (unified account)',
  method: 'POST',
  path: '/api/v3/trade/place-batch',
  version: 'v3',
  auth: 'signed',
  permission: 'uta_trade_write',
  rateLimit: { perSecond: 5, keyedBy: 'uid' },
  request,
  response,
});

export type PlaceBatchV3Request = z.output<typeof request>;
export type BatchOrderV3 = PlaceBatchV3Request[number];
export type PlaceBatchV3Result = z.output<typeof response>;

/** One order of the batch, for servers that answer each item on its own. */
export const batchOrderV3Schema = batchOrderV3;
