// The public market endpoints (C1, C2, E11, E13, E15) over HTTP against a real paper exchange.
// The simulated market is paused, so the book holds only the orders of the test's accounts and
// every price and size below is exact. Each symbol is used by one block only: tickers trade
// ETHUSDT, fills SOLUSDT, depth BTCUSDT.
import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractConfig, PublicFill, Ticker } from '../../shared/api/endpoints';
import type { ClientResponse, QueryInput, SignedClient } from '../testing/signed-client';
import { ok, paced, refused } from '../testing/responses';
import { startTestExchange, type TestExchange } from '../testing/test-exchange';

const TIME = '/api/v2/public/time';
const CONTRACTS = '/api/v2/mix/market/contracts';
const TICKERS = '/api/v2/mix/market/tickers';
const FILLS = '/api/v2/mix/market/fills-history';
const DEPTH = '/api/v2/mix/market/merge-depth';
const PLACE = '/api/v2/mix/order/batch-place-order';
const CANCEL = '/api/v2/mix/order/batch-cancel-orders';

const DAY_MS = 86_400_000;

interface RawDepth {
  asks: Array<[number, number]>;
  bids: Array<[number, number]>;
  precision: string;
  scale: string;
  isMaxPrecision: string;
  ts: string;
}

interface OrderSpec {
  side: 'buy' | 'sell';
  price: string;
  size: string;
}

let test: TestExchange;

beforeAll(async () => {
  test = await startTestExchange();
});
afterAll(async () => {
  await test.stop();
});

function publicGet(path: string, query?: QueryInput): Promise<ClientResponse> {
  return paced(() => test.client.publicGet(path, query));
}

async function trader(): Promise<SignedClient> {
  return (await test.newAccount()).client;
}

/** Places limit orders on a USDT-FUTURES symbol and expects every one accepted. */
async function place(client: SignedClient, symbol: string, orders: OrderSpec[]): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < orders.length; start += 50) {
    const batch = orders.slice(start, start + 50);
    const data = ok(
      await paced(() =>
        client.post(PLACE, {
          symbol,
          productType: 'USDT-FUTURES',
          marginCoin: 'USDT',
          marginMode: 'crossed',
          orderList: batch.map((order) => ({ ...order, orderType: 'limit', force: 'gtc' })),
        }),
      ),
    ) as { successList: Array<{ orderId: string }>; failureList: unknown[] };
    expect(data.failureList).toEqual([]);
    ids.push(...data.successList.map((item) => item.orderId));
  }
  return ids;
}

async function cancelAll(client: SignedClient, symbol: string): Promise<void> {
  ok(await paced(() => client.post(CANCEL, { productType: 'USDT-FUTURES', symbol })));
}

async function tickerOf(symbol: string, productType = 'USDT-FUTURES'): Promise<Ticker> {
  const list = ok(await publicGet(TICKERS, { productType })) as Ticker[];
  const ticker = list.find((item) => item.symbol === symbol);
  if (ticker === undefined) throw new Error(`no ticker for ${symbol}`);
  return ticker;
}

