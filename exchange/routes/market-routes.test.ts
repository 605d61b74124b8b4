// The public market endpoints (C1, C2, E11) over HTTP against a real paper exchange. The simulated
// market is paused, so the book holds only the orders of the test's accounts and every price and
// size below is exact; the tickers trade ETHUSDT (E13 and E15: depth-fills-routes.test.ts).
import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractConfig, Ticker } from '../../shared/api/endpoints';
import { ok, paced, refused } from '../testing/responses';
import { DEPTH, FILLS, cancelAll, place, publicGet, trader, type RawDepth } from '../testing/public-market';
import { startTestExchange, type TestExchange } from '../testing/test-exchange';

const TIME = '/api/v2/public/time';
const CONTRACTS = '/api/v2/mix/market/contracts';
const TICKERS = '/api/v2/mix/market/tickers';

let test: TestExchange;

beforeAll(async () => {
  test = await startTestExchange();
});
afterAll(async () => {
  await test.stop();
});

async function tickerOf(symbol: string, productType = 'USDT-FUTURES'): Promise<Ticker> {
  const list = ok(await publicGet(test, TICKERS, { productType })) as Ticker[];
  const ticker = list.find((item) => item.symbol === symbol);
  if (ticker === undefined) throw new Error(`no ticker for ${symbol}`);
  return ticker;
}

describe('C1 server time', () => {
  it('answers the server clock in ms, without keys', async () => {
    const before = Date.now();
    const response = await publicGet(test, TIME);
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
    const list = ok(await publicGet(test, CONTRACTS, { productType: 'USDT-FUTURES' })) as ContractConfig[];
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
      await publicGet(test, CONTRACTS, { productType: 'usdt-futures', symbol: 'ethusdt' }),
    ) as ContractConfig[];
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ symbol: 'ETHUSDT', pricePlace: '2', volumePlace: '2' });
  });

  it('lists the coin- and USDC-margined contracts under their own product types', async () => {
    const coin = ok(await publicGet(test, CONTRACTS, { productType: 'COIN-FUTURES' })) as ContractConfig[];
    expect(coin.map((contract) => [contract.symbol, contract.supportMarginCoins])).toEqual([
      ['BTCUSD', ['BTC']],
      [expect.stringMatching(/^BTCUSD\d{4}$/), ['BTC']],
    ]);
    const usdc = ok(await publicGet(test, CONTRACTS, { productType: 'USDC-FUTURES' })) as ContractConfig[];
    expect(usdc.map((contract) => [contract.symbol, contract.supportMarginCoins])).toEqual([
      ['BTCPERP', ['USDC']],
      [expect.stringMatching(/^BTCUSDC\d{4}$/), ['USDC']],
    ]);
  });

  it('refuses an unknown symbol, a symbol of another product type and a missing product type', async () => {
    expect(
      refused(await publicGet(test, CONTRACTS, { productType: 'USDT-FUTURES', symbol: 'DOGEUSDT' }), '40034'),
    ).toContain('DOGEUSDT');
    refused(await publicGet(test, CONTRACTS, { productType: 'USDT-FUTURES', symbol: 'BTCUSD' }), '40034');
    expect(refused(await publicGet(test, CONTRACTS), '40019')).toBe('Parameter productType cannot be empty');
    refused(await publicGet(test, CONTRACTS, { productType: 'SPOT' }), '40020');
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
      const list = (ok(await publicGet(test, TICKERS, { productType })) as Ticker[]).filter(
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
    const maker = await trader(test);
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
    const seller = await trader(test);
    const buyer = await trader(test);
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
    expect(refused(await publicGet(test, TICKERS), '40019')).toBe('Parameter productType cannot be empty');
    expect(refused(await publicGet(test, TICKERS, { productType: 'SUSDT-FUTURES' }), '40020')).toContain(
      'productType',
    );
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
    for (const [path, query] of calls) ok(await publicGet(test, path, query));
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
