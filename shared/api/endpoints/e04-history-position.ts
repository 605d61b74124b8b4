import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { HOLD_SIDES, POS_MODES } from '../enums';
import { fieldWithDefault, limitField, optionalField, productTypeField, symbolField } from '../primitives';
import { pagedWindowFields, pagedWindowQuery } from './paged-window-query';
import { DAY_MS } from './parameter-rules';
import { listOrEmpty, marginModeText } from './response-fields';

/** "3 months", as 90 days. */
export const HISTORY_POSITION_MAX_SPAN_MS = 90 * DAY_MS;

const request = pagedWindowQuery(
  {
    symbol: optionalField(symbolField),
    productType: fieldWithDefault(productTypeField, 'USDT-FUTURES'),
    ...pagedWindowFields,
    limit: limitField(20, 100),
  },
  { maxSpanMs: HISTORY_POSITION_MAX_SPAN_MS, label: '3 months' },
);

export const historicalPositionSchema = z.object({
  positionId: z.string(),
  symbol: z.string(),
  marginCoin: z.string(),
  holdSide: z.enum(HOLD_SIDES),
  posMode: z.enum(POS_MODES),
  openAvgPrice: z.string(),
  closeAvgPrice: z.string(),
  marginMode: marginModeText,
  openTotalPos: z.string(),
  closeTotalPos: z.string(),
  pnl: z.string(),
  netProfit: z.string(),
  totalFunding: z.string(),
  openFee: z.string(),
  closeFee: z.string(),
  cTime: z.string(),
  uTime: z.string(),
});

const response = z.object({
  list: listOrEmpty(historicalPositionSchema),
  // Feeds the next request's idLessThan; absent or null once there is nothing older.
  endId: z.string().nullish(),
});

export const historyPosition = defineEndpoint({
  id: 'E4',
  name: 'Get historical positions',
  method: 'GET',
  path: '/api/v2/mix/position/history-position',
  version: 'v2',
  auth: 'signed',
  permission: 'read',
  rateLimit: { perSecond: 20, keyedBy: 'uid' },
  request,
  response,
});

export type HistoryPositionRequest = z.output<typeof request>;
export type HistoricalPosition = z.output<typeof historicalPositionSchema>;
export type HistoryPositionPage = z.output<typeof response>;
