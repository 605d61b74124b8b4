import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startFixtureExchange } from '../testing/http-fixture';
import type { FixtureExchange } from '../testing/http-fixture';
import { createSignedClient } from '../testing/signed-client';
import type { SignedClient } from '../testing/signed-client';
import { registerAdminRoute } from './admin';
import { ApiError } from './api-error';
import { createHttpApp } from './app';
import { registerFaultAdminRoutes } from './fault-admin-routes';

const TOKEN = 'admin-token-0123456789';
const LEVERAGE = '/api/v2/mix/account/set-leverage';

describe('admin routes', () => {
  let exchange: FixtureExchange;
  let client: SignedClient;
  const deposits: Array<{ uid: string; coin: string; amount: string }> = [];

  beforeEach(async () => {
    deposits.length = 0;
    exchange = await startFixtureExchange({
      extend: (app, deps) => {
        registerAdminRoute(
          app,
          {
            method: 'POST',
            path: '/admin/accounts/:uid/deposit',
            request: z.object({ coin: z.string(), amount: z.string().regex(/^\d+(\.\d+)?$/) }),
          },
          ({ params, pathParams }) => {
            const uid = pathParams['uid'] ?? '';
            if (uid === '0') throw new ApiError('40034', 'Parameter uid does not exist');
            deposits.push({ uid, ...params });
            return { uid, balance: params.amount };
          },
          { adminToken: TOKEN },
        );
        registerAdminRoute(
          app,
          { method: 'GET', path: '/admin/clock', request: z.object({ zone: z.enum(['utc', 'local']) }) },
          ({ params, requestTime }) => ({ zone: params.zone, now: requestTime }),
          { adminToken: TOKEN },
        );
        registerFaultAdminRoutes(app, deps.faults, { adminToken: TOKEN });
      },
    });
    client = exchange.client('trader');
  });
  afterEach(() => exchange.close());

  it('refuses a missing or wrong X-Paper-Admin token with 401', async () => {
    const missing = await client.admin(
      'POST',
      '/admin/accounts/1001/deposit',
      { coin: 'USDT', amount: '5' },
      undefined,
    );
    const wrong = await client.admin(
      'POST',
      '/admin/accounts/1001/deposit',
      { coin: 'USDT', amount: '5' },
      'admin',
    );
    for (const answer of [missing, wrong]) {
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({
        code: '40006',
        msg: 'Invalid or missing X-Paper-Admin token',
        data: null,
      });
    }
    expect(deposits).toEqual([]);
  });

  it('passes path parameters and the validated body to the handler', async () => {
    const answer = await client.admin(
      'POST',
      '/admin/accounts/1001/deposit',
      { coin: 'USDT', amount: '5000' },
      TOKEN,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ code: '00000', data: { uid: '1001', balance: '5000' } });
    expect(deposits).toEqual([{ uid: '1001', coin: 'USDT', amount: '5000' }]);
  });

  it('maps validation failures like v2 endpoints and ApiErrors to their envelope', async () => {
    const missing = await client.admin('POST', '/admin/accounts/1001/deposit', { coin: 'USDT' }, TOKEN);
    const wrong = await client.admin(
      'POST',
      '/admin/accounts/1001/deposit',
      { coin: 'USDT', amount: '-1' },
      TOKEN,
    );
    const refused = await client.admin(
      'POST',
      '/admin/accounts/0/deposit',
      { coin: 'USDT', amount: '1' },
      TOKEN,
    );
    expect(missing.body).toMatchObject({ code: '40019', msg: 'Parameter amount cannot be empty' });
    expect(wrong.body?.code).toBe('40020');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: '40034', msg: 'Parameter uid does not exist' });
  });

  it('validates the query of a GET route', async () => {
    const good = await client.admin('GET', '/admin/clock', { zone: 'utc' }, TOKEN);
    const bad = await client.admin('GET', '/admin/clock', { zone: 'mars' }, TOKEN);
    expect(good.body?.data).toEqual({ zone: 'utc', now: good.body?.requestTime });
    expect(bad.body?.code).toBe('40020');
  });

  it('arms, lists and clears faults through the fault routes, and an armed fault strikes the API', async () => {
    const armed = await client.admin(
      'POST',
      '/admin/faults',
      { path: LEVERAGE, count: 1, kind: '40010' },
      TOKEN,
    );
    expect(armed.body?.data).toMatchObject({ path: LEVERAGE, kind: '40010', remaining: 1 });
    const listed = await client.admin('GET', '/admin/faults', undefined, TOKEN);
    expect(listed.body?.data).toHaveLength(1);
    const struck = await client.post(LEVERAGE, {
      symbol: 'BTCUSDT',
      productType: 'USDT-FUTURES',
      marginCoin: 'USDT',
      leverage: '10',
    });
    expect(struck.body?.code).toBe('40010');
    await client.admin('POST', '/admin/faults', { path: LEVERAGE, count: 3, kind: 'drop' }, TOKEN);
    const cleared = await client.admin('DELETE', '/admin/faults', undefined, TOKEN);
    expect(cleared.body?.data).toEqual({ cleared: 1 });
    expect(exchange.faults.list()).toEqual([]);
    const badSpec = await client.admin(
      'POST',
      '/admin/faults',
      { path: LEVERAGE, count: 1, kind: 'delay' },
      TOKEN,
    );
    expect(badSpec.body?.code).toBe('40020');
  });
});

describe('registerAdminRoute', () => {
  it('refuses an empty admin token, which would leave the admin interface open', () => {
    const app = createHttpApp({ logger: false });
    expect(() =>
      registerAdminRoute(app, { method: 'GET', path: '/admin/x', request: z.object({}) }, () => null, {
        adminToken: '',
      }),
    ).toThrow(/admin token/);
    return app.close();
  });

  it('is reachable through createSignedClient against any base URL with a trailing slash', async () => {
    const app = createHttpApp({ logger: false });
    registerAdminRoute(app, { method: 'GET', path: '/admin/ping', request: z.object({}) }, () => 'pong', {
      adminToken: TOKEN,
    });
    const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const admin = createSignedClient({ baseUrl: `${baseUrl}/`, apiKey: '', secretKey: '', passphrase: '' });
      const answer = await admin.admin('GET', '/admin/ping', undefined, TOKEN);
      expect(answer.body?.data).toBe('pong');
    } finally {
      await app.close();
    }
  });
});
