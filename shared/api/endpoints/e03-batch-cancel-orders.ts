import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import {
  coinField,
  idField,
  optionalField,
  productTypeField,
  symbolField,
  v2ClientOidField,
} from '../primitives';
import { reportMissing } from './parameter-rules';

export const BATCH_CANCEL_MAX = 50;

const request = z
  .object({
    productType: productTypeField,
    symbol: optionalField(symbolField),
    marginCoin: optionalField(coinField),
    // An empty list is refused rather than read as "cancel everything": a client that filtered
    // its ids down to none must not lose every open order.
    orderIdList: optionalField(
      z
        .array(z.object({ orderId: optionalField(idField), clientOid: optionalField(v2ClientOidField) }))
        .min(1, 'must hold at least 1 item; leave it out to cancel by symbol')
        .max(BATCH_CANCEL_MAX, `must hold at most ${BATCH_CANCEL_MAX} items`),
    ),
  })
  .superRefine((body, ctx) => {
    if (body.orderIdList === undefined) return;
    if (body.symbol === undefined) reportMissing(ctx, 'v2', ['symbol']);
    body.orderIdList.forEach((item, index) => {
      if (item.orderId === undefined && item.clientOid === undefined) {
        reportMissing(
          ctx,
          'v2',
          ['orderIdList', index, 'orderId'],
          `orderIdList[${index}].orderId or clientOid`,
        );
      }
    });
  });

const orderRef = z.object({ orderId: z.string(), clientOid: z.string() });

const response = z.object({
  successList: z.array(orderRef),
  failureList: z.array(orderRef.extend({ errorMsg: z.string(), errorCode: z.string() })),
});

export const batchCancelOrders = defineEndpoint({
  id: 'E3',
  name: 'Cancel batch of futures orders',
  method: 'POST',
  path: '/api/v2/mix/order/batch-cancel-orders',
  version: 'v2',
  auth: 'signed',
  permission: 'trade',
  rateLimit: { perSecond: 10, keyedBy: 'uid' },
  request,
  response,
});

export type BatchCancelOrdersRequest = z.output<typeof request>;
export type BatchCancelOrdersResult = z.output<typeof response>;
