// The app core driven through its router exactly as a window drives it, against real paper
// exchanges. The live-profile tests need the OS keychain: run them with `npm test -- electron/core/app`.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startExchange } from '../../../exchange/server';
import type { RunningExchange } from '../../../exchange/server';
import { orderInfo } from '../../../shared/api/endpoints';
import type { IpcEvent, IpcEvents, OutboxEntry, ProfileView } from '../../../shared/ipc';
import type { IpcResult } from '../../../shared/ipc/ipc-error';
import { RateBudget } from '../api/rate-budget';
import { ServerClock } from '../api/server-clock';
import { createApiClient } from '../api/signed-client';
import type { Credentials } from '../api/signed-client';
import { CredentialVault } from '../vault/credential-vault';
import { createAppCore } from './app-core';
import type { AppCore, PaperExchangeLauncher, WindowSender } from './app-core';

const ORIGIN = 'app://trading-terminal';
const WINDOW: WindowSender = { frameUrl: `${ORIGIN}/index.html`, isMainFrame: true, windowId: 'main' };
const keychainTestsSkipped = process.env.VAULT_TESTS === 'skip';

const folders: string[] = [];
const cores: AppCore[] = [];
const exchanges: RunningExchange[] = [];
/** Every answer the router gave, to prove no secret ever crossed IPC. */
const answers: string[] = [];

async function freshFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'app-core-'));
  folders.push(folder);
  return folder;
}

/** What the shell passes: the real exchange, quiet, remembered so the test can look inside. */
const launchPaperExchange: PaperExchangeLauncher = async ({ dataDir }) => {
  const running = await startExchange({ dataDir, log: () => {} });
  exchanges.push(running);
  return running;
};

async function startCore(
  userDataDir: string,
  vault = new CredentialVault({ service: testService }),
): Promise<AppCore> {
  const core = await createAppCore({ userDataDir, vault, launchPaperExchange, allowedOrigins: [ORIGIN] });
  cores.push(core);
  return core;
}

async function call(
  core: AppCore,
  channel: string,
  input?: unknown,
  sender = WINDOW,
): Promise<IpcResult<unknown>> {
  const result = await core.router.handle(channel, input, sender);
  answers.push(JSON.stringify(result));
  return result;
}

async function value<T>(core: AppCore, channel: string, input?: unknown): Promise<T> {
  const result = await call(core, channel, input);
  if (!result.ok) throw new Error(`${channel} failed: ${result.error.code} ${result.error.message}`);
  return result.value as T;
}

