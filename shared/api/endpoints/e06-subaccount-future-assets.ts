import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { idField, productTypeField } from '../primitives';
import { listOrEmpty } from './response-fields';

const request = z.object({
  subUid: idField,
  productType: productTypeField,
});

export const subaccountFutureAssetSchema = z.object({
  marginCoin: z.string(),
  available: z.string(),
  frozen: z.string(),
  locked: z.string(),
  crossedMaxAvailable: z.string(),
  isolatedMaxAvailable: z.string(),
  maxTransferOut: z.string(),
  accountEquity: z.string(),
  usdtEquity: z.string(),
  btcEquity: z.string(),
  unrealizedPL: z.string(),
  uTime: z.string(),
});

const response = z.object({ assetsList: listOrEmpty(subaccountFutureAssetSchema) });

export const subaccountFutureAssets = defineEndpoint({
  id: 'E6',
  name: 'Get sub-account futures assets',
  method: 'GET',
  path: '/api/v2/broker/account/subaccount-future-assets',
  version: 'v2',
  auth: 'signed',
  permission: 'read',
  rateLimit: { perSecond: 10, keyedBy: 'uid' },
  request,
  response,
});

export type SubaccountFutureAssetsRequest = z.output<typeof request>;
export type SubaccountFutureAsset = z.output<typeof subaccountFutureAssetSchema>;
export type SubaccountFutureAssetsResult = z.output<typeof response>;
