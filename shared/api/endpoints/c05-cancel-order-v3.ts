import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { CATEGORIES } from '../enums';
import { ciEnum, idField, optionalField, symbolField, v3ClientOidField } from '../primitives';
import { reportMissing } from './parameter-rules';

/**
 * The unified account's cancel of one open order (futures, spot or margin), by orderId (which
 * prevails) or clientOid; category and symbol, when given, must match the order. The spec has no
 * spot cancel: without this, a resting spot or margin order could never be taken back.
 */
const request = z
  .object({
    orderId: optionalField(idField),
    clientOid: optionalField(v3ClientOidField),
    category: optionalField(ciEnum(CATEGORIES)),
    symbol: optionalField(symbolField),
  })
  .superRefine((body, ctx) => {
    if (body.orderId === undefined && body.clientOid === undefined) {
      reportMissing(ctx, 'v3', ['orderId'], 'orderId or clientOid');
    }
  });

const response = z.object({ orderId: z.string(), clientOid: z.string() });

export const cancelOrderV3 = defineEndpoint({
  id: 'C5',
  name: 'Cancel order (v3)',
  method: 'POST',
  path: '/api/v3/trade/cancel-order',
  version: 'v3',
  auth: 'signed',
  permission: 'uta_trade_write',
  rateLimit: { perSecond: 10, keyedBy: 'uid' },
  request,
  response,
});

export type CancelOrderV3Request = z.output<typeof request>;
export type CancelOrderV3Result = z.output<typeof response>;
