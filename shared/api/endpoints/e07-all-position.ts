import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { HOLD_SIDES, POS_MODES } from '../enums';
import { coinField, optionalField, productTypeField } from '../primitives';
import { listOrEmpty, marginModeText } from './response-fields';

const request = z.object({
  productType: productTypeField,
  marginCoin: optionalField(coinField),
});

export const currentPositionSchema = z.object({
  symbol: z.string(),
  marginCoin: z.string(),
  holdSide: z.enum(HOLD_SIDES),
  openDelegateSize: z.string(),
  marginSize: z.string(),
  available: z.string(),
  locked: z.string(),
  total: z.string(),
  leverage: z.string(),
  achievedProfits: z.string(),
  openPriceAvg: z.string(),
  marginMode: marginModeText,
  posMode: z.enum(POS_MODES),
  unrealizedPL: z.string(),
  /** A value <= 0 means low risk: no liquidation price. */
  liquidationPrice: z.string(),
  keepMarginRate: z.string(),
  markPrice: z.string(),
  marginRatio: z.string(),
  breakEvenPrice: z.string(),
  /** Empty until a funding fee has been charged. */
  totalFee: z.string(),
  deductedFee: z.string(),
  takeProfit: z.string(),
  stopLoss: z.string(),
  takeProfitId: z.string(),
  stopLossId: z.string(),
  assetMode: z.enum(['single', 'union']),
  cTime: z.string(),
  uTime: z.string(),
});

const response = listOrEmpty(currentPositionSchema);

export const allPosition = defineEndpoint({
  id: 'E7',
  name: 'Get all positions',
  method: 'GET',
  path: '/api/v2/mix/position/all-position',
  version: 'v2',
  auth: 'signed',
  permission: 'read',
  rateLimit: { perSecond: 5, keyedBy: 'uid' },
  request,
  response,
});

export type AllPositionRequest = z.output<typeof request>;
export type CurrentPosition = z.output<typeof currentPositionSchema>;
