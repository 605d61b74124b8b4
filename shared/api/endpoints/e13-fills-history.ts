import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { limitField, productTypeField, symbolField } from '../primitives';
import { pagedWindowFields, pagedWindowQuery } from './paged-window-query';
import { DAY_MS } from './parameter-rules';
import { listOrEmpty, sideText } from './response-fields';

export const FILLS_HISTORY_MAX_SPAN_MS = 7 * DAY_MS;

const request = pagedWindowQuery(
  {
    symbol: symbolField,
    productType: productTypeField,
    limit: limitField(500, 1000),
    ...pagedWindowFields,
  },
  { maxSpanMs: FILLS_HISTORY_MAX_SPAN_MS, label: '7 days' },
);

export const publicFillSchema = z.object({
  tradeId: z.string(),
  price: z.string(),
  size: z.string(),
  side: sideText,
  ts: z.string(),
  symbol: z.string(),
});

const response = listOrEmpty(publicFillSchema);

export const fillsHistory = defineEndpoint({
  id: 'E13',
  name: 'Get historical transactions',
  method: 'GET',
  path: '/api/v2/mix/market/fills-history',
  version: 'v2',
  auth: 'public',
  permission: null,
  rateLimit: { perSecond: 10, keyedBy: 'ip' },
  request,
  response,
});

export type FillsHistoryRequest = z.output<typeof request>;
export type PublicFill = z.output<typeof publicFillSchema>;
