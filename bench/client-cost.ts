// What the main process's API client costs per signed request on its own: checking and encoding
// the parameters, signing, and checking the answer, timed as pure CPU work on a real captured
// answer; then a handful of real calls through the client beside a bare fetch of the same URL
// with the same headers, paced within the exchange's limits so neither side waits for a slot.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EndpointDefinition } from '../shared/api/endpoint';
import { batchPlaceOrder, ordersPending } from '../shared/api/endpoints';
import { envelopeSchema } from '../shared/api/envelope';
import { SUCCESS_CODE } from '../shared/api/error-codes';
import { AUTH_HEADERS } from '../shared/signing';
import { startTestExchange } from '../exchange/testing/test-exchange';
import { RateBudget } from '../electron/core/api/rate-budget';
import { encodeBody, encodeQuery, signRequest } from '../electron/core/api/request-signing';
import { ServerClock } from '../electron/core/api/server-clock';
import { createApiClient } from '../electron/core/api/signed-client';
import type { Credentials } from '../electron/core/api/signed-client';

/** Minimum time each pure step is repeated for, after its warm-up. */
const PURE_STEP_MS = 400;
const PURE_WARM_UP_CALLS = 300;
const RESTING_ORDERS = 20;
const ORDERS_PER_BATCH = 10;
const TIMED_CALLS_EACH = 20;
const WARM_UP_CALLS_EACH = 3;
/** One request every 150 ms, client and bare together: under E17's 10/s per UID. */
const PACE_MS = 150;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface PureCost {
  readonly label: string;
  readonly checkAndEncodeUs: number;
  readonly signUs: number;
  readonly answerUs: number;
  readonly answerBytes: number;
}

function microsecondsPerCall(work: () => number): number {
  // Summed and read at the end, so the optimiser cannot drop the work being timed.
  let sink = 0;
  for (let index = 0; index < PURE_WARM_UP_CALLS; index++) sink += work();
  let calls = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < PURE_STEP_MS) {
    for (let index = 0; index < 100; index++) sink += work();
    calls += 100;
    elapsed = performance.now() - started;
  }
  if (Number.isNaN(sink)) throw new Error('the timed work returned NaN');
  return (elapsed * 1_000) / calls;
}

/** The client's own steps for one request, in the order it takes them (signed-client.ts). */
function measurePureCost(
  label: string,
  endpoint: EndpointDefinition,
  params: unknown,
  credentials: Credentials,
  answerText: string,
): PureCost {
  const encode = (): { query: string; body: string } => {
    const parsed = endpoint.request.safeParse(params, { reportInput: true });
    if (!parsed.success) throw new Error(`${endpoint.id} parameters rejected: ${parsed.error.message}`);
    return endpoint.method === 'GET'
      ? { query: encodeQuery(parsed.data), body: '' }
      : { query: '', body: encodeBody(parsed.data) };
  };
  const encoded = encode();
  const checkAndEncodeUs = microsecondsPerCall(() => {
    const { query, body } = encode();
    return query.length + body.length;
  });
  const signUs = microsecondsPerCall(
    () =>
      signRequest({
        secretKey: credentials.secretKey,
        timestamp: String(Date.now()),
        method: endpoint.method,
        path: endpoint.path,
        query: encoded.query,
        body: encoded.body,
      }).length,
  );
  const checkAnswer = (): number => {
    const envelope = envelopeSchema.parse(JSON.parse(answerText));
    if (envelope.code !== SUCCESS_CODE) throw new Error(`${endpoint.id} answered ${envelope.code}`);
    const data = endpoint.response.safeParse(envelope.data);
    if (!data.success) throw new Error(`${endpoint.id} answer rejected: ${data.error.message}`);
    return envelope.requestTime;
  };
  checkAnswer();
  const answerUs = microsecondsPerCall(checkAnswer);
  return { label, checkAndEncodeUs, signUs, answerUs, answerBytes: Buffer.byteLength(answerText) };
}

function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function batchOf(side: 'buy' | 'sell', price: string, batch: number) {
  return {
    symbol: 'BTCUSDT',
    productType: 'USDT-FUTURES',
    marginCoin: 'USDT',
    marginMode: 'crossed',
    orderList: Array.from({ length: ORDERS_PER_BATCH }, (_, index) => ({
      side,
      tradeSide: 'open',
      orderType: 'limit',
      force: 'gtc',
      price,
      size: '0.001',
      clientOid: `bench-client-cost-${batch}-${index}`,
    })),
  };
}

