import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { HOLD_SIDES } from '../enums';
import { ciEnum, coinField, optionalField, productTypeField, symbolField } from '../primitives';
import { reportMissing } from './parameter-rules';
import { marginModeText } from './response-fields';

// Any whole number passes here: one outside 1..maxLever, 0 included, is the exchange's 43050
// (leverage exceeds the effective range), not a malformed parameter.
const leverageField = optionalField(z.string().regex(/^\d{1,6}$/, 'must be a whole number such as 20'));

const request = z
  .object({
    symbol: symbolField,
    productType: productTypeField,
    marginCoin: coinField,
    /** Crossed margin, one-way isolated, or hedge isolated with the same leverage both ways. */
    leverage: leverageField,
    /** Hedge isolated only; overrides `leverage` when both are sent. */
    longLeverage: leverageField,
    shortLeverage: leverageField,
    /** Needed in hedge isolated mode unless long and short leverage come together. */
    holdSide: optionalField(ciEnum(HOLD_SIDES)),
  })
  .superRefine((body, ctx) => {
    if (body.leverage === undefined && body.longLeverage === undefined && body.shortLeverage === undefined) {
      reportMissing(ctx, 'v2', ['leverage']);
    }
  });

// The spec's field table spells it shortLeveage; its sample and live say shortLeverage.
const response = z.object({
  symbol: z.string(),
  marginCoin: z.string(),
  longLeverage: z.string(),
  shortLeverage: z.string(),
  crossMarginLeverage: z.string(),
  marginMode: marginModeText,
});

export const setLeverage = defineEndpoint({
  id: 'E12',
  name: 'Change leverage',
  method: 'POST',
  path: '/api/v2/mix/account/set-leverage',
  version: 'v2',
  auth: 'signed',
  permission: 'trade',
  rateLimit: { perSecond: 5, keyedBy: 'uid' },
  request,
  response,
});

export type SetLeverageRequest = z.output<typeof request>;
export type LeverageSetting = z.output<typeof response>;
