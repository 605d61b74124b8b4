import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { POS_MODES } from '../enums';
import { ciEnum, productTypeField } from '../primitives';

/** Refused while the account holds positions or open orders in the product type. */
const request = z.object({
  productType: productTypeField,
  posMode: ciEnum(POS_MODES),
});

const response = z.object({ posMode: z.enum(POS_MODES) });

export const setPositionMode = defineEndpoint({
  id: 'C3',
  name: 'Set position mode',
  method: 'POST',
  path: '/api/v2/mix/account/set-position-mode',
  version: 'v2',
  auth: 'signed',
  permission: 'trade',
  rateLimit: { perSecond: 5, keyedBy: 'uid' },
  request,
  response,
});

export type SetPositionModeRequest = z.output<typeof request>;
export type SetPositionModeResult = z.output<typeof response>;