export async function runClientCostBench(): Promise<string[]> {
  const test = await startTestExchange();
  const credentials: Credentials = test.exchange.account;
  const clock = new ServerClock();
  const budget = new RateBudget({ clock });
  const statuses: number[] = [];
  const answers = new Map<string, string>();
  // Records answers for the setup only; the timed client below fetches with nothing in between.
  const recordingClient = createApiClient({
    baseUrl: test.exchange.baseUrl,
    credentials: () => credentials,
    clock,
    budget,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      answers.set(new URL(String(input)).pathname, await response.clone().text());
      return response;
    },
  });
  const client = createApiClient({
    baseUrl: test.exchange.baseUrl,
    credentials: () => credentials,
    clock,
    budget,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    },
  });
  try {
    await client.syncClock();
    // Buys far below the paused market's price rest on the book, so E17 answers a full page.
    for (let batch = 0; batch < RESTING_ORDERS / ORDERS_PER_BATCH; batch++) {
      const placed = await recordingClient.call(batchPlaceOrder, batchOf('buy', '50000', batch));
      if (placed.failureList.length > 0) {
        throw new Error(`resting orders refused: ${JSON.stringify(placed.failureList[0])}`);
      }
    }
    const pendingParams = { productType: 'USDT-FUTURES' };
    const pending = await recordingClient.call(ordersPending, pendingParams);
    const restingCount = pending.entrustedList?.length ?? 0;
    const pendingAnswer = answers.get(ordersPending.path);
    const placeAnswer = answers.get(batchPlaceOrder.path);
    if (pendingAnswer === undefined || placeAnswer === undefined) throw new Error('no answer recorded');

    const pure = [
      measurePureCost(
        `E17 orders-pending (GET, ${restingCount} orders back)`,
        ordersPending,
        pendingParams,
        credentials,
        pendingAnswer,
      ),
      measurePureCost(
        `E1 batch-place-order (POST, ${ORDERS_PER_BATCH} orders)`,
        batchPlaceOrder,
        batchOf('buy', '50000', 99),
        credentials,
        placeAnswer,
      ),
    ];

    // The bare request: the URL and headers the client sends, signed afresh before each timing.
    const parsed = ordersPending.request.parse(pendingParams);
    const query = encodeQuery(parsed);
    const url = `${test.exchange.baseUrl}${ordersPending.path}?${query}`;
    const bareHeaders = (): Record<string, string> => {
      const timestamp = String(clock.now());
      return {
        'Content-Type': 'application/json',
        [AUTH_HEADERS.locale]: 'en-US',
        [AUTH_HEADERS.key]: credentials.apiKey,
        [AUTH_HEADERS.passphrase]: credentials.passphrase,
        [AUTH_HEADERS.timestamp]: timestamp,
        [AUTH_HEADERS.sign]: signRequest({
          secretKey: credentials.secretKey,
          timestamp,
          method: 'GET',
          path: ordersPending.path,
          query,
          body: '',
        }),
      };
    };
    const throughClient = async (): Promise<number> => {
      const started = performance.now();
      await client.call(ordersPending, pendingParams);
      return (performance.now() - started) * 1_000;
    };
    const bareFetch = async (): Promise<number> => {
      const headers = bareHeaders();
      const started = performance.now();
      const response = await fetch(url, { method: 'GET', headers });
      const text = await response.text();
      const elapsed = (performance.now() - started) * 1_000;
      statuses.push(response.status);
      if (response.status !== 200 || !text.includes(`"code":"${SUCCESS_CODE}"`)) {
        throw new Error(`bare fetch answered ${response.status}: ${text.slice(0, 200)}`);
      }
      return elapsed;
    };

    // Let the setup's requests leave the exchange's one-second window first.
    await sleep(1_100);
    const clientUs: number[] = [];
    const bareUs: number[] = [];
    statuses.length = 0;
    for (let round = 0; round < WARM_UP_CALLS_EACH + TIMED_CALLS_EACH; round++) {
      const timed = round >= WARM_UP_CALLS_EACH;
      // Alternating the order keeps one side from always following the other.
      const [first, second] = round % 2 === 0 ? [throughClient, bareFetch] : [bareFetch, throughClient];
      const firstUs = await first();
      await sleep(PACE_MS);
      const secondUs = await second();
      await sleep(PACE_MS);
      if (!timed) continue;
      (first === throughClient ? clientUs : bareUs).push(firstUs);
      (second === throughClient ? clientUs : bareUs).push(secondUs);
    }
    const refused = statuses.filter((status) => status === 429).length;
    const clientP50 = median(clientUs);
    const bareP50 = median(bareUs);

    const us = (value: number) => value.toFixed(1).padStart(7);
    const whole = (value: number) => Math.round(value).toLocaleString('en-US').padStart(6);
    return [
      'API client (electron/core/api), per signed request, paper exchange in this process with its rate limits',
      `  Pure CPU work, no network, in µs per request (each step repeated for ≥ ${PURE_STEP_MS} ms):`,
      ...pure.map(
        (cost) =>
          `    ${cost.label.padEnd(42)} check+encode ${us(cost.checkAndEncodeUs)}   sign ${us(cost.signUs)}   ` +
          `answer parse+check (${cost.answerBytes.toLocaleString('en-US')} B) ${us(cost.answerUs)}   ` +
          `total ${us(cost.checkAndEncodeUs + cost.signUs + cost.answerUs)}`,
      ),
      `  End to end, E17 over loopback (the exchange's own work included in both), ${TIMED_CALLS_EACH} calls each after ${WARM_UP_CALLS_EACH} warm-up, one every ${PACE_MS} ms:`,
      `    through the client (whole call)            p50 ${whole(clientP50)} µs   min ${whole(Math.min(...clientUs))} µs`,
      `    bare fetch + text (headers pre-signed)     p50 ${whole(bareP50)} µs   min ${whole(Math.min(...bareUs))} µs`,
      `    client minus bare at p50: ${Math.round(clientP50 - bareP50).toLocaleString('en-US')} µs` +
        `   (429s: ${refused}${refused > 0 ? ', figures include back-off waits' : ''})`,
    ];
  } finally {
    client.dispose();
    recordingClient.dispose();
    budget.dispose();
    await test.stop();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  for (const text of await runClientCostBench()) console.log(text);
}
