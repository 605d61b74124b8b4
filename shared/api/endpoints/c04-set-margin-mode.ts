import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { MARGIN_MODES } from '../enums';
import { ciEnum, coinField, productTypeField, symbolField } from '../primitives';
import { marginModeText } from './response-fields';

/** Refused while there is a position or an open order on the symbol. */
const request = z.object({
  symbol: symbolField,
  productType: productTypeField,
  marginCoin: coinField,
  marginMode: ciEnum(MARGIN_MODES),
});

const response = z.object({
  symbol: z.string(),
  marginCoin: z.string(),
  longLeverage: z.string(),
  shortLeverage: z.string(),
  marginMode: marginModeText,
});

export const setMarginMode = defineEndpoint({
  id: 'C4',
  name: 'Set margin mode',
  method: 'POST',
  path: '/api/v2/mix/account/set-margin-mode',
  version: 'v2',
  auth: 'signed',
  permission: 'trade',
  rateLimit: { perSecond: 5, keyedBy: 'uid' },
  request,
  response,
});

export type SetMarginModeRequest = z.output<typeof request>;
export type SetMarginModeResult = z.output<typeof response>;
