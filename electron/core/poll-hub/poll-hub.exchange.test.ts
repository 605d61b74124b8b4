// The poll hub against a paper exchange with its market running: every request it sends is
// recorded by a counting fetch, so the tests see exactly what reached the exchange.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { allPosition, ENDPOINTS } from '../../../shared/api/endpoints';
import { startTestExchange, type TestExchange } from '../../../exchange/testing/test-exchange';
import { RateBudget } from '../api/rate-budget';
import { ServerClock } from '../api/server-clock';
import { createApiClient, type ApiClient, type Credentials } from '../api/signed-client';
import { PollHub } from './poll-hub';
import type { PollUpdate } from './poll-update';
import type { QueryKey } from './query-key';

let exchange: TestExchange;
// One clock and one budget for the whole file, as in the app: the exchange's limiter remembers
// the previous test's requests, and so must the budget.
const clock = new ServerClock();
const budget = new RateBudget({ clock });
const hubs: PollHub[] = [];

beforeAll(async () => {
  exchange = await startTestExchange({ liveMarket: true });
});
afterEach(() => {
  for (const hub of hubs.splice(0)) hub.dispose();
});
afterAll(async () => {
  budget.dispose();
  // Polls cut off by dispose() can leave keep-alive sockets the server would wait on.
  exchange.exchange.app.server.closeAllConnections();
  await exchange.stop();
});

/** One request as it went out; `status` and `answeredAt` are set once its answer is read. */
interface Sent {
  readonly endpointId: string;
  readonly url: URL;
  readonly at: number;
  answeredAt: number | null;
  status: number;
}

const ENDPOINT_BY_PATH = new Map(ENDPOINTS.map((endpoint) => [endpoint.path, endpoint]));

function countingClient(
  sent: Sent[],
  credentials: Credentials | null = exchange.exchange.account,
): ApiClient {
  return createApiClient({
    baseUrl: exchange.exchange.baseUrl,
    credentials: () => credentials,
    clock,
    budget,
    fetch: async (input, init) => {
      const url = new URL(String(input));
      const entry: Sent = {
        endpointId: ENDPOINT_BY_PATH.get(url.pathname)?.id ?? url.pathname,
        url,
        at: performance.now(),
        answeredAt: null,
        status: 0,
      };
      sent.push(entry);
      const response = await fetch(input, init);
      const text = await response.text();
      entry.status = response.status;
      entry.answeredAt = performance.now();
      return new Response(text, { status: response.status, headers: response.headers });
    },
  });
}

function newHub(client: ApiClient): PollHub {
  const hub = new PollHub({ client, budget });
  hubs.push(hub);
  return hub;
}

