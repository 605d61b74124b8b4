// The rate budget against the paper exchange's real limiter, which allows exactly `perSecond`
// requests per sliding second: bursts are paced without a single 429, a user's request
// overtakes queued polling, and a 429 caused by another program backs off and recovers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_TYPES } from '../../../shared/api/enums';
import { maxTransferable, setLeverage, tickers } from '../../../shared/api/endpoints';
import type { CreateAccountResult } from '../../../shared/api/paper-admin';
import { startTestExchange, type TestExchange } from '../../../exchange/testing/test-exchange';
import { RateBudget } from './rate-budget';
import { ServerClock } from './server-clock';
import { createApiClient, type ApiClient, type Credentials } from './signed-client';

let exchange: TestExchange;
const clock = new ServerClock();
const budget = new RateBudget({ clock });

beforeAll(async () => {
  exchange = await startTestExchange();
});
afterAll(async () => {
  budget.dispose();
  await exchange.stop();
});

/** One request as it went out: when it was sent, and the status once answered (0 before). */
interface Sent {
  readonly url: string;
  readonly body: string;
  readonly at: number;
  status: number;
}

function clientFor(credentials: Credentials | null, sent: Sent[]): ApiClient {
  return createApiClient({
    baseUrl: exchange.exchange.baseUrl,
    credentials: () => credentials,
    clock,
    budget,
    fetch: async (input, init) => {
      const entry: Sent = {
        url: String(input),
        body: typeof init?.body === 'string' ? init.body : '',
        at: performance.now(),
        status: 0,
      };
      sent.push(entry);
      const response = await fetch(input, init);
      entry.status = response.status;
      return response;
    },
  });
}

async function newAccount(): Promise<CreateAccountResult> {
  return (await exchange.newAccount()).account;
}

function statsOf(endpointId: string, keyPart: string) {
  return budget
    .stats()
    .endpoints.find((entry) => entry.endpointId === endpointId && entry.key.includes(keyPart));
}