async function depth(query: Record<string, string>): Promise<RawDepth> {
  return ok(await publicGet(DEPTH, { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', ...query })) as RawDepth;
}

async function fills(query: Record<string, string> = {}): Promise<PublicFill[]> {
  return ok(
    await publicGet(FILLS, { symbol: 'SOLUSDT', productType: 'USDT-FUTURES', ...query }),
  ) as PublicFill[];
}

describe('C1 server time', () => {
  it('answers the server clock in ms, without keys', async () => {
    const before = Date.now();
    const response = await publicGet(TIME);
    const after = Date.now();
    const data = ok(response) as { serverTime: string };
    expect(data.serverTime).toMatch(/^\d{13}$/);
    expect(Number(data.serverTime)).toBeGreaterThanOrEqual(before);
    expect(Number(data.serverTime)).toBeLessThanOrEqual(after);
    expect(response.body?.requestTime).toBe(Number(data.serverTime));
  });
});

describe('C2 contracts', () => {
  it('lists the USDT-FUTURES contracts with the values of the live exchange', async () => {
    const list = ok(await publicGet(CONTRACTS, { productType: 'USDT-FUTURES' })) as ContractConfig[];
    // The perpetuals, then the current-quarter dated contract (its own tests: delivery-routes.test.ts).
    expect(list.map((contract) => contract.symbol)).toEqual([
      'BTCUSDT',
      'ETHUSDT',
      'SOLUSDT',
      expect.stringMatching(/^BTCUSDT\d{4}$/),
    ]);
    const common = {
      minTradeUSDT: '5',
      minLever: '1',
      makerFeeRate: '0.0002',
      takerFeeRate: '0.0006',
      quoteCoin: 'USDT',
      supportMarginCoins: ['USDT'],
      symbolType: 'perpetual',
      symbolStatus: 'normal',
    };
    expect(list[0]).toMatchObject({
      ...common,
      symbol: 'BTCUSDT',
      baseCoin: 'BTC',
      pricePlace: '1',
      priceEndStep: '1',
      volumePlace: '4',
      sizeMultiplier: '0.0001',
      minTradeNum: '0.0001',
      maxLever: '125',
    });
    expect(list[1]).toMatchObject({
      ...common,
      symbol: 'ETHUSDT',
      baseCoin: 'ETH',
      pricePlace: '2',
      priceEndStep: '1',
      volumePlace: '2',
      sizeMultiplier: '0.01',
      minTradeNum: '0.01',
      maxLever: '100',
    });
    expect(list[2]).toMatchObject({
      ...common,
      symbol: 'SOLUSDT',
      baseCoin: 'SOL',
      pricePlace: '3',
      priceEndStep: '1',
      volumePlace: '1',
      sizeMultiplier: '0.1',
      minTradeNum: '0.1',
      maxLever: '100',
    });
    for (const contract of list) {
      for (const value of Object.values(contract)) {
        if (!Array.isArray(value)) expect(typeof value).toBe('string');
      }
    }
  });

  it('answers one symbol, in any letter case', async () => {
    const list = ok(
      await publicGet(CONTRACTS, { productType: 'usdt-futures', symbol: 'ethusdt' }),
    ) as ContractConfig[];
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ symbol: 'ETHUSDT', pricePlace: '2', volumePlace: '2' });
  });

  it('lists the coin- and USDC-margined contracts under their own product types', async () => {
    const coin = ok(await publicGet(CONTRACTS, { productType: 'COIN-FUTURES' })) as ContractConfig[];
    expect(coin.map((contract) => [contract.symbol, contract.supportMarginCoins])).toEqual([
      ['BTCUSD', ['BTC']],
      [expect.stringMatching(/^BTCUSD\d{4}$/), ['BTC']],
    ]);
    const usdc = ok(await publicGet(CONTRACTS, { productType: 'USDC-FUTURES' })) as ContractConfig[];
    expect(usdc.map((contract) => [contract.symbol, contract.supportMarginCoins])).toEqual([
      ['BTCPERP', ['USDC']],
      [expect.stringMatching(/^BTCUSDC\d{4}$/), ['USDC']],
    ]);
  });

  it('refuses an unknown symbol, a symbol of another product type and a missing product type', async () => {
    expect(
      refused(await publicGet(CONTRACTS, { productType: 'USDT-FUTURES', symbol: 'DOGEUSDT' }), '40034'),
    ).toContain('DOGEUSDT');
    refused(await publicGet(CONTRACTS, { productType: 'USDT-FUTURES', symbol: 'BTCUSD' }), '40034');
    expect(refused(await publicGet(CONTRACTS), '40019')).toBe('Parameter productType cannot be empty');
    refused(await publicGet(CONTRACTS, { productType: 'SPOT' }), '40020');
  });
});

describe('E11 tickers', () => {
  it('lists each product type with its own symbols, every value a string', async () => {
    const expected: Record<string, string[]> = {
      'USDT-FUTURES': ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'],
      'COIN-FUTURES': ['BTCUSD'],
      'USDC-FUTURES': ['BTCPERP'],
    };
    for (const [productType, symbols] of Object.entries(expected)) {
      // Perpetuals here; the dated contract listed after them has its own tests.
      const list = (ok(await publicGet(TICKERS, { productType })) as Ticker[]).filter(
        (ticker) => ticker.deliveryStatus === '',
      );
      expect(list.map((ticker) => ticker.symbol)).toEqual(symbols);
      for (const ticker of list) {
        const { deliveryStartTime, deliveryTime, ...rest } = ticker;
        // Perpetuals: delivery times null, delivery status empty (exchange-facts.md).
        expect(deliveryStartTime).toBeNull();
        expect(deliveryTime).toBeNull();
        expect(rest.deliveryStatus).toBe('');
        for (const value of Object.values(rest)) expect(typeof value).toBe('string');
        expect(ticker.ts).toMatch(/^\d{13}$/);
      }
    }
  });

  it('shows the best resting orders as bid and ask', async () => {
    const maker = await trader();
    await place(maker, 'ETHUSDT', [
      { side: 'buy', price: '3390', size: '0.1' },
      { side: 'buy', price: '3390', size: '0.25' },
      { side: 'buy', price: '3380.5', size: '1' },
      { side: 'sell', price: '3420.75', size: '0.3' },
      { side: 'sell', price: '3430', size: '2' },
    ]);
    const ticker = await tickerOf('ETHUSDT');
    expect(ticker).toMatchObject({ bidPr: '3390', bidSz: '0.35', askPr: '3420.75', askSz: '0.3' });
    await cancelAll(maker, 'ETHUSDT');
    const emptied = await tickerOf('ETHUSDT');
    expect(emptied).toMatchObject({ bidPr: '', askPr: '', bidSz: '0', askSz: '0' });
  });

  it('moves the last price, the 24h range and volume, and open interest with a trade', async () => {
    const before = await tickerOf('ETHUSDT');
    const seller = await trader();
    const buyer = await trader();
    await place(seller, 'ETHUSDT', [{ side: 'sell', price: '3410.25', size: '0.5' }]);
    await place(buyer, 'ETHUSDT', [{ side: 'buy', price: '3410.25', size: '0.5' }]);
    const first = await tickerOf('ETHUSDT');
    expect(first.lastPr).toBe('3410.25');
    expect(first.high24h).toBe('3410.25');
    expect(first.baseVolume).toBe(new Big(before.baseVolume).plus('0.5').toString());
    // 0.5 x 3410.25
    expect(first.quoteVolume).toBe(new Big(before.quoteVolume).plus('1705.125').toString());
    expect(first.usdtVolume).toBe(first.quoteVolume);
    // One long and one short of 0.5: half an ETH of open interest, counted once.
    expect(first.holdingAmount).toBe(new Big(before.holdingAmount).plus('0.5').toString());

    await place(seller, 'ETHUSDT', [{ side: 'sell', price: '3444.35', size: '0.1' }]);
    await place(buyer, 'ETHUSDT', [{ side: 'buy', price: '3444.35', size: '0.1' }]);
    const second = await tickerOf('ETHUSDT');
    expect(second).toMatchObject({
      lastPr: '3444.35',
      high24h: '3444.35',
      low24h: '3410.25',
      open24h: '3410.25',
      // (3444.35 - 3410.25) / 3410.25, to six places
      change24h: '0.009999',
    });
    expect(second.baseVolume).toBe(new Big(before.baseVolume).plus('0.6').toString());
    expect(second.quoteVolume).toBe(new Big(before.quoteVolume).plus('1705.125').plus('344.435').toString());
    expect(second.holdingAmount).toBe(new Big(before.holdingAmount).plus('0.6').toString());
  });

  it('follows an administrator price move with the mark and index prices only', async () => {
    const before = await tickerOf('ETHUSDT');
    await test.setPrice('ETHUSDT', '3500.5');
    const after = await tickerOf('ETHUSDT');
    expect(after).toMatchObject({ markPrice: '3500.5', indexPrice: '3500.5', lastPr: before.lastPr });
    await test.setPrice('BTCUSD', '91000', 'COIN-FUTURES');
    expect(await tickerOf('BTCUSD', 'COIN-FUTURES')).toMatchObject({
      markPrice: '91000',
      indexPrice: '91000',
    });
  });

  it('refuses a missing or unknown product type', async () => {
    expect(refused(await publicGet(TICKERS), '40019')).toBe('Parameter productType cannot be empty');
    expect(refused(await publicGet(TICKERS, { productType: 'SUSDT-FUTURES' }), '40020')).toContain(
      'productType',
    );
  });
});

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
    seller = await trader();
    buyer = await trader();
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
        await publicGet(DEPTH, { symbol: 'SOLUSDT', productType: 'USDT-FUTURES', precision }),
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
    const deepSeller = await trader();
    const deepBuyer = await trader();
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
    expect(refused(await publicGet(DEPTH, { productType: 'USDT-FUTURES' }), '40019')).toBe(
      'Parameter symbol cannot be empty',
    );
    refused(await publicGet(DEPTH, { symbol: 'BTCUSDT' }), '40019');
    refused(await publicGet(DEPTH, { ...base, symbol: 'NOPEUSDT' }), '40034');
    refused(await publicGet(DEPTH, { ...base, productType: 'COIN-FUTURES' }), '40034');
    expect(refused(await publicGet(DEPTH, { ...base, precision: 'scale4' }), '40020')).toContain('precision');
    expect(refused(await publicGet(DEPTH, { ...base, limit: '20' }), '40020')).toContain('limit');
  });
});

