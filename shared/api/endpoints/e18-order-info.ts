import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import {
  CATEGORIES,
  HOLD_SIDES,
  ORDER_TYPES,
  POS_MODES,
  SIDES,
  STP_MODES,
  TIME_IN_FORCE,
  V3_ORDER_STATUSES,
  YES_NO,
} from '../enums';
import { idField, optionalField, v3ClientOidField } from '../primitives';
import { reportMissing } from './parameter-rules';
import { enumOrEmpty } from './response-fields';

const request = z
  .object({
    /** Takes priority when both are given, even when they name different orders. */
    orderId: optionalField(idField),
    clientOid: optionalField(v3ClientOidField),
  })
  .superRefine((query, ctx) => {
    if (query.orderId === undefined && query.clientOid === undefined) {
      reportMissing(ctx, 'v3', ['orderId'], 'orderId or clientOid');
    }
  });

export const orderDetailSchema = z.object({
  orderId: z.string(),
  clientOid: z.string(),
  category: z.enum(CATEGORIES),
  symbol: z.string(),
  orderType: z.enum(ORDER_TYPES),
  side: z.enum(SIDES),
  price: z.string(),
  qty: z.string(),
  amount: z.string(),
  cumExecQty: z.string(),
  cumExecValue: z.string(),
  avgPrice: z.string(),
  timeInForce: enumOrEmpty(TIME_IN_FORCE),
  orderStatus: z.enum(V3_ORDER_STATUSES),
  posSide: enumOrEmpty(HOLD_SIDES),
  holdMode: enumOrEmpty(POS_MODES),
  /** open or close; further values are not published. */
  tradeSide: z.string(),
  stpMode: enumOrEmpty(STP_MODES),
  /** Futures only; empty for spot and margin. */
  reduceOnly: enumOrEmpty(YES_NO),
  feeDetail: z.array(z.object({ feeCoin: z.string(), fee: z.string() })),
  /** e.g. normal_cancel; empty unless cancelled. */
  cancelReason: z.string(),
  /** normal, offset, reduce, liquidation, delivery. */
  execType: z.string(),
  createdTime: z.string(),
  updatedTime: z.string(),
});

export const orderInfo = defineEndpoint({
  id: 'E18',
  name: 'Get order details',
  method: 'GET',
  path: '/api/v3/trade/order-info',
  version: 'v3',
  auth: 'signed',
  permission: 'uta_trade_read',
  rateLimit: { perSecond: 20, keyedBy: 'uid' },
  request,
  response: orderDetailSchema,
});

export type OrderInfoRequest = z.output<typeof request>;
export type OrderDetail = z.output<typeof orderDetailSchema>;