function nextEvent<E extends IpcEvent>(
  core: AppCore,
  windowId: string,
  event: E,
  matches: (payload: IpcEvents[E]) => boolean,
  timeoutMs = 5_000,
): Promise<IpcEvents[E]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no ${event} event within ${timeoutMs} ms`));
    }, timeoutMs);
    const wanted: IpcEvent = event;
    const stop = core.events.subscribe(windowId, (name, payload) => {
      const received: IpcEvent = name;
      if (received !== wanted || !matches(payload as IpcEvents[E])) return;
      clearTimeout(timer);
      stop();
      resolve(payload as IpcEvents[E]);
    });
  });
}

function exchangeClient(baseUrl: string, credentials: Credentials) {
  const clock = new ServerClock();
  const budget = new RateBudget({ clock });
  const client = createApiClient({ baseUrl, credentials: () => credentials, clock, budget });
  return {
    client,
    dispose: () => {
      client.dispose();
      budget.dispose();
    },
  };
}

const testService = `trading-terminal-test-${randomUUID()}`;

const marketBuy = {
  version: 'v2',
  symbol: 'BTCUSDT',
  productType: 'USDT-FUTURES',
  marginMode: 'crossed',
  marginCoin: 'USDT',
  orders: [{ side: 'buy', orderType: 'market', size: '0.01' }],
};

afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});
afterAll(async () => {
  for (const exchange of exchanges.splice(0)) await exchange.close().catch(() => {});
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe('app core on a first launch', () => {
  it('trades paper money with no set-up: Paper selected, tickers pushed, an order accepted', async () => {
    const core = await startCore(await freshFolder());
    const paper = exchanges.at(-1);
    if (paper === undefined) throw new Error('the paper exchange was not launched');

    const profiles = await value<ProfileView[]>(core, 'profiles.list');
    expect(profiles).toEqual([
      expect.objectContaining({ id: 'paper', kind: 'paper', selected: true, baseUrl: paper.baseUrl }),
    ]);
    expect(profiles[0]?.vault.state).toBe('stored');

    const tickers = nextEvent(core, 'main', 'poll.data', (payload) => 'data' in payload);
    const subscription = await value<{ subscriptionId: string; key: string }>(core, 'poll.subscribe', {
      key: { endpointId: 'E11', params: { productType: 'USDT-FUTURES' } },
    });
    const update = await tickers;
    expect(update.key).toBe(subscription.key);
    expect(JSON.stringify('data' in update ? update.data : null)).toContain('BTCUSDT');
    expect(await value(core, 'poll.unsubscribe', { subscriptionId: subscription.subscriptionId })).toEqual({
      removed: true,
    });

    const changed = nextEvent(core, 'main', 'outbox.changed', ({ entry }) => entry.state === 'accepted');
    const placed = await value<{ entries: OutboxEntry[] }>(core, 'orders.place', marketBuy);
    const entry = placed.entries[0];
    expect(placed.entries).toHaveLength(1);
    expect(entry).toMatchObject({ endpointId: 'E1', state: 'accepted' });
    expect((await changed).entry.clientOid).toBe(entry?.clientOid);
    const listed = await value<OutboxEntry[]>(core, 'outbox.list', { states: ['accepted'] });
    expect(listed.map((item) => item.clientOid)).toEqual([entry?.clientOid]);

    const direct = exchangeClient(paper.baseUrl, paper.account);
    try {
      const detail = await direct.client.call(orderInfo, { orderId: entry?.orderId ?? '' });
      expect(detail).toMatchObject({ orderId: entry?.orderId, symbol: 'BTCUSDT' });
    } finally {
      direct.dispose();
    }

    const stats = await value<{ endpoints: { endpointId: string }[] }>(core, 'budget.stats');
    expect(stats.endpoints.map((endpoint) => endpoint.endpointId)).toContain('E1');
    for (const answer of answers) {
      expect(answer).not.toContain(paper.account.secretKey);
      expect(answer).not.toContain(paper.account.passphrase);
    }
  });

  it('cancels a resting order and places a position stop-loss through the outbox', async () => {
    const core = await startCore(await freshFolder());
    const resting = await value<{ entries: OutboxEntry[] }>(core, 'orders.place', {
      ...marketBuy,
      orders: [{ side: 'buy', orderType: 'limit', price: '1000', size: '0.01' }],
    });
    const order = resting.entries[0];
    expect(order).toMatchObject({ state: 'accepted' });
    const cancelled = await value(core, 'orders.cancel', {
      productType: 'USDT-FUTURES',
      symbol: 'BTCUSDT',
      orders: [{ orderId: order?.orderId }, { orderId: '123' }],
    });
    expect(cancelled).toMatchObject({
      cancelled: [{ orderId: order?.orderId, clientOid: order?.clientOid }],
      failed: [{ orderId: '123', error: { code: expect.stringMatching(/^\d{5}$/) } }],
    });

    await value(core, 'orders.place', marketBuy);
    const tpsl = await call(core, 'tpsl.place', {
      version: 'v2',
      symbol: 'BTCUSDT',
      productType: 'USDT-FUTURES',
      marginCoin: 'USDT',
      holdSide: 'long',
      stopLoss: { triggerPrice: '1000' },
    });
    expect(tpsl).toMatchObject({ ok: true, value: { entries: [{ endpointId: 'E8', state: 'accepted' }] } });
  });

  it('refuses a foreign page and an embedded frame before any handler runs', async () => {
    const core = await startCore(await freshFolder());
    const foreign = await call(core, 'orders.place', marketBuy, {
      frameUrl: 'https://evil.example/x',
      isMainFrame: true,
      windowId: 'main',
    });
    const framed = await call(core, 'orders.place', marketBuy, { ...WINDOW, isMainFrame: false });
    expect(foreign).toMatchObject({ ok: false, error: { code: 'IPC_FOREIGN_SENDER' } });
    expect(framed).toMatchObject({ ok: false, error: { code: 'IPC_FOREIGN_SENDER' } });
    expect(await value<OutboxEntry[]>(core, 'outbox.list')).toEqual([]);
  });

  it('stops the paper exchange on close and keeps its orders for the next launch', async () => {
    const folder = await freshFolder();
    const core = await startCore(folder);
    const paper = exchanges.at(-1);
    const placed = await value<{ entries: OutboxEntry[] }>(core, 'orders.place', marketBuy);
    await core.close();
    await expect(fetch(`${paper?.baseUrl}/api/v2/public/time`)).rejects.toThrow();
    expect(await call(core, 'outbox.list')).toMatchObject({ ok: false, error: { code: 'APP_CLOSED' } });

    const again = await startCore(folder);
    const listed = await value<OutboxEntry[]>(again, 'outbox.list');
    expect(listed.map((entry) => entry.clientOid)).toEqual(placed.entries.map((entry) => entry.clientOid));
  });

  it('sends paptrading and the locale for a demo-trading profile, and polls its exchange', async () => {
    const userDataDir = await freshFolder();
    const other = await startExchange({ dataDir: await freshFolder(), log: () => {} });
    exchanges.push(other);
    const sent: { url: string; headers: Headers }[] = [];
    const recordingFetch: typeof fetch = (input, init) => {
      sent.push({ url: String(input), headers: new Headers(init?.headers) });
      return fetch(input, init);
    };
    const core = await createAppCore({
      userDataDir,
      vault: new CredentialVault({ service: testService }),
      launchPaperExchange,
      allowedOrigins: [ORIGIN],
      fetch: recordingFetch,
    });
    cores.push(core);
    const demo = await core.addProfile({
      name: 'Demo',
      baseUrl: other.baseUrl,
      demoTrading: true,
      locale: 'zh-CN',
    });
    expect(demo).toMatchObject({ kind: 'demo', selected: false, baseUrl: other.baseUrl });
    const onPaper = nextEvent(core, 'main', 'poll.data', (payload) => 'data' in payload);
    await value(core, 'poll.subscribe', {
      key: { endpointId: 'E11', params: { productType: 'USDT-FUTURES' } },
    });
    await onPaper;
    // The subscription follows the window onto the newly selected profile's exchange.
    const onDemo = nextEvent(core, 'main', 'poll.data', (payload) => 'data' in payload);
    await value(core, 'profiles.select', { profileId: demo.id });
    await onDemo;
    const demoRequests = sent.filter((request) => request.url.startsWith(other.baseUrl));
    expect(demoRequests.length).toBeGreaterThan(0);
    for (const request of demoRequests) {
      expect(request.headers.get('paptrading')).toBe('1');
      expect(request.headers.get('locale')).toBe('zh-CN');
    }
    expect(sent.filter((request) => !request.url.startsWith(other.baseUrl)).length).toBeGreaterThan(0);
    for (const request of sent.filter((r) => !r.url.startsWith(other.baseUrl))) {
      expect(request.headers.get('paptrading')).toBeNull();
    }
  });

  it('refuses keys for the Paper profile, which has its own', async () => {
    const core = await startCore(await freshFolder());
    const result = await call(core, 'vault.set', {
      profileId: 'paper',
      apiKey: 'bg_0123456789abcdef',
      secretKey: '0123456789abcdef0123',
      passphrase: 'pass',
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'PAPER_HAS_OWN_KEYS' } });
  });
});

describe.skipIf(keychainTestsSkipped)('app core with a live profile and keys in the keychain', () => {
  let live: RunningExchange;
  beforeAll(async () => {
    live = await startExchange({ dataDir: await freshFolder(), log: () => {} });
    exchanges.push(live);
  });

  it('selects a profile without keys but refuses to trade until keys are stored, then trades', async () => {
    const core = await startCore(await freshFolder());
    const profile = await core.addProfile({ name: 'Second exchange', baseUrl: live.baseUrl });
    try {
      const selected = await value<ProfileView>(core, 'profiles.select', { profileId: profile.id });
      expect(selected).toMatchObject({ kind: 'live', selected: true, vault: { state: 'empty' } });

      const refused = await call(core, 'orders.place', marketBuy);
      expect(refused).toMatchObject({ ok: false, error: { code: 'NO_CREDENTIALS' } });
      if (!refused.ok) expect(refused.error.message).toMatch(/no API key stored/);
      expect(await value(core, 'vault.test', { profileId: profile.id })).toMatchObject({
        ok: false,
        code: 'NO_CREDENTIALS',
      });
      expect(await value<OutboxEntry[]>(core, 'outbox.list')).toEqual([]);

      const { apiKey, secretKey, passphrase } = live.account;
      const stored = await value(core, 'vault.set', { profileId: profile.id, apiKey, secretKey, passphrase });
      const status = await value<{ state: string; maskedKey: string }>(core, 'vault.status', {
        profileId: profile.id,
      });
      expect(stored).toEqual(status);
      expect(status.state).toBe('stored');
      expect(status.maskedKey).not.toBe(apiKey);
      expect(status.maskedKey.slice(-4)).toBe(apiKey.slice(-4));
      expect(await value(core, 'vault.test', { profileId: profile.id })).toMatchObject({
        ok: true,
        code: null,
      });

      const placed = await value<{ entries: OutboxEntry[] }>(core, 'orders.place', marketBuy);
      expect(placed.entries[0]).toMatchObject({ state: 'accepted' });
      const direct = exchangeClient(live.baseUrl, live.account);
      try {
        const detail = await direct.client.call(orderInfo, { orderId: placed.entries[0]?.orderId ?? '' });
        expect(detail).toMatchObject({ symbol: 'BTCUSDT' });
      } finally {
        direct.dispose();
      }

      // Back on Paper: its own outbox, its own exchange.
      await value(core, 'profiles.select', { profileId: 'paper' });
      expect(await value<OutboxEntry[]>(core, 'outbox.list')).toEqual([]);

      for (const answer of answers) {
        expect(answer).not.toContain(secretKey);
        expect(answer).not.toContain(passphrase);
        expect(answer).not.toContain(apiKey);
      }
    } finally {
      await value(core, 'vault.delete', { profileId: profile.id });
    }
  });

  it('answers vault.test with the exchange’s own code when the keys are wrong', async () => {
    const core = await startCore(await freshFolder());
    const profile = await core.addProfile({ name: 'Wrong keys', baseUrl: live.baseUrl });
    try {
      await value(core, 'vault.set', {
        profileId: profile.id,
        apiKey: `bg_${'0'.repeat(32)}`,
        secretKey: 'f'.repeat(64),
        passphrase: 'nope',
      });
      const result = await value<{ ok: boolean; code: string | null; message: string }>(core, 'vault.test', {
        profileId: profile.id,
      });
      expect(result.ok).toBe(false);
      expect(result.code).toMatch(/^4\d{4}$/);
      expect(result.message.length).toBeGreaterThan(0);
    } finally {
      await value(core, 'vault.delete', { profileId: profile.id });
    }
  });
});