/** Subscribes and collects what the window receives. */
function watch(hub: PollHub, windowId: string, key: QueryKey): PollUpdate[] {
  const received: PollUpdate[] = [];
  hub.subscribe(windowId, key, (update) => received.push(update));
  return received;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function statsFor(hub: PollHub, endpointId: string) {
  return hub.stats().filter((entry) => entry.endpointId === endpointId);
}

/** Requests of `endpointId` whose query matches `params` (every given parameter equal). */
function requestsFor(sent: Sent[], endpointId: string, params: Record<string, string> = {}): Sent[] {
  return sent.filter(
    (entry) =>
      entry.endpointId === endpointId &&
      Object.entries(params).every(([name, value]) => entry.url.searchParams.get(name) === value),
  );
}

const POLLED_KEYS: readonly QueryKey[] = [
  { endpointId: 'E11', params: { productType: 'USDT-FUTURES' } },
  { endpointId: 'E15', params: { symbol: 'BTCUSDT', productType: 'USDT-FUTURES' } },
  { endpointId: 'E13', params: { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', limit: '20' } },
  { endpointId: 'E7', params: { productType: 'USDT-FUTURES', marginCoin: 'USDT' } },
  { endpointId: 'E17', params: { productType: 'USDT-FUTURES' } },
];

/** The same keys as another window might spell them. */
function respelled(key: QueryKey): QueryKey {
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(key.params)) {
    params[name] = typeof value === 'string' && name !== 'limit' ? value.toLowerCase() : value;
  }
  return { endpointId: key.endpointId, params };
}

describe('PollHub against the paper exchange', () => {
  it('sends exactly the same upstream requests for three windows as for one', async () => {
    const runMs = 1_500;

    const oneSent: Sent[] = [];
    const oneHub = newHub(countingClient(oneSent));
    const alone = POLLED_KEYS.map((key) => watch(oneHub, 'solo', key));
    await sleep(runMs);
    const oneIntervals = oneHub.stats().map((entry) => [entry.queryKey, entry.intervalMs]);
    oneHub.dispose();
    expect(alone.every((updates) => updates.length > 0 && updates.every((update) => update.ok))).toBe(true);

    const threeSent: Sent[] = [];
    const threeHub = newHub(countingClient(threeSent));
    const windows = ['a', 'b', 'c'].map((windowId, index) =>
      POLLED_KEYS.map((key) => watch(threeHub, windowId, index === 0 ? key : respelled(key))),
    );
    await sleep(runMs);
    const stats = threeHub.stats();
    // One key per distinct request, shared by the three windows, paced as for one window.
    expect(stats).toHaveLength(POLLED_KEYS.length);
    expect(stats.every((entry) => entry.subscribers === 3)).toBe(true);
    expect(stats.map((entry) => [entry.queryKey, entry.intervalMs])).toEqual(oneIntervals);

    const [a, b, c] = windows;
    for (const [index, key] of POLLED_KEYS.entries()) {
      const received = a?.[index]?.length ?? 0;
      // Every upstream answer went to all three windows; no window caused a request of its own.
      expect(b?.[index]).toHaveLength(received);
      expect(c?.[index]).toHaveLength(received);
      const answered = requestsFor(threeSent, key.endpointId).filter((entry) => entry.status !== 0);
      expect(answered.length - received).toBeGreaterThanOrEqual(0);
      expect(answered.length - received).toBeLessThanOrEqual(1);
      expect(stats[index]?.upstreamRequests).toBeGreaterThanOrEqual(answered.length);
      // Same rate as one window, give or take the poll cut off at the end.
      const oneCount = requestsFor(oneSent, key.endpointId).length;
      const threeCount = requestsFor(threeSent, key.endpointId).length;
      expect(Math.abs(threeCount - oneCount)).toBeLessThanOrEqual(Math.max(2, oneCount * 0.15));
    }
  });

  it('never overlaps a poll with itself: the next starts after the answer', async () => {
    const sent: Sent[] = [];
    const hub = newHub(countingClient(sent));
    watch(hub, 'w', { endpointId: 'E11', params: { productType: 'USDT-FUTURES' } });
    await sleep(1_000);
    hub.dispose();
    const polls = requestsFor(sent, 'E11');
    // 14 a second at most (70% of 20), so about 13 in a second.
    expect(polls.length).toBeGreaterThanOrEqual(8);
    expect(polls.length).toBeLessThanOrEqual(15);
    for (let index = 1; index < polls.length; index++) {
      expect(polls[index]?.at).toBeGreaterThanOrEqual(polls[index - 1]?.answeredAt ?? Infinity);
    }
  });

  it('keeps a burst of many windows on many keys within every limit, without a 429, and lets user calls through', async () => {
    const sent: Sent[] = [];
    const client = countingClient(sent);
    const hub = newHub(client);
    const symbols = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'];
    const keys: QueryKey[] = [
      ...['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'].map((productType) => ({
        endpointId: 'E11',
        params: { productType },
      })),
      ...symbols.flatMap((symbol) =>
        ['scale0', 'scale1', 'scale2', 'scale3'].map((precision) => ({
          endpointId: 'E15',
          params: { symbol, productType: 'USDT-FUTURES', precision },
        })),
      ),
      ...symbols.flatMap((symbol) =>
        ['10', '50'].map((limit) => ({
          endpointId: 'E13',
          params: { symbol, productType: 'USDT-FUTURES', limit },
        })),
      ),
      ...['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'].map((productType) => ({
        endpointId: 'E7',
        params: { productType },
      })),
      ...symbols.map((symbol) => ({ endpointId: 'E17', params: { productType: 'USDT-FUTURES', symbol } })),
    ];
    const received: PollUpdate[] = [];
    for (let window = 0; window < 6; window++) {
      for (const [index, key] of keys.entries()) {
        if ((index + window) % 3 === 0 || window === 0) {
          hub.subscribe(`window-${window}`, window % 2 === 0 ? key : respelled(key), (update) =>
            received.push(update),
          );
        }
      }
    }
    expect(hub.stats()).toHaveLength(keys.length);
    const startedAt = performance.now();

    await sleep(500);
    const userLatencies: number[] = [];
    for (let call = 0; call < 3; call++) {
      const started = performance.now();
      await client.call(allPosition, { productType: 'USDT-FUTURES' });
      userLatencies.push(performance.now() - started);
      await sleep(700);
    }
    await sleep(500);
    hub.dispose();
    const endedAt = performance.now();

    expect(sent.filter((entry) => entry.status === 429)).toEqual([]);
    expect(received.filter((update) => !update.ok)).toEqual([]);
    for (const endpoint of ENDPOINTS) {
      const times = requestsFor(sent, endpoint.id)
        .map((entry) => entry.at)
        .sort((x, y) => x - y);
      const limit = endpoint.rateLimit.perSecond;
      for (let index = limit; index < times.length; index++) {
        expect((times[index] ?? 0) - (times[index - limit] ?? 0)).toBeGreaterThanOrEqual(1_000);
      }
    }
    // Polling used 70% of each limit, evenly: never more, and not far less.
    for (const [endpointId, perSecond] of [
      ['E15', 20],
      ['E13', 10],
    ] as const) {
      const times = requestsFor(sent, endpointId).map((entry) => entry.at);
      const polledPerSecond = (times.length * 1_000) / (endedAt - startedAt);
      expect(polledPerSecond).toBeGreaterThan(perSecond * 0.7 * 0.6);
      expect(polledPerSecond).toBeLessThanOrEqual(perSecond * 0.7 + 1);
      // Spread out: no second holds more than its share, give or take one poll.
      const share = Math.ceil(perSecond * 0.7) + 1;
      for (let index = share; index < times.length; index++) {
        expect((times[index] ?? 0) - (times[index - share] ?? 0)).toBeGreaterThanOrEqual(1_000);
      }
    }
    // A user's request overtakes queued polls: it waits for at most one free slot.
    expect(Math.max(...userLatencies)).toBeLessThan(1_200);
  }, 20_000);

  it('stops polling a key when no visible window needs it, and keeps polling a key a visible window shares', async () => {
    const sent: Sent[] = [];
    const hub = newHub(countingClient(sent));
    const shared: QueryKey = { endpointId: 'E11', params: { productType: 'USDT-FUTURES' } };
    const own: QueryKey = { endpointId: 'E15', params: { symbol: 'ETHUSDT', productType: 'USDT-FUTURES' } };
    const aShared = watch(hub, 'a', shared);
    const aOwn = watch(hub, 'a', own);
    const bShared = watch(hub, 'b', respelled(shared));
    await sleep(400);
    expect(aOwn.length).toBeGreaterThan(0);

    hub.setWindowVisible('a', false);
    expect(statsFor(hub, 'E15')[0]).toMatchObject({ polling: false, subscribers: 1, visibleSubscribers: 0 });
    expect(statsFor(hub, 'E11')[0]).toMatchObject({ polling: true, subscribers: 2, visibleSubscribers: 1 });
    await sleep(100);
    const ownRequests = requestsFor(sent, 'E15').length;
    const sharedRequests = requestsFor(sent, 'E11').length;
    const aReceived = aShared.length + aOwn.length;
    const bReceived = bShared.length;
    await sleep(700);
    expect(requestsFor(sent, 'E15')).toHaveLength(ownRequests);
    expect(requestsFor(sent, 'E11').length).toBeGreaterThan(sharedRequests + 3);
    expect(bShared.length).toBeGreaterThan(bReceived + 3);
    // A hidden window is not woken by answers.
    expect(aShared.length + aOwn.length).toBe(aReceived);

    // Shown again: the latest answers at once, and its own key polled again.
    hub.setWindowVisible('a', true);
    expect(aShared.length + aOwn.length).toBe(aReceived + 2);
    await sleep(400);
    expect(requestsFor(sent, 'E15').length).toBeGreaterThan(ownRequests);

    // Closed: its subscriptions end; the shared key goes on for b alone.
    hub.unsubscribeWindow('a');
    expect(statsFor(hub, 'E15')).toEqual([]);
    expect(statsFor(hub, 'E11')[0]).toMatchObject({ polling: true, subscribers: 1 });

    hub.setWindowVisible('b', false);
    expect(statsFor(hub, 'E11')[0]).toMatchObject({ polling: false, subscribers: 1 });
    await sleep(100);
    const stoppedAt = sent.length;
    await sleep(600);
    expect(sent.length).toBe(stoppedAt);
  });

  it('re-paces the keys of an endpoint as keys come and go', async () => {
    const hub = newHub(countingClient([]));
    const depth = (symbol: string): QueryKey => ({
      endpointId: 'E15',
      params: { symbol, productType: 'USDT-FUTURES' },
    });
    const stopBtc = hub.subscribe('w', depth('BTCUSDT'), () => {});
    hub.subscribe('w', { endpointId: 'E11', params: { productType: 'USDT-FUTURES' } }, () => {});
    expect(statsFor(hub, 'E15').map((entry) => entry.intervalMs)).toEqual([72]);

    const others = ['ETHUSDT', 'SOLUSDT', 'BTCPERP'].map((symbol) =>
      hub.subscribe('w', depth(symbol), () => {}),
    );
    // Four keys share 14 polls a second; tickers, another endpoint, keeps its own pace.
    expect(statsFor(hub, 'E15').map((entry) => entry.intervalMs)).toEqual([286, 286, 286, 286]);
    expect(statsFor(hub, 'E11').map((entry) => entry.intervalMs)).toEqual([72]);

    // A hidden window's keys no longer count.
    hub.setWindowVisible('w', false);
    hub.subscribe('other', depth('BTCUSDT'), () => {});
    expect(statsFor(hub, 'E15').find((entry) => entry.polling)?.intervalMs).toBe(72);
    hub.setWindowVisible('w', true);

    for (const stop of others) stop();
    stopBtc();
    expect(statsFor(hub, 'E15').map((entry) => [entry.subscribers, entry.intervalMs])).toEqual([[1, 72]]);
  });

  it('pushes failures as plain data and backs off while they last', async () => {
    const sent: Sent[] = [];
    const hub = newHub(countingClient(sent, null));
    const updates = watch(hub, 'w', { endpointId: 'E7', params: { productType: 'USDT-FUTURES' } });
    await sleep(2_200);
    hub.dispose();
    expect(sent).toEqual([]);
    expect(updates.length).toBeGreaterThanOrEqual(3);
    const failures = updates.map((update) => {
      if (update.ok) throw new Error('expected a failure');
      return update.error;
    });
    expect(failures[0]).toMatchObject({ code: 'NO_CREDENTIALS', kind: 'no_credentials' });
    expect(failures[0]?.message).toContain('Settings');
    // Crosses IPC as it is.
    expect(structuredClone(updates[0])).toEqual(updates[0]);
    expect(failures.map((failure) => failure.retryInMs).slice(0, 3)).toEqual([572, 1_144, 2_288]);
    const gaps = updates
      .slice(1)
      .map((update, index) => update.receivedAt - (updates[index]?.receivedAt ?? 0));
    expect(gaps[0]).toBeGreaterThanOrEqual(560);
    expect(gaps[1]).toBeGreaterThanOrEqual(1_130);
  });

  it('stops every poll on dispose and refuses later subscriptions', async () => {
    const sent: Sent[] = [];
    const hub = newHub(countingClient(sent));
    for (const key of POLLED_KEYS) watch(hub, 'w', key);
    await sleep(300);
    hub.dispose();
    await sleep(50);
    const count = sent.length;
    await sleep(500);
    expect(sent.length).toBe(count);
    expect(hub.stats()).toEqual([]);
    expect(() => hub.subscribe('w', POLLED_KEYS[0] ?? { endpointId: 'E11', params: {} }, () => {})).toThrow(
      'stopped',
    );
  });
});
