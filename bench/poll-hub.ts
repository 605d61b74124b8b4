// The poll hub's upstream load: requests per second it sends for one window, then for three
// windows subscribed to the same keys. Sharing is right when the two figures are equal.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ENDPOINTS } from '../shared/api/endpoints';
import { startTestExchange } from '../exchange/testing/test-exchange';
import { RateBudget } from '../electron/core/api/rate-budget';
import { ServerClock } from '../electron/core/api/server-clock';
import { createApiClient } from '../electron/core/api/signed-client';
import { PollHub } from '../electron/core/poll-hub/poll-hub';
import type { QueryKey } from '../electron/core/poll-hub/query-key';

export interface PollHubLoad {
  readonly windows: number;
  readonly seconds: number;
  /** Polls sent upstream per second, all keys together. */
  readonly requestsPerSecond: number;
  /** What the hub's pacing aims at (sum of 1 / interval over the keys): equal for any number of windows. */
  readonly plannedPerSecond: number;
  /** The same, per endpoint id. */
  readonly perEndpoint: Readonly<Record<string, number>>;
  /** Answers pushed to windows per second (requests times the windows that share them). */
  readonly updatesPerSecond: number;
  readonly rateLimited: number;
}

export interface PollHubFigures {
  readonly keys: number;
  readonly oneWindow: PollHubLoad;
  readonly threeWindows: PollHubLoad;
}

const RUN_MS = 4_000;
/** Lets the exchange's sliding windows empty between the two runs. */
const SETTLE_MS = 1_200;

const KEYS: readonly QueryKey[] = [
  { endpointId: 'E11', params: { productType: 'USDT-FUTURES' } },
  { endpointId: 'E11', params: { productType: 'COIN-FUTURES' } },
  ...['BTCUSDT', 'ETHUSDT', 'SOLUSDT'].map((symbol) => ({
    endpointId: 'E15',
    params: { symbol, productType: 'USDT-FUTURES' },
  })),
  ...['BTCUSDT', 'ETHUSDT'].map((symbol) => ({
    endpointId: 'E13',
    params: { symbol, productType: 'USDT-FUTURES', limit: '50' },
  })),
  { endpointId: 'E7', params: { productType: 'USDT-FUTURES' } },
  { endpointId: 'E17', params: { productType: 'USDT-FUTURES' } },
];

const POLLED_PATHS = new Map(ENDPOINTS.map((endpoint) => [endpoint.path, endpoint.id]));
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** `_root` matches the other benches' signature; this one runs the exchange in-process. */
export async function runPollHubBench(_root: string): Promise<PollHubFigures> {
  const test = await startTestExchange({ liveMarket: true });
  const clock = new ServerClock();
  const budget = new RateBudget({ clock });
  const sent: { endpointId: string; status: number }[] = [];
  const client = createApiClient({
    baseUrl: test.exchange.baseUrl,
    credentials: () => test.exchange.account,
    clock,
    budget,
    fetch: async (input, init) => {
      const endpointId = POLLED_PATHS.get(new URL(String(input)).pathname) ?? 'other';
      const entry = { endpointId, status: 0 };
      sent.push(entry);
      const response = await fetch(input, init);
      entry.status = response.status;
      return response;
    },
  });
  try {
    await client.syncClock();

    const run = async (windows: number): Promise<PollHubLoad> => {
      sent.length = 0;
      let updates = 0;
      const hub = new PollHub({ client, budget });
      for (let window = 0; window < windows; window++) {
        for (const key of KEYS) hub.subscribe(`window-${window}`, key, () => (updates += 1));
      }
      const startedAt = performance.now();
      await sleep(RUN_MS);
      const seconds = (performance.now() - startedAt) / 1_000;
      const plannedPerSecond = hub.stats().reduce((sum, key) => sum + 1_000 / key.intervalMs, 0);
      hub.dispose();
      const polls = sent.filter((entry) => entry.endpointId !== 'C1');
      const perEndpoint: Record<string, number> = {};
      for (const entry of polls) perEndpoint[entry.endpointId] = (perEndpoint[entry.endpointId] ?? 0) + 1;
      for (const id of Object.keys(perEndpoint)) perEndpoint[id] = (perEndpoint[id] ?? 0) / seconds;
      const figures: PollHubLoad = {
        windows,
        seconds,
        requestsPerSecond: polls.length / seconds,
        plannedPerSecond,
        perEndpoint,
        updatesPerSecond: updates / seconds,
        rateLimited: polls.filter((entry) => entry.status === 429).length,
      };
      await sleep(SETTLE_MS);
      return figures;
    };

    const oneWindow = await run(1);
    const threeWindows = await run(3);
    return { keys: KEYS.length, oneWindow, threeWindows };
  } finally {
    client.dispose();
    budget.dispose();
    await test.stop();
  }
}

/** The figures as lines to print. */
export function formatPollHubFigures(figures: PollHubFigures): string[] {
  const line = (load: PollHubLoad) =>
    `  ${load.windows} window(s): ${load.requestsPerSecond.toFixed(1).padStart(5)} upstream req/s (planned ${load.plannedPerSecond.toFixed(1)}), ` +
    `${load.updatesPerSecond.toFixed(1).padStart(5)} updates/s pushed, 429s: ${load.rateLimited}  (` +
    Object.entries(load.perEndpoint)
      .map(([id, rate]) => `${id} ${rate.toFixed(1)}`)
      .join(', ') +
    ')';
  const ratio = figures.threeWindows.requestsPerSecond / figures.oneWindow.requestsPerSecond;
  return [
    `Poll hub, ${figures.keys} keys, ${RUN_MS / 1_000} s per run (live paper market)`,
    line(figures.oneWindow),
    line(figures.threeWindows),
    `  three / one window = ${ratio.toFixed(2)} (aim: 1.00)`,
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  for (const text of formatPollHubFigures(await runPollHubBench(process.cwd()))) console.log(text);
}
