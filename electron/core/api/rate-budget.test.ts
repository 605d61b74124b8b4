// The budget's rules on their own, with real timers and short windows so the tests run quickly.
// Against the exchange's real limiter: rate-budget.exchange.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { RateBudget, RateBudgetDisposedError, type RateBudgetOptions, type RateLease } from './rate-budget';
import { ServerClock } from './server-clock';

const WINDOW_MS = 100;

function endpoint(id: string, perSecond: number) {
  return { id, rateLimit: { perSecond, keyedBy: 'uid' as const } };
}

const budgets: RateBudget[] = [];
function newBudget(options: RateBudgetOptions = {}): RateBudget {
  const budget = new RateBudget({ windowMs: WINDOW_MS, guardMs: 0, ...options });
  budgets.push(budget);
  return budget;
}
afterEach(() => {
  for (const budget of budgets.splice(0)) budget.dispose();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Queues a request on a 1-per-window endpoint; records the order of grants and answers at once. */
function queue(
  budget: RateBudget,
  order: string[],
  label: string,
  priority: 'user' | 'background' | (() => 'user' | 'background'),
): Promise<void> {
  return budget.acquire(endpoint('E1', 1), 'uid-1', priority).then((lease) => {
    order.push(label);
    lease.release('00000');
  });
}

describe('RateBudget', () => {
  it('grants at most perSecond slots in any window, counted from each answer', async () => {
    const budget = newBudget();
    const granted: number[] = [];
    const released: number[] = [];
    await Promise.all(
      Array.from({ length: 9 }, async () => {
        const lease = await budget.acquire(endpoint('E1', 3), 'uid-1', 'background');
        granted.push(performance.now());
        await sleep(5);
        released.push(performance.now());
        lease.release('00000');
      }),
    );
    granted.sort((a, b) => a - b);
    released.sort((a, b) => a - b);
    for (let index = 3; index < granted.length; index++) {
      expect((granted[index] ?? 0) - (released[index - 3] ?? 0)).toBeGreaterThanOrEqual(WINDOW_MS);
    }
  });

  it('keeps a slot taken while its request is in flight, however long that is', async () => {
    const budget = newBudget();
    const first = await budget.acquire(endpoint('E1', 1), 'uid-1', 'user');
    let secondAt: number | null = null;
    const second = budget.acquire(endpoint('E1', 1), 'uid-1', 'user').then((lease) => {
      secondAt = performance.now();
      return lease;
    });
    await sleep(WINDOW_MS * 3);
    expect(secondAt).toBeNull();
    const releasedAt = performance.now();
    first.release('00000');
    (await second).release('00000');
    expect((secondAt ?? 0) - releasedAt).toBeGreaterThanOrEqual(WINDOW_MS - 1);
  });

  it('counts each endpoint and each key on its own', async () => {
    const budget = newBudget();
    await budget.acquire(endpoint('E1', 1), 'uid-1', 'user');
    const otherEndpoint = budget.acquire(endpoint('E2', 1), 'uid-1', 'user');
    const otherKey = budget.acquire(endpoint('E1', 1), 'uid-2', 'user');
    const started = performance.now();
    await Promise.all([otherEndpoint, otherKey]);
    expect(performance.now() - started).toBeLessThan(WINDOW_MS / 2);
  });

  it("grants a user's request before queued background ones, first come first served within each", async () => {
    const budget = newBudget();
    const order: string[] = [];
    const busy = await budget.acquire(endpoint('E1', 1), 'uid-1', 'background');
    const waiting = [
      queue(budget, order, 'poll-1', 'background'),
      queue(budget, order, 'poll-2', 'background'),
      queue(budget, order, 'click-1', 'user'),
      queue(budget, order, 'click-2', 'user'),
    ];
    busy.release('00000');
    await Promise.all(waiting);
    expect(order).toEqual(['click-1', 'click-2', 'poll-1', 'poll-2']);
  });

  it('reads a priority given as a function when a slot frees, so a queued request can be promoted', async () => {
    const budget = newBudget();
    const order: string[] = [];
    const busy = await budget.acquire(endpoint('E1', 1), 'uid-1', 'background');
    let promoted: 'user' | 'background' = 'background';
    const waiting = [
      queue(budget, order, 'poll-1', 'background'),
      queue(budget, order, 'poll-2', () => promoted),
    ];
    promoted = 'user';
    busy.release('00000');
    await Promise.all(waiting);
    expect(order).toEqual(['poll-2', 'poll-1']);
  });

  it('backs off exponentially after 429s, capped, and recovers on the next good answer', async () => {
    const clock = new ServerClock();
    clock.observe(Date.now() + 1_234, Date.now(), Date.now());
    const budget = newBudget({ initialBackoffMs: 60, maxBackoffMs: 150, clock });
    const limited = endpoint('E14', 10);
    const pauses: number[] = [];
    let lease = await budget.acquire(limited, 'uid-1', 'user');
    for (let refusal = 1; refusal <= 4; refusal++) {
      const refusedAt = performance.now();
      lease.release('429');
      expect(budget.stats().endpoints[0]?.backoffLevel).toBe(refusal);
      lease = await budget.acquire(limited, 'uid-1', 'user');
      pauses.push(performance.now() - refusedAt);
    }
    lease.release('00000');
    // 60, 120, then 240 and 480 capped at 150.
    expect(pauses[0]).toBeGreaterThanOrEqual(59);
    expect(pauses[1]).toBeGreaterThanOrEqual(119);
    expect(pauses[2]).toBeGreaterThanOrEqual(149);
    expect(pauses[3]).toBeGreaterThanOrEqual(149);
    expect(pauses[3]).toBeLessThan(400);
    const stats = budget.stats();
    expect(stats.clockOffsetMs).toBeGreaterThan(1_200);
    expect(stats.endpoints[0]).toMatchObject({
      endpointId: 'E14',
      backoffLevel: 0,
      recentErrorCodes: ['429', '429', '429', '429'],
    });
    expect(stats.endpoints[0]?.last429At).toBeGreaterThan(Date.now() - 5_000);
    const started = performance.now();
    (await budget.acquire(limited, 'uid-1', 'user')).release('00000');
    expect(performance.now() - started).toBeLessThan(30);
  });

  it('reports use, headroom and the queue per endpoint and key', async () => {
    const budget = newBudget();
    const limited = endpoint('E7', 2);
    const first = await budget.acquire(limited, 'uid-1', 'background');
    await budget.acquire(limited, 'uid-1', 'background');
    const queued = [budget.acquire(limited, 'uid-1', 'background'), budget.acquire(limited, 'uid-1', 'user')];
    first.release('40762');
    expect(budget.stats().endpoints).toEqual([
      {
        endpointId: 'E7',
        key: 'uid-1',
        perSecond: 2,
        capacity: 2,
        usedInWindow: 2,
        headroom: 0,
        queued: 2,
        queuedUser: 1,
        backoffLevel: 0,
        backoffRemainingMs: 0,
        last429At: null,
        recentErrorCodes: ['40762'],
      },
    ]);
    budget.dispose();
    await expect(Promise.all(queued)).rejects.toBeInstanceOf(RateBudgetDisposedError);
  });

  it('leaves reserved slots unused, but always grants at least one', async () => {
    const budget = newBudget({ reservedSlots: 1 });
    const leases: RateLease[] = [];
    for (let index = 0; index < 4; index++)
      leases.push(await budget.acquire(endpoint('E12', 5), 'k', 'user'));
    await budget.acquire(endpoint('E16', 1), 'k', 'user');
    const stats = budget.stats().endpoints;
    expect(stats.map((entry) => [entry.endpointId, entry.capacity, entry.headroom])).toEqual([
      ['E12', 4, 0],
      ['E16', 1, 0],
    ]);
  });

  it('drops a queued request whose caller gives up', async () => {
    const budget = newBudget();
    await budget.acquire(endpoint('E1', 1), 'uid-1', 'user');
    const controller = new AbortController();
    const waiting = budget.acquire(endpoint('E1', 1), 'uid-1', 'user', controller.signal);
    controller.abort(new Error('window closed'));
    await expect(waiting).rejects.toThrow('window closed');
    expect(budget.stats().endpoints[0]?.queued).toBe(0);
  });

  it('refuses queued and later requests once disposed', async () => {
    const budget = newBudget();
    await budget.acquire(endpoint('E1', 1), 'uid-1', 'user');
    const waiting = budget.acquire(endpoint('E1', 1), 'uid-1', 'user');
    budget.dispose();
    await expect(waiting).rejects.toBeInstanceOf(RateBudgetDisposedError);
    await expect(budget.acquire(endpoint('E1', 1), 'uid-1', 'user')).rejects.toBeInstanceOf(
      RateBudgetDisposedError,
    );
  });
});
