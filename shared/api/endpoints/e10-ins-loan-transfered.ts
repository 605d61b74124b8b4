import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { coinField, idField, optionalField } from '../primitives';

const request = z.object({
  coin: coinField,
  /** Master or sub-account; the caller's own account when left out. */
  userId: optionalField(idField),
});

// `transfered` is the API's own spelling.
const response = z.object({ coin: z.string(), transfered: z.string(), userId: z.string() });

export const insLoanTransfered = defineEndpoint({
  id: 'E10',
  name: 'Get transferable amount (institutional loan)',
  method: 'GET',
  path: '/api/v2/spot/ins-loan/transfered',
  version: 'v2',
  auth: 'signed',
  permission: 'read',
  rateLimit: { perSecond: 5, keyedBy: 'uid' },
  request,
  response,
});

export type InsLoanTransferedRequest = z.output<typeof request>;
export type InsLoanTransferedResult = z.output<typeof response>;
