import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { HOLD_SIDES, ORDER_TYPES, PRODUCT_TYPES, TPSL_MODES, V3_TRIGGER_BY } from '../enums';
import {
  ciEnum,
  decimalField,
  fieldWithDefault,
  optionalField,
  symbolField,
  v3ClientOidField,
} from '../primitives';
import { reportMissing } from './parameter-rules';

const request = z
  .object({
    category: ciEnum(PRODUCT_TYPES),
    symbol: symbolField,
    posSide: ciEnum(HOLD_SIDES),
    clientOid: optionalField(v3ClientOidField),
    type: fieldWithDefault(ciEnum(['tpsl']), 'tpsl'),
    tpslMode: fieldWithDefault(ciEnum(TPSL_MODES), 'full'),
    /** Required with tpslMode=partial; with full the whole position is covered. */
    qty: optionalField(decimalField),
    tpTriggerBy: fieldWithDefault(ciEnum(V3_TRIGGER_BY), 'market'),
    slTriggerBy: fieldWithDefault(ciEnum(V3_TRIGGER_BY), 'market'),
    takeProfit: optionalField(decimalField),
    stopLoss: optionalField(decimalField),
    tpOrderType: fieldWithDefault(ciEnum(ORDER_TYPES), 'market'),
    slOrderType: fieldWithDefault(ciEnum(ORDER_TYPES), 'market'),
    tpLimitPrice: optionalField(decimalField),
    slLimitPrice: optionalField(decimalField),
  })
  .superRefine((body, ctx) => {
    if (body.tpslMode === 'partial' && body.qty === undefined) reportMissing(ctx, 'v3', ['qty']);
    if (body.takeProfit === undefined && body.stopLoss === undefined) {
      reportMissing(ctx, 'v3', ['takeProfit'], 'takeProfit or stopLoss');
    }
    if (body.takeProfit !== undefined && body.tpOrderType === 'limit' && body.tpLimitPrice === undefined) {
      reportMissing(ctx, 'v3', ['tpLimitPrice']);
    }
    if (body.stopLoss !== undefined && body.slOrderType === 'limit' && body.slLimitPrice === undefined) {
      reportMissing(ctx, 'v3', ['slLimitPrice']);
    }
  })
  // A limit price is "ignored for market" (spec E9): drop it so no reader acts on it.
  .transform((body) => ({
    ...body,
    tpLimitPrice: body.tpOrderType === 'limit' ? body.tpLimitPrice : undefined,
    slLimitPrice: body.slOrderType === 'limit' ? body.slLimitPrice : undefined,
  }));

const response = z.object({ orderId: z.string(), clientOid: z.string() });

export const placeStrategyOrder = defineEndpoint({
  id: 'E9',
  name: 'Place strategy order',
  method: 'POST',
  path: '/api/v3/trade/place-strategy-order',
  version: 'v3',
  auth: 'signed',
  permission: 'uta_trade_write',
  rateLimit: { perSecond: 10, keyedBy: 'uid' },
  request,
  response,
});

export type PlaceStrategyOrderRequest = z.output<typeof request>;
export type PlaceStrategyOrderResult = z.output<typeof response>;
