import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { coinField } from '../primitives';

const request = z.object({ coin: coinField });

const response = z.object({
  // Documented as an Array, sampled as a single coin string: both read as the coin.
  coin: z.union([z.string(), z.tuple([z.string()]).transform(([coin]) => coin)]),
  maxTransfer: z.string(),
  borrowMaxTransfer: z.string(),
});

export const maxTransferable = defineEndpoint({
  id: 'E14',
  name: 'Get max transferable',
  method: 'GET',
  path: '/api/v3/account/max-transferable',
  version: 'v3',
  auth: 'signed',
  permission: 'uta_mgt_read',
  rateLimit: { perSecond: 3, keyedBy: 'uid' },
  request,
  response,
});

export type MaxTransferableRequest = z.output<typeof request>;
export type MaxTransferableResult = z.output<typeof response>;
