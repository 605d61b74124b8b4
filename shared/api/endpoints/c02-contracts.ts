import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { DELIVERY_STATUSES } from '../enums';
import { optionalField, productTypeField, symbolField } from '../primitives';
import { enumOrEmpty, listOrEmpty } from './response-fields';

const request = z.object({
  productType: productTypeField,
  /** Left out: every contract of the product type. */
  symbol: optionalField(symbolField),
});

/** What a client needs to place valid orders; every value is text. */
export const contractConfigSchema = z.object({
  symbol: z.string(),
  baseCoin: z.string(),
  quoteCoin: z.string(),
  /** Price decimals. */
  pricePlace: z.string(),
  /** Tick = priceEndStep x 10^-pricePlace. */
  priceEndStep: z.string(),
  /** Size decimals. */
  volumePlace: z.string(),
  /** Size step. */
  sizeMultiplier: z.string(),
  /** Minimum order size. */
  minTradeNum: z.string(),
  /** Minimum order value in the quote coin. */
  minTradeUSDT: z.string(),
  maxLever: z.string(),
  minLever: z.string(),
  makerFeeRate: z.string(),
  takerFeeRate: z.string(),
  /** Funding interval in hours. */
  fundInterval: z.string(),
  /** normal, maintain, limit_open, restrictedAPI, off. */
  symbolStatus: z.string(),
  maxMarketOrderQty: z.string(),
  maxOrderQty: z.string(),
  buyLimitPriceRatio: z.string(),
  symbolType: z.enum(['perpetual', 'delivery']),
  supportMarginCoins: z.array(z.string()),
  /** Delivery contracts only; empty or null for perpetuals. */
  deliveryTime: z.string().nullish(),
  deliveryStartTime: z.string().nullish(),
  deliveryStatus: enumOrEmpty(DELIVERY_STATUSES).nullish(),
});

const response = listOrEmpty(contractConfigSchema);

export const contracts = defineEndpoint({
  id: 'C2',
  name: 'Get contract configs',
  method: 'GET',
  path: '/api/v2/mix/market/contracts',
  version: 'v2',
  auth: 'public',
  permission: null,
  rateLimit: { perSecond: 20, keyedBy: 'ip' },
  request,
  response,
});

export type ContractsRequest = z.output<typeof request>;
export type ContractConfig = z.output<typeof contractConfigSchema>;
