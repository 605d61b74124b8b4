import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { DELIVERY_STATUSES } from '../enums';
import { productTypeField } from '../primitives';
import { enumOrEmpty, listOrEmpty } from './response-fields';

const request = z.object({ productType: productTypeField });

export const tickerSchema = z.object({
  symbol: z.string(),
  lastPr: z.string(),
  askPr: z.string(),
  bidPr: z.string(),
  bidSz: z.string(),
  askSz: z.string(),
  high24h: z.string(),
  low24h: z.string(),
  ts: z.string(),
  change24h: z.string(),
  baseVolume: z.string(),
  quoteVolume: z.string(),
  usdtVolume: z.string(),
  openUtc: z.string(),
  changeUtc24h: z.string(),
  indexPrice: z.string(),
  fundingRate: z.string(),
  holdingAmount: z.string(),
  open24h: z.string(),
  /** Delivery contracts only; null for perpetuals. */
  deliveryStartTime: z.string().nullable(),
  deliveryTime: z.string().nullable(),
  /** Delivery contracts only; "" for perpetuals. */
  deliveryStatus: enumOrEmpty(DELIVERY_STATUSES).nullish(),
  markPrice: z.string(),
});

const response = listOrEmpty(tickerSchema);

export const tickers = defineEndpoint({
  id: 'E11',
  name: 'Get all tickers',
  method: 'GET',
  path: '/api/v2/mix/market/tickers',
  version: 'v2',
  auth: 'public',
  permission: null,
  rateLimit: { perSecond: 20, keyedBy: 'ip' },
  request,
  response,
});

export type TickersRequest = z.output<typeof request>;
export type Ticker = z.output<typeof tickerSchema>;