const BTC = { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT' } as const;

describe('rate budget against the exchange', () => {
  it('paces a burst of 100 tickers reads from several subscribers without a 429, merging identical ones', async () => {
    const sent: Sent[] = [];
    const client = clientFor(null, sent);
    const subscribers = 5;
    const readsEach = 20;
    const results = await Promise.all(
      Array.from({ length: subscribers }, async (_, subscriber) => {
        let ok = 0;
        for (let read = 0; read < readsEach; read++) {
          const productType = PRODUCT_TYPES[(subscriber + read) % PRODUCT_TYPES.length] ?? 'USDT-FUTURES';
          const list = await client.call(
            tickers,
            { productType: subscriber % 2 === 0 ? productType : productType.toLowerCase() },
            { priority: 'background' },
          );
          if (Array.isArray(list)) ok += 1;
        }
        return ok;
      }),
    );
    expect(results.reduce((sum, ok) => sum + ok, 0)).toBe(100);
    const tickerRequests = sent.filter((entry) => entry.url.includes(tickers.path));
    expect(tickerRequests.every((entry) => entry.status === 200)).toBe(true);
    // More than the limit of 20 per second went out, so the budget had to pace them.
    expect(tickerRequests.length).toBeGreaterThan(20);
    expect(tickerRequests.length).toBeLessThan(100);
    expect(statsOf('E11', 'public')).toMatchObject({ last429At: null, recentErrorCodes: [] });
  });

  it('spaces 30 leverage changes (5 per second) over six windows without a 429', async () => {
    const sent: Sent[] = [];
    const client = clientFor(await newAccount(), sent);
    await client.syncClock();
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        client.call(setLeverage, { ...BTC, leverage: String(index + 1) }),
      ),
    );
    const elapsed = performance.now() - started;
    expect(results.map((result) => result.crossMarginLeverage)).toHaveLength(30);
    const writes = sent.filter((entry) => entry.url.includes(setLeverage.path));
    expect(writes.map((entry) => entry.status)).toEqual(Array(30).fill(200));
    // Five windows must pass before the 26th to 30th requests may go.
    expect(elapsed).toBeGreaterThanOrEqual(5_000);
    expect(elapsed).toBeLessThan(10_000);
    // No sliding second holds more than 5 of them.
    const times = writes.map((entry) => entry.at).sort((a, b) => a - b);
    for (let index = 5; index < times.length; index++) {
      expect((times[index] ?? 0) - (times[index - 5] ?? 0)).toBeGreaterThanOrEqual(1_000);
    }
  }, 15_000);

  it("lets a user's request overtake queued background requests", async () => {
    const sent: Sent[] = [];
    const client = clientFor(await newAccount(), sent);
    await client.syncClock();
    const background = Array.from({ length: 10 }, (_, index) =>
      client.call(setLeverage, { ...BTC, leverage: String(index + 1) }, { priority: 'background' }),
    );
    const user = client.call(setLeverage, { ...BTC, leverage: '50' }, { priority: 'user' });
    await Promise.all([...background, user]);
    const order = sent
      .filter((entry) => entry.url.includes(setLeverage.path))
      .map((entry) => (JSON.parse(entry.body) as { leverage: string }).leverage);
    // Five background requests had the first window; the user's went first in the second.
    expect(order).toEqual(['1', '2', '3', '4', '5', '50', '6', '7', '8', '9', '10']);
    expect(sent.every((entry) => entry.status === 200)).toBe(true);
  });

  it('promotes a queued background read when a user asks for the same thing', async () => {
    const sent: Sent[] = [];
    const client = clientFor(await newAccount(), sent);
    await client.syncClock();
    const coins = ['USDT', 'BTC', 'USDC', 'ETH', 'SOL', 'XRP', 'DOGE', 'ADA', 'BNB'];
    const polls = coins.map((coin) => client.call(maxTransferable, { coin }, { priority: 'background' }));
    const user = client.call(maxTransferable, { coin: 'BNB' });
    const [bnbPoll, bnbUser] = await Promise.all([polls.at(-1), user, ...polls]);
    expect(bnbUser).toEqual(bnbPoll);
    const order = sent
      .filter((entry) => entry.url.includes(maxTransferable.path))
      .map((entry) => new URL(entry.url).searchParams.get('coin'));
    // 3 per second: three polls first, then the promoted BNB read, sent once for both callers.
    expect(order).toEqual(['USDT', 'BTC', 'USDC', 'BNB', 'ETH', 'SOL', 'XRP', 'DOGE', 'ADA']);
  });

  it('backs off after a 429 caused by another program on the same UID, and recovers', async () => {
    const { account, client: otherProgram } = await exchange.newAccount();
    const sent: Sent[] = [];
    const client = clientFor(account, sent);
    await client.syncClock();
    // The other program spends the whole window of E14 (3/s) behind the budget's back.
    for (let index = 0; index < 3; index++) {
      const answer = await otherProgram.get(maxTransferable.path, { coin: 'USDT' });
      expect(answer.status).toBe(200);
    }
    const result = await client.call(maxTransferable, { coin: 'USDT' });
    expect(result.maxTransfer).toBe('100000');

    const reads = sent.filter((entry) => entry.url.includes(maxTransferable.path));
    expect(reads[0]?.status).toBe(429);
    expect(reads.at(-1)?.status).toBe(200);
    // Each retry waited out a back-off at least twice as long as the one before.
    const gaps = reads.slice(1).map((entry, index) => entry.at - (reads[index]?.at ?? 0));
    gaps.forEach((gap, index) => expect(gap).toBeGreaterThanOrEqual(250 * 2 ** index - 5));
    const stats = statsOf('E14', account.uid);
    expect(stats?.last429At).not.toBeNull();
    expect(stats?.recentErrorCodes).toContain('429');
    expect(stats?.backoffLevel).toBe(0);
    expect(budget.stats().clockOffsetMs).not.toBeNull();
  });
});