describe('E13 fills-history', () => {
  let tradeIds: string[] = [];

  beforeAll(async () => {
    const maker = await trader();
    const taker = await trader();
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
      await publicGet(FILLS, { ...base, startTime: String(now - 7 * DAY_MS - 1), endTime: String(now) }),
      '40020',
    );
    expect(wide).toContain('7 days');
    refused(await publicGet(FILLS, { ...base, startTime: String(now), endTime: String(now - 1) }), '40020');
    expect(refused(await publicGet(FILLS, { ...base, limit: '1001' }), '40020')).toContain('limit');
    refused(await publicGet(FILLS, { ...base, limit: '0' }), '40020');
    refused(await publicGet(FILLS, { ...base, idLessThan: 'abc' }), '40020');
    refused(await publicGet(FILLS, { productType: 'USDT-FUTURES' }), '40019');
    refused(await publicGet(FILLS, { ...base, symbol: 'NOPEUSDT' }), '40034');
  });
});

describe('public endpoints', () => {
  it('answer without any key, where a signed endpoint asks for one', async () => {
    const calls: Array<[string, Record<string, string>]> = [
      [TIME, {}],
      [CONTRACTS, { productType: 'USDT-FUTURES' }],
      [TICKERS, { productType: 'USDT-FUTURES' }],
      [FILLS, { symbol: 'BTCUSDT', productType: 'USDT-FUTURES' }],
      [DEPTH, { symbol: 'BTCUSDT', productType: 'USDT-FUTURES' }],
    ];
    for (const [path, query] of calls) ok(await publicGet(path, query));
    const signedOnly = await test.client.publicGet('/api/v2/mix/position/all-position', {
      productType: 'USDT-FUTURES',
    });
    expect(signedOnly.status).toBe(400);
    expect(signedOnly.body?.code).toBe('40001');
  });
});

