import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { HOLD_SIDES } from '../enums';
import {
  ciEnum,
  coinField,
  optionalField,
  positiveIntegerTextField,
  productTypeField,
  symbolField,
} from '../primitives';
import { reportMissing } from './parameter-rules';
import { marginModeText } from './response-fields';

const request = z
  .object({
    symbol: symbolField,
    productType: productTypeField,
    marginCoin: coinField,
    /** Crossed margin, one-way isolated, or hedge isolated with the same leverage both ways. */
    leverage: optionalField(positiveIntegerTextField),
    /** Hedge isolated only; overrides `leverage` when both are sent. */
    longLeverage: optionalField(positiveIntegerTextField),
    shortLeverage: optionalField(positiveIntegerTextField),
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
