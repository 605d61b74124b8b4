import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { DEPTH_LIMITS, DEPTH_PRECISIONS, YES_NO } from '../enums';
import { ciEnum, fieldWithDefault, optionalField, productTypeField, symbolField } from '../primitives';
import { decimalText } from './response-fields';

/** Levels returned when `limit` is left out. */
export const DEFAULT_DEPTH_LEVELS = 100;

const request = z.object({
  symbol: symbolField,
  productType: productTypeField,
  precision: fieldWithDefault(ciEnum(DEPTH_PRECISIONS), 'scale0'),
  /** Left out: DEFAULT_DEPTH_LEVELS levels; `max`: the pair's deepest gear. */
  limit: optionalField(ciEnum(DEPTH_LIMITS)),
});

/** [price, size]; live sends JSON numbers, the table says strings: both read as text. */
const depthLevel = z.tuple([decimalText, decimalText]);

export const mergedDepthSchema = z.object({
  asks: z.array(depthLevel),
  bids: z.array(depthLevel),
  precision: z.string(),
  scale: z.string(),
  isMaxPrecision: z.enum(YES_NO),
  ts: z.string(),
});

export const mergeDepth = defineEndpoint({
  id: 'E15',
  name: 'Get merged market depth',
  method: 'GET',
  path: '/api/v2/mix/market/merge-depth',
  version: 'v2',
  auth: 'public',
  permission: null,
  rateLimit: { perSecond: 20, keyedBy: 'ip' },
  request,
  response: mergedDepthSchema,
});

export type MergeDepthRequest = z.output<typeof request>;
export type MergedDepth = z.output<typeof mergedDepthSchema>;
