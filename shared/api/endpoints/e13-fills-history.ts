import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import {
  idField,
  limitField,
  optionalField,
  productTypeField,
  symbolField,
  timestampField,
} from '../primitives';
import { checkTimeWindow, completeTimeWindow, DAY_MS } from './parameter-rules';
import { listOrEmpty, sideText } from './response-fields';

export const FILLS_HISTORY_MAX_SPAN_MS = 7 * DAY_MS;

const request = z
  .object({
    symbol: symbolField,
    productType: productTypeField,
    limit: limitField(500, 1000),
    idLessThan: optionalField(idField),
    startTime: optionalField(timestampField),
    endTime: optionalField(timestampField),
  })
  .superRefine((query, ctx) =>
    checkTimeWindow(ctx, 'v2', query, { maxSpanMs: FILLS_HISTORY_MAX_SPAN_MS, label: '7 days' }),
  )
  .transform((query) => completeTimeWindow(query, FILLS_HISTORY_MAX_SPAN_MS));

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