describe('with the simulated market running', () => {
  let live: TestExchange;

  beforeAll(async () => {
    live = await startTestExchange({ liveMarket: true, tickMs: 50 });
  });
  afterAll(async () => {
    await live.stop();
  });

  it('quotes every symbol with a bid below its ask', async () => {
    for (const productType of ['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES']) {
      let list: Ticker[] = [];
      for (let attempt = 0; attempt < 40; attempt++) {
        list = ok(await paced(() => live.client.publicGet(TICKERS, { productType }))) as Ticker[];
        if (list.every((ticker) => ticker.bidPr !== '' && ticker.askPr !== '')) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(list.length).toBeGreaterThan(0);
      for (const ticker of list) {
        expect(ticker.bidPr, ticker.symbol).not.toBe('');
        expect(
          new Big(ticker.bidPr).lt(ticker.askPr),
          `${ticker.symbol} ${ticker.bidPr} < ${ticker.askPr}`,
        ).toBe(true);
        expect(new Big(ticker.bidSz).gt(0)).toBe(true);
        expect(new Big(ticker.askSz).gt(0)).toBe(true);
      }
    }
  });

  it('orders the live depth: asks rising, bids falling, best bid below best ask', async () => {
    const data = ok(
      await paced(() =>
        live.client.publicGet(DEPTH, { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', limit: '15' }),
      ),
    ) as RawDepth;
    expect(data.asks.length).toBeGreaterThan(1);
    expect(data.bids.length).toBeGreaterThan(1);
    const askPrices = data.asks.map(([price]) => price);
    const bidPrices = data.bids.map(([price]) => price);
    expect(askPrices).toEqual([...askPrices].sort((a, b) => a - b));
    expect(bidPrices).toEqual([...bidPrices].sort((a, b) => b - a));
    expect(bidPrices[0]).toBeLessThan(askPrices[0] ?? 0);
  });
});
