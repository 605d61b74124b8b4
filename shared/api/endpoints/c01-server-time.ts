import { z } from 'zod';
import { defineEndpoint } from '../endpoint';

const request = z.object({});

const response = z.object({ serverTime: z.string() });

export const serverTime = defineEndpoint({
  id: 'C1',
  name: 'Get server time',
  method: 'GET',
  path: '/api/v2/public/time',
  version: 'v2',
  auth: 'public',
  permission: null,
  rateLimit: { perSecond: 20, keyedBy: 'ip' },
  request,
  response,
});

export type ServerTime = z.output<typeof response>;
