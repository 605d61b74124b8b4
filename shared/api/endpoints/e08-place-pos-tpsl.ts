import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { STP_MODES, TRIGGER_TYPES } from '../enums';
import {
  ciEnum,
  coinField,
  decimalField,
  fieldWithDefault,
  nonNegativeDecimalField,
  optionalField,
  productTypeField,
  symbolField,
  v2ClientOidField,
} from '../primitives';
import { reportMissing } from './parameter-rules';
import { listOrEmpty } from './response-fields';

/** Hedge mode names the position `long`/`short`; one-way mode names it by side `buy`/`sell`. */
export const TPSL_HOLD_SIDES = ['long', 'short', 'buy', 'sell'] as const;

const request = z
  .object({
    marginCoin: coinField,
    productType: productTypeField,
    symbol: symbolField,
    holdSide: ciEnum(TPSL_HOLD_SIDES),
    stopSurplusTriggerPrice: optionalField(decimalField),
    /** Given: a partial `profit_plan` order; left out: `pos_profit` on the whole position. */
    stopSurplusSize: optionalField(decimalField),
    // The spec names no default; fill_price mirrors v3's default trigger `market`.
    stopSurplusTriggerType: fieldWithDefault(ciEnum(TRIGGER_TYPES), 'fill_price'),
    /** 0 or left out: market execution; above 0: limit execution at this price. */
    stopSurplusExecutePrice: optionalField(nonNegativeDecimalField),
    stopLossTriggerPrice: optionalField(decimalField),
    stopLossSize: optionalField(decimalField),
    stopLossTriggerType: fieldWithDefault(ciEnum(TRIGGER_TYPES), 'fill_price'),
    stopLossExecutePrice: optionalField(nonNegativeDecimalField),
    stpMode: fieldWithDefault(ciEnum(STP_MODES), 'none'),
    stopSurplusClientOid: optionalField(v2ClientOidField),
    stopLossClientOid: optionalField(v2ClientOidField),
  })
  .superRefine((body, ctx) => {
    if (body.stopSurplusTriggerPrice === undefined && body.stopLossTriggerPrice === undefined) {
      reportMissing(
        ctx,
        'v2',
        ['stopSurplusTriggerPrice'],
        'stopSurplusTriggerPrice or stopLossTriggerPrice',
      );
    }
  });

const response = listOrEmpty(
  z.object({
    orderId: z.string(),
    stopSurplusClientOid: z.string(),
    stopLossClientOid: z.string(),
  }),
);

export const placePosTpsl = defineEndpoint({
  id: 'E8',
  name: 'Place position take-profit / stop-loss',
  method: 'POST',
  path: '/api/v2/mix/order/place-pos-tpsl',
  version: 'v2',
  auth: 'signed',
  permission: 'trade',
  rateLimit: { perSecond: 10, keyedBy: 'uid' },
  request,
  response,
});

export type PlacePosTpslRequest = z.output<typeof request>;
export type PlacePosTpslResult = z.output<typeof response>;
