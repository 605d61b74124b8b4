import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../../shared/ipc/outbox-entry';
import { ApiCallError } from '../api/api-call-error';
import { createIpcRouter, IpcRefusal } from './ipc-router';
import type { IpcHandlers, IpcSender } from './ipc-router';

const APP: IpcSender = { frameUrl: 'app://trading-terminal/index.html#/trade', isMainFrame: true };
const HOST: IpcSender = { frameUrl: 'http://127.0.0.1:41234/?token=abc', isMainFrame: true };
const TICKET = {
  version: 'v2',
  symbol: 'BTCUSDT',
  productType: 'USDT-FUTURES',
  marginMode: 'crossed',
  marginCoin: 'USDT',
  orders: [{ side: 'buy', orderType: 'limit', price: '80000', size: '0.01' }],
} as const;

const placed: unknown[] = [];
const vaultStatus = { state: 'empty', maskedKey: null } as const;
const handlers: IpcHandlers = {
  'orders.place': (ticket) => {
    placed.push(ticket);
    return { entries: [] as OutboxEntry[] };
  },
  'orders.cancel': () => {
    throw new ApiCallError({
      kind: 'exchange',
      endpointId: 'E3',
      endpointName: 'Cancel batch of futures orders',
      httpStatus: 400,
      code: '40768',
      msg: 'Order does not exist',
      outcomeUnknown: false,
    });
  },
  'tpsl.place': () => {
    throw new IpcRefusal('NO_POSITION', 'There is no position to protect; open one first.');
  },
  'outbox.list': () => [],
  'poll.subscribe': (input) => ({ subscriptionId: 's1', key: input.key.endpointId }),
  'poll.unsubscribe': () => ({ removed: true }),
  'vault.set': () => vaultStatus,
  'vault.replace': () => vaultStatus,
  'vault.delete': () => vaultStatus,
  'vault.status': () => vaultStatus,
  'vault.test': () => ({ ok: true, message: 'The key works.', code: null }),
  'profiles.list': () => [],
  'profiles.select': () => {
    throw new Error('disk full');
  },
  'budget.stats': () => ({ endpoints: [], clockOffsetMs: null }),
};

const router = createIpcRouter(handlers, {
  allowedOrigins: ['app://trading-terminal', 'http://127.0.0.1:41234'],
});

describe('IPC router', () => {
  it('runs a valid call from the app window and from the browser host, with the checked input', async () => {
    placed.length = 0;
    expect(await router.handle('orders.place', TICKET, APP)).toEqual({ ok: true, value: { entries: [] } });
    expect(await router.handle('outbox.list', undefined, HOST)).toEqual({ ok: true, value: [] });
    expect(placed).toEqual([TICKET]);
  });

  it('refuses an unknown channel, and names of Object.prototype', async () => {
    for (const name of ['orders.explode', '__proto__', 'toString']) {
      const result = await router.handle(name, {}, APP);
      expect(result).toMatchObject({ ok: false, error: { code: 'IPC_UNKNOWN_CHANNEL' } });
    }
  });

  it('refuses senders that are not the main frame of the app own origin', async () => {
    const foreign: IpcSender[] = [
      { frameUrl: 'https://evil.example/app', isMainFrame: true },
      { frameUrl: 'app://other-app/index.html', isMainFrame: true },
      { frameUrl: 'http://127.0.0.1:9999/', isMainFrame: true },
      { frameUrl: 'file:///home/user/index.html', isMainFrame: true },
      { frameUrl: 'not a url', isMainFrame: true },
      { frameUrl: 'app://trading-terminal/embedded.html', isMainFrame: false },
    ];
    placed.length = 0;
    for (const sender of foreign) {
      const result = await router.handle('orders.place', TICKET, sender);
      expect(result).toMatchObject({ ok: false, error: { code: 'IPC_FOREIGN_SENDER' } });
    }
    expect(placed).toEqual([]);
  });

  it('refuses input that breaks the channel schema, saying which field and why', async () => {
    placed.length = 0;
    const cases: Array<[string, unknown, string]> = [
      [
        'orders.place',
        { ...TICKET, orders: [{ side: 'buy', orderType: 'limit', size: '0.01' }] },
        'orders[0].price',
      ],
      [
        'orders.place',
        { ...TICKET, orders: [{ side: 'buy', orderType: 'market', size: 0.01 }] },
        'orders[0].size',
      ],
      ['orders.place', { ...TICKET, extra: true }, 'extra'],
      ['orders.place', 'buy everything', 'input'],
      ['vault.set', { profileId: 'paper', apiKey: 'k e y' }, 'apiKey'],
      ['poll.subscribe', { key: { endpointId: 'DROP TABLE', params: {} } }, 'key.endpointId'],
    ];
    for (const [channel, input, field] of cases) {
      const result = await router.handle(channel, input, APP);
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.error.code).toBe('IPC_INVALID_INPUT');
      expect(result.error.message).toContain(channel);
      expect(result.error.message).toContain(field);
    }
    expect(placed).toEqual([]);
  });

  it('turns handler errors into plain data, keeping an exchange code and message', async () => {
    const cancelled = await router.handle(
      'orders.cancel',
      { productType: 'USDT-FUTURES', symbol: 'BTCUSDT', orders: [{ orderId: '1' }] },
      APP,
    );
    expect(cancelled).toMatchObject({ ok: false, error: { code: '40768' } });
    if (!cancelled.ok) expect(cancelled.error.message).toContain('Order does not exist');

    const refused = await router.handle(
      'tpsl.place',
      {
        version: 'v3',
        symbol: 'BTCUSDT',
        productType: 'USDT-FUTURES',
        posSide: 'long',
        stopLoss: { triggerPrice: '90000' },
      },
      APP,
    );
    expect(refused).toEqual({
      ok: false,
      error: { code: 'NO_POSITION', message: 'There is no position to protect; open one first.' },
    });

    const failed = await router.handle('profiles.select', { profileId: 'paper' }, APP);
    expect(failed).toMatchObject({ ok: false, error: { code: 'IPC_INTERNAL' } });
    if (!failed.ok) expect(failed.error.message).toContain('disk full');
    expect(JSON.parse(JSON.stringify(failed))).toEqual(failed);
  });

  it('will not start without a usable allowed origin', () => {
    expect(() => createIpcRouter(handlers, { allowedOrigins: [] })).toThrow(/allowedOrigins/);
    expect(() => createIpcRouter(handlers, { allowedOrigins: ['trading-terminal'] })).toThrow(
      /allowedOrigins/,
    );
  });
});
