// E15 merge-depth and E13 fills-history over HTTP against a real paper exchange whose simulated
// market is paused, so the book holds only the test's orders: depth on BTCUSDT, fills on SOLUSDT.
import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicFill } from '../../shared/api/endpoints';
import type { SignedClient } from '../testing/signed-client';
import { DAY_MS, type OrderSpec } from '../testing/account-trading';
import { ok, refused } from '../testing/responses';
import { DEPTH, FILLS, cancelAll, place, publicGet, trader, type RawDepth } from '../testing/public-market';
import { startTestExchange, type TestExchange } from '../testing/test-exchange';

let test: TestExchange;

beforeAll(async () => {
  test = await startTestExchange();
});
afterAll(async () => {
  await test.stop();
});

async function depth(query: Record<string, string>): Promise<RawDepth> {
  return ok(
    await publicGet(test, DEPTH, { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', ...query }),
  ) as RawDepth;
}

async function fills(query: Record<string, string> = {}): Promise<PublicFill[]> {
  return ok(
    await publicGet(test, FILLS, { symbol: 'SOLUSDT', productType: 'USDT-FUTURES', ...query }),
  ) as PublicFill[];
}

describe('E15 merge-depth', () => {
  // Asks and bids of two accounts on BTCUSDT (tick 0.1); 95000.1 holds two orders.
  const asks: OrderSpec[] = [
    { side: 'sell', price: '95000.1', size: '0.001' },
    { side: 'sell', price: '95000.1', size: '0.0005' },
    { side: 'sell', price: '95000.9', size: '0.002' },
    { side: 'sell', price: '95001', size: '0.003' },
    { side: 'sell', price: '95001.1', size: '0.004' },
    { side: 'sell', price: '95009.9', size: '0.005' },
    { side: 'sell', price: '95010.1', size: '0.006' },
    { side: 'sell', price: '95100.1', size: '0.007' },
  ];
  const bids: OrderSpec[] = [
    { side: 'buy', price: '94999.9', size: '0.001' },
    { side: 'buy', price: '94999.1', size: '0.002' },
    { side: 'buy', price: '94999', size: '0.003' },
    { side: 'buy', price: '94998.9', size: '0.004' },
    { side: 'buy', price: '94990.1', size: '0.005' },
    { side: 'buy', price: '94989.9', size: '0.006' },
    { side: 'buy', price: '94899.9', size: '0.007' },
  ];
  let seller: SignedClient;
  let buyer: SignedClient;

  beforeAll(async () => {
    seller = await trader(test);
    buyer = await trader(test);
    await place(seller, 'BTCUSDT', asks);
    await place(buyer, 'BTCUSDT', bids);
  });

  it('shows every level unmerged at scale0, the default, with sizes summed exactly', async () => {
    const queries: Array<Record<string, string>> = [{}, { precision: 'scale0' }];
    for (const query of queries) {
      expect(await depth(query)).toMatchObject({
        asks: [
          [95000.1, 0.0015],
          [95000.9, 0.002],
          [95001, 0.003],
          [95001.1, 0.004],
          [95009.9, 0.005],
          [95010.1, 0.006],
          [95100.1, 0.007],
        ],
        bids: [
          [94999.9, 0.001],
          [94999.1, 0.002],
          [94999, 0.003],
          [94998.9, 0.004],
          [94990.1, 0.005],
          [94989.9, 0.006],
          [94899.9, 0.007],
        ],
        precision: 'scale0',
        scale: '0.1',
        isMaxPrecision: 'YES',
      });
    }
  });

  it('merges by 1 at scale1: asks rounded up, bids rounded down', async () => {
    expect(await depth({ precision: 'scale1' })).toMatchObject({
      asks: [
        [95001, 0.0065],
        [95002, 0.004],
        [95010, 0.005],
        [95011, 0.006],
        [95101, 0.007],
      ],
      bids: [
        [94999, 0.006],
        [94998, 0.004],
        [94990, 0.005],
        [94989, 0.006],
        [94899, 0.007],
      ],
      precision: 'scale1',
      scale: '1',
      isMaxPrecision: 'NO',
    });
  });

  it('merges by 10 at scale2 and by 100 at scale3', async () => {
    expect(await depth({ precision: 'scale2' })).toMatchObject({
      asks: [
        [95010, 0.0155],
        [95020, 0.006],
        [95110, 0.007],
      ],
      bids: [
        [94990, 0.015],
        [94980, 0.006],
        [94890, 0.007],
      ],
      precision: 'scale2',
      scale: '10',
      isMaxPrecision: 'NO',
    });
    expect(await depth({ precision: 'SCALE3' })).toMatchObject({
      asks: [
        [95100, 0.0215],
        [95200, 0.007],
      ],
      bids: [
        [94900, 0.021],
        [94800, 0.007],
      ],
      precision: 'scale3',
      scale: '100',
      isMaxPrecision: 'NO',
    });
  });

  it('cuts merged levels to the limit, best first', async () => {
    expect(await depth({ precision: 'scale1', limit: '1' })).toMatchObject({
      asks: [[95001, 0.0065]],
      bids: [[94999, 0.006]],
    });
    const five = await depth({ limit: '5' });
    expect(five.asks.map(([price]) => price)).toEqual([95000.1, 95000.9, 95001, 95001.1, 95009.9]);
    expect(five.bids.map(([price]) => price)).toEqual([94999.9, 94999.1, 94999, 94998.9, 94990.1]);
    // Fewer levels than the limit: the actual depth.
    const fifteen = await depth({ precision: 'scale2', limit: '15' });
    expect([fifteen.asks.length, fifteen.bids.length]).toEqual([3, 3]);
  });

  it('tells the gears apart on a pair with another tick (SOLUSDT, tick 0.001)', async () => {
    const scales = [];
    for (const precision of ['scale0', 'scale1', 'scale2', 'scale3']) {
      const data = ok(
        await publicGet(test, DEPTH, { symbol: 'SOLUSDT', productType: 'USDT-FUTURES', precision }),
      ) as RawDepth;
      scales.push([data.scale, data.isMaxPrecision]);
    }
    expect(scales).toEqual([
      ['0.001', 'YES'],
      ['0.01', 'NO'],
      ['0.1', 'NO'],
      ['1', 'NO'],
    ]);
  });

  it('serves 1, 5, 15, 50, max (150) and by default 100 levels of a deep book', async () => {
    await cancelAll(seller, 'BTCUSDT');
    await cancelAll(buyer, 'BTCUSDT');
    const deepSeller = await trader(test);
    const deepBuyer = await trader(test);
    // 160 one-lot asks from 95000.1 up and 160 one-lot bids from 94999.9 down, one per tick.
    const ladder = (side: 'buy' | 'sell') =>
      Array.from({ length: 160 }, (_, index) => ({
        side,
        price: new Big(side === 'sell' ? '95000.1' : '94999.9')
          .plus(new Big(index).times(side === 'sell' ? '0.1' : '-0.1'))
          .toString(),
        size: '0.0001',
      }));
    await place(deepSeller, 'BTCUSDT', ladder('sell'));
    await place(deepBuyer, 'BTCUSDT', ladder('buy'));

    const counts: Array<[string, number, number]> = [];
    for (const limit of ['1', '5', '15', '50', 'max', 'MAX', undefined]) {
      const data = await depth(limit === undefined ? {} : { limit });
      counts.push([limit ?? 'default', data.asks.length, data.bids.length]);
    }
    expect(counts).toEqual([
      ['1', 1, 1],
      ['5', 5, 5],
      ['15', 15, 15],
      ['50', 50, 50],
      ['max', 150, 150],
      ['MAX', 150, 150],
      ['default', 100, 100],
    ]);
    const full = await depth({ limit: 'max' });
    expect(full.asks[0]).toEqual([95000.1, 0.0001]);
    expect(full.asks[149]).toEqual([95015, 0.0001]);
    expect(full.bids[149]).toEqual([94985, 0.0001]);

    const byOne = await depth({ precision: 'scale1', limit: 'max' });
    expect(byOne.asks).toHaveLength(16);
    expect(byOne.asks[0]).toEqual([95001, 0.001]);
    expect(byOne.asks[15]).toEqual([95016, 0.001]);
    expect(byOne.bids[0]).toEqual([94999, 0.001]);
    expect(byOne.bids[15]).toEqual([94984, 0.001]);
    expect((await depth({ precision: 'scale2', limit: '50' })).asks).toEqual([
      [95010, 0.01],
      [95020, 0.006],
    ]);
    expect(await depth({ precision: 'scale3' })).toMatchObject({
      asks: [[95100, 0.016]],
      bids: [[94900, 0.016]],
    });
    await cancelAll(deepSeller, 'BTCUSDT');
    await cancelAll(deepBuyer, 'BTCUSDT');
    expect(await depth({})).toMatchObject({ asks: [], bids: [] });
  });

  it('refuses missing, unknown and malformed parameters', async () => {
    const base = { symbol: 'BTCUSDT', productType: 'USDT-FUTURES' };
    expect(refused(await publicGet(test, DEPTH, { productType: 'USDT-FUTURES' }), '40019')).toBe(
      'Parameter symbol cannot be empty',
    );
    refused(await publicGet(test, DEPTH, { symbol: 'BTCUSDT' }), '40019');
    refused(await publicGet(test, DEPTH, { ...base, symbol: 'NOPEUSDT' }), '40034');
    refused(await publicGet(test, DEPTH, { ...base, productType: 'COIN-FUTURES' }), '40034');
    expect(refused(await publicGet(test, DEPTH, { ...base, precision: 'scale4' }), '40020')).toContain(
      'precision',
    );
    expect(refused(await publicGet(test, DEPTH, { ...base, limit: '20' }), '40020')).toContain('limit');
  });
});

describe('E13 fills-history', () => {
  let tradeIds: string[] = [];

  beforeAll(async () => {
    const maker = await trader(test);
    const taker = await trader(test);
    await place(maker, 'SOLUSDT', [
      { side: 'sell', price: '180.1', size: '1' },
      { side: 'sell', price: '180.2', size: '2' },
      { side: 'sell', price: '180.3', size: '3' },
    ]);
    await place(taker, 'SOLUSDT', [{ side: 'buy', price: '180.3', size: '6' }]);
    await place(maker, 'SOLUSDT', [{ side: 'buy', price: '179.5', size: '4' }]);
    await place(taker, 'SOLUSDT', [{ side: 'sell', price: '179.5', size: '4' }]);
  });

  it('lists the fills newest first, with the side of the taker', async () => {
    const before = Date.now();
    const list = await fills();
    expect(list.map(({ price, size, side, symbol }) => ({ price, size, side, symbol }))).toEqual([
      { price: '179.5', size: '4', side: 'Sell', symbol: 'SOLUSDT' },
      { price: '180.3', size: '3', side: 'Buy', symbol: 'SOLUSDT' },
      { price: '180.2', size: '2', side: 'Buy', symbol: 'SOLUSDT' },
      { price: '180.1', size: '1', side: 'Buy', symbol: 'SOLUSDT' },
    ]);
    tradeIds = list.map((fill) => fill.tradeId);
    const numeric = tradeIds.map(Number);
    expect(numeric).toEqual([...numeric].sort((a, b) => b - a));
    expect(new Set(numeric).size).toBe(4);
    for (const fill of list) {
      expect(Number(fill.ts)).toBeLessThanOrEqual(before);
      expect(Number(fill.ts)).toBeGreaterThan(before - 60_000);
    }
  });

  it('pages with limit and idLessThan without gaps or repeats', async () => {
    const first = await fills({ limit: '2' });
    expect(first.map((fill) => fill.tradeId)).toEqual(tradeIds.slice(0, 2));
    const second = await fills({ limit: '2', idLessThan: first[1]?.tradeId ?? '' });
    expect(second.map((fill) => fill.tradeId)).toEqual(tradeIds.slice(2, 4));
    expect(await fills({ limit: '2', idLessThan: tradeIds[3] ?? '' })).toEqual([]);
    expect((await fills({ limit: '1000' })).length).toBe(4);
  });

  it('keeps to the time window asked for', async () => {
    const now = Date.now();
    expect(await fills({ startTime: String(now - 60_000), endTime: String(now) })).toHaveLength(4);
    // Only a start: the window runs one week from it.
    expect(await fills({ startTime: String(now - 60_000) })).toHaveLength(4);
    expect(await fills({ startTime: String(now - 8 * DAY_MS) })).toEqual([]);
    // Only an end: the window runs one week up to it.
    expect(await fills({ endTime: String(now - 60_000) })).toEqual([]);
    expect(await fills({ startTime: String(now - 7 * DAY_MS), endTime: String(now) })).toHaveLength(4);
  });

  it('refuses a window wider than 7 days and malformed parameters', async () => {
    const now = Date.now();
    const base = { symbol: 'SOLUSDT', productType: 'USDT-FUTURES' };
    const wide = refused(
      await publicGet(test, FILLS, {
        ...base,
        startTime: String(now - 7 * DAY_MS - 1),
        endTime: String(now),
      }),
      '40020',
    );
    expect(wide).toContain('7 days');
    refused(
      await publicGet(test, FILLS, { ...base, startTime: String(now), endTime: String(now - 1) }),
      '40020',
    );
    expect(refused(await publicGet(test, FILLS, { ...base, limit: '1001' }), '40020')).toContain('limit');
    refused(await publicGet(test, FILLS, { ...base, limit: '0' }), '40020');
    refused(await publicGet(test, FILLS, { ...base, idLessThan: 'abc' }), '40020');
    refused(await publicGet(test, FILLS, { productType: 'USDT-FUTURES' }), '40019');
    refused(await publicGet(test, FILLS, { ...base, symbol: 'NOPEUSDT' }), '40034');
  });
});
