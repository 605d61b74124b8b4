// A small exchange for tests of the HTTP surface: sample endpoints of each kind (public, signed
// read, signed write, v3), an in-memory key table, and handlers that record what reached them.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineEndpoint } from '../../shared/api/endpoint';
import { ApiError } from '../http/api-error';
import { createHttpApp } from '../http/app';
import type { ApiKeyRecord } from '../http/auth';
import { FaultRegistry } from '../http/faults';
import { SlidingWindowRateLimiter } from '../http/rate-limit';
import { registerEndpoint } from '../http/register-endpoint';
import type { EndpointDeps } from '../http/register-endpoint';
import { listenOnLoopback } from './listen';
import { createSignedClient } from './signed-client';
import type { SignedClient } from './signed-client';

export const FIXTURE_KEYS = {
  trader: {
    apiKey: 'bg_trader_key',
    secretKey: 'trader-secret',
    passphrase: 'trader-pass',
    uid: '1001',
    permissions: ['trade', 'uta_trade_write'],
  },
  /** A second key of the trader's account: it shares the account's per-UID limits. */
  traderBot: {
    apiKey: 'bg_trader_bot_key',
    secretKey: 'bot-secret',
    passphrase: 'bot-pass',
    uid: '1001',
    permissions: ['trade'],
  },
  reader: {
    apiKey: 'bg_reader_key',
    secretKey: 'reader-secret',
    passphrase: 'reader-pass',
    uid: '2002',
    permissions: ['read', 'uta_mgt_read'],
  },
} as const satisfies Record<string, ApiKeyRecord>;
export type FixtureKeyName = keyof typeof FIXTURE_KEYS;

const productType = z
  .string()
  .transform((value) => value.toUpperCase())
  .pipe(z.enum(['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES']));

export const tickersEndpoint = defineEndpoint({
  id: 'T-tickers',
  name: 'Tickers',
  method: 'GET',
  path: '/api/v2/mix/market/tickers',
  version: 'v2',
  auth: 'public',
  permission: null,
  rateLimit: { perSecond: 20, keyedBy: 'ip' },
  request: z.object({ productType }),
  response: z.array(z.object({ symbol: z.string(), lastPr: z.string() })),
});

export const positionsEndpoint = defineEndpoint({
  id: 'T-positions',
  name: 'All positions',
  method: 'GET',
  path: '/api/v2/mix/position/all-position',
  version: 'v2',
  auth: 'signed',
  permission: 'read',
  rateLimit: { perSecond: 5, keyedBy: 'uid' },
  request: z.object({ productType, marginCoin: z.string().optional() }),
  response: z.unknown(),
});

export const setLeverageEndpoint = defineEndpoint({
  id: 'T-set-leverage',
  name: 'Set leverage',
  method: 'POST',
  path: '/api/v2/mix/account/set-leverage',
  version: 'v2',
  auth: 'signed',
  permission: 'trade',
  rateLimit: { perSecond: 5, keyedBy: 'uid' },
  request: z.object({
    symbol: z.string(),
    productType,
    marginCoin: z.string(),
    leverage: z.string().regex(/^\d+$/, 'must be a whole number'),
  }),
  response: z.unknown(),
});

export const placeStrategyEndpoint = defineEndpoint({
  id: 'T-place-strategy',
  name: 'Place strategy order',
  method: 'POST',
  path: '/api/v3/trade/place-strategy-order',
  version: 'v3',
  auth: 'signed',
  permission: 'uta_trade_write',
  rateLimit: { perSecond: 10, keyedBy: 'uid' },
  request: z.object({ category: z.enum(['USDT-FUTURES']), symbol: z.string(), qty: z.string() }),
  response: z.unknown(),
});

/** Fails with an ApiError when `symbol` is `NOPE`, and throws a plain Error when it is `BOOM`. */
export const orderInfoEndpoint = defineEndpoint({
  id: 'T-order-info',
  name: 'Order info',
  method: 'GET',
  path: '/api/v3/trade/order-info',
  version: 'v3',
  auth: 'signed',
  permission: 'uta_trade_read',
  rateLimit: { perSecond: 20, keyedBy: 'uid' },
  request: z.object({ symbol: z.string() }),
  response: z.unknown(),
});

export interface HandlerCall {
  readonly endpoint: string;
  readonly params: unknown;
  readonly uid: string | null;
}

export interface FixtureExchange {
  readonly app: FastifyInstance;
  readonly baseUrl: string;
  readonly faults: FaultRegistry;
  readonly rateLimiter: SlidingWindowRateLimiter;
  /** Every handler run, in order. */
  readonly calls: HandlerCall[];
  client(name: FixtureKeyName, options?: { clockOffsetMs?: number; paptrading?: boolean }): SignedClient;
  close(): Promise<void>;
}

export interface FixtureOptions {
  readonly bodyLimitBytes?: number;
  readonly now?: () => number;
  /** Registers more routes before the server starts. */
  readonly extend?: (app: FastifyInstance, deps: EndpointDeps) => void;
}

export async function startFixtureExchange(options: FixtureOptions = {}): Promise<FixtureExchange> {
  const app = createHttpApp({ logger: false, bodyLimitBytes: options.bodyLimitBytes });
  const keys = new Map<string, ApiKeyRecord>(Object.values(FIXTURE_KEYS).map((key) => [key.apiKey, key]));
  const deps: EndpointDeps = {
    lookupKey: (apiKey) => keys.get(apiKey),
    now: options.now ?? Date.now,
    rateLimiter: new SlidingWindowRateLimiter(),
    faults: new FaultRegistry(),
  };
  const calls: HandlerCall[] = [];
  const record = (endpoint: string, params: unknown, key: ApiKeyRecord | null): void => {
    calls.push({ endpoint, params, uid: key?.uid ?? null });
  };

  registerEndpoint(
    app,
    tickersEndpoint,
    ({ params }) => {
      record(tickersEndpoint.id, params, null);
      return [{ symbol: 'BTCUSDT', lastPr: '64000.5' }];
    },
    deps,
  );
  registerEndpoint(
    app,
    positionsEndpoint,
    ({ params, key }) => {
      record(positionsEndpoint.id, params, key);
      return [];
    },
    deps,
  );
  registerEndpoint(
    app,
    setLeverageEndpoint,
    async ({ params, key }) => {
      record(setLeverageEndpoint.id, params, key);
      return { symbol: params.symbol, longLeverage: params.leverage, shortLeverage: params.leverage };
    },
    deps,
  );
  registerEndpoint(
    app,
    placeStrategyEndpoint,
    ({ params, key }) => {
      record(placeStrategyEndpoint.id, params, key);
      return { orderId: '1', clientOid: 'c1' };
    },
    deps,
  );
  registerEndpoint(
    app,
    orderInfoEndpoint,
    ({ params, key }) => {
      record(orderInfoEndpoint.id, params, key);
      if (params.symbol === 'NOPE') throw new ApiError('25204', 'Order does not exist');
      if (params.symbol === 'BOOM') throw new Error('engine invariant broken');
      return { orderId: '1', symbol: params.symbol };
    },
    deps,
  );
  options.extend?.(app, deps);

  const baseUrl = await listenOnLoopback(app);
  return {
    app,
    baseUrl,
    faults: deps.faults,
    rateLimiter: deps.rateLimiter,
    calls,
    client: (name, clientOptions = {}) =>
      createSignedClient({ baseUrl, ...FIXTURE_KEYS[name], ...clientOptions }),
    close: () => app.close(),
  };
}
