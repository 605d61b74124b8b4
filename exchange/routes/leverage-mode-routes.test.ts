// E12 set-leverage, C3 set-position-mode and C4 set-margin-mode over HTTP: what each setting does
// to new orders and open positions, and when the exchange refuses to change it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductType } from '../../shared/api/enums';
import {
  BTCUSDT,
  ETHUSDT,
  PENDING,
  adminAccount,
  cancelAll,
  maxTransfer,
  onlyPosition,
  openTrader,
  place,
  placeRaw,
  positions,
  trade,
  type Market,
  type Trader,
} from '../testing/account-trading';
import { ok, refused } from '../testing/responses';
import { startTestExchange, type TestExchange } from '../testing/test-exchange';

const PLACE_V3 = '/api/v3/trade/place-batch';
const SET_LEVERAGE = '/api/v2/mix/account/set-leverage';
const SET_POSITION_MODE = '/api/v2/mix/account/set-position-mode';
const SET_MARGIN_MODE = '/api/v2/mix/account/set-margin-mode';

let test: TestExchange;

beforeAll(async () => {
  test = await startTestExchange();
});
afterAll(async () => {
  await test.stop();
});

async function setLeverage(trader: Trader, body: Record<string, string>, market: Market = BTCUSDT) {
  return trader.client.post(SET_LEVERAGE, { ...market, ...body });
}

async function setMarginMode(trader: Trader, marginMode: string, market: Market = BTCUSDT) {
  return trader.client.post(SET_MARGIN_MODE, { ...market, marginMode });
}

async function setPositionMode(trader: Trader, posMode: string, productType: ProductType = 'USDT-FUTURES') {
  return trader.client.post(SET_POSITION_MODE, { productType, posMode });
}

describe('E12 set-leverage', () => {
  it('sets the crossed leverage that new orders and positions take, and re-margins a position', async () => {
    await test.setPrice('BTCUSDT', '95000');
    const trader = await openTrader(test);
    const maker = await openTrader(test);
    expect(ok(await setLeverage(trader, { leverage: '50' }))).toMatchObject({
      symbol: 'BTCUSDT',
      marginCoin: 'USDT',
      crossMarginLeverage: '50',
      marginMode: 'crossed',
    });

    await place(trader, [{ side: 'buy', price: '90000', size: '0.1' }]);
    const pending = ok(await trader.client.get(PENDING, { productType: 'USDT-FUTURES' })) as {
      entrustedList: Array<{ leverage: string }>;
    };
    expect(pending.entrustedList.map((order) => order.leverage)).toEqual(['50']);
    // 9000 / 50 margin + 9000 x 0.0006 taker fee reserved
    expect(await maxTransfer(trader)).toBe('99814.6');
    await cancelAll(trader);

    await trade(maker, trader, { side: 'sell', price: '95000', size: '0.1' });
    expect(await onlyPosition(trader)).toMatchObject({ leverage: '50', marginSize: '190' });
    ok(await setLeverage(trader, { leverage: '100' }));
    expect(await onlyPosition(trader)).toMatchObject({ leverage: '100', marginSize: '95' });
  });

  it('sets both directions at once in one-way isolated mode', async () => {
    const trader = await openTrader(test);
    const maker = await openTrader(test);
    ok(await setMarginMode(trader, 'isolated'));
    expect(ok(await setLeverage(trader, { leverage: '10' }))).toMatchObject({
      longLeverage: '10',
      shortLeverage: '10',
      marginMode: 'isolated',
    });
    expect(ok(await setLeverage(trader, { leverage: '8', holdSide: 'short' }))).toMatchObject({
      longLeverage: '8',
      shortLeverage: '8',
    });
    await trade(maker, trader, { side: 'buy', price: '95000', size: '0.1' }, { takerMarginMode: 'isolated' });
    expect(await onlyPosition(trader)).toMatchObject({
      holdSide: 'short',
      leverage: '8',
      marginMode: 'isolated',
      // 9500 / 8
      marginSize: '1187.5',
    });
  });

  it('needs holdSide, or both directions, in hedge isolated mode', async () => {
    const trader = await openTrader(test, { posMode: 'hedge_mode' });
    const maker = await openTrader(test);
    ok(await setMarginMode(trader, 'isolated'));
    expect(refused(await setLeverage(trader, { leverage: '30' }), '40019')).toBe(
      'Parameter holdSide cannot be empty',
    );
    expect(ok(await setLeverage(trader, { leverage: '30', holdSide: 'long' }))).toMatchObject({
      longLeverage: '30',
      shortLeverage: '20',
      marginMode: 'isolated',
    });
    expect(ok(await setLeverage(trader, { longLeverage: '15', shortLeverage: '25' }))).toMatchObject({
      longLeverage: '15',
      shortLeverage: '25',
    });
    expect(ok(await setLeverage(trader, { leverage: '40', shortLeverage: '5' }))).toMatchObject({
      longLeverage: '40',
      shortLeverage: '5',
    });
    ok(await setLeverage(trader, { longLeverage: '15', shortLeverage: '25' }));

    await trade(
      maker,
      trader,
      { side: 'sell', price: '95000', size: '0.1' },
      {
        taker: { tradeSide: 'open' },
        takerMarginMode: 'isolated',
      },
    );
    await trade(
      maker,
      trader,
      { side: 'buy', price: '95000', size: '0.1' },
      {
        taker: { tradeSide: 'open' },
        takerMarginMode: 'isolated',
      },
    );
    const held = await positions(trader);
    const bySide = Object.fromEntries(held.map((position) => [position.holdSide, position]));
    expect(bySide.long).toMatchObject({
      leverage: '15',
      marginMode: 'isolated',
      posMode: 'hedge_mode',
      marginSize: '633.33333334',
    });
    expect(bySide.short).toMatchObject({
      leverage: '25',
      marginMode: 'isolated',
      posMode: 'hedge_mode',
      marginSize: '380',
    });
  });

  it('refuses a leverage outside 1..maxLever with 43050', async () => {
    const trader = await openTrader(test);
    const outOfRange = refused(await setLeverage(trader, { leverage: '126' }), '43050');
    expect(outOfRange).toContain('1 to 125');
    refused(await setLeverage(trader, { leverage: '0' }), '43050');
    refused(await setLeverage(trader, { leverage: '101' }, ETHUSDT), '43050');
    // The edges themselves are allowed (another account, so the 5/s limit never waits).
    const edges = await openTrader(test);
    ok(await setLeverage(edges, { leverage: '100' }, ETHUSDT));
    expect(ok(await setLeverage(edges, { leverage: '125' }))).toMatchObject({ crossMarginLeverage: '125' });
    expect(ok(await setLeverage(edges, { leverage: '1' }))).toMatchObject({ crossMarginLeverage: '1' });

    const hedged = await openTrader(test, { posMode: 'hedge_mode' });
    ok(await setMarginMode(hedged, 'isolated'));
    refused(await setLeverage(hedged, { longLeverage: '10', shortLeverage: '200' }), '43050');
  });

  it('refuses malformed requests', async () => {
    const trader = await openTrader(test);
    expect(refused(await setLeverage(trader, {}), '40019')).toBe('Parameter leverage cannot be empty');
    refused(await setLeverage(trader, { leverage: '2.5' }), '40020');
    refused(await setLeverage(trader, { leverage: '10', marginCoin: 'USDC' }), '40020');
    refused(await setLeverage(trader, { leverage: '10', symbol: 'NOPEUSDT' }), '40034');
    refused(await setLeverage(trader, { leverage: '10', holdSide: 'up' }), '40020');
  });

  it('refuses with 40893 a leverage whose margin the account cannot cover', async () => {
    await test.setPrice('BTCUSDT', '95000');
    const trader = await openTrader(test, { balances: { USDT: '1000' } });
    const maker = await openTrader(test);
    await trade(maker, trader, { side: 'sell', price: '95000', size: '0.1' });
    // Balance 994.3, margin 475 at 20x: leverage 2 would need 4750.
    expect(refused(await setLeverage(trader, { leverage: '2' }), '40893')).toBe(
      'Unable to update the leverage, not enough margin',
    );
    expect(await onlyPosition(trader)).toMatchObject({ leverage: '20', marginSize: '475' });
    expect(await maxTransfer(trader)).toBe('519.3');
    // Leverage 10 needs 950: the extra 475 fits in the 519.3 available.
    ok(await setLeverage(trader, { leverage: '10' }));
    expect(await onlyPosition(trader)).toMatchObject({ leverage: '10', marginSize: '950' });
    expect(await maxTransfer(trader)).toBe('44.3');
  });

  it('is refused while the symbol has open orders, and allowed once they are cancelled', async () => {
    const trader = await openTrader(test);
    await place(trader, [{ side: 'buy', price: '90000', size: '0.01' }]);
    expect(refused(await setLeverage(trader, { leverage: '10' }), '40730')).toContain(
      'cancel the open orders',
    );
    expect(ok(await setLeverage(trader, { leverage: '10' }, ETHUSDT))).toMatchObject({
      crossMarginLeverage: '10',
    });
    await cancelAll(trader);
    expect(ok(await setLeverage(trader, { leverage: '10' }))).toMatchObject({ crossMarginLeverage: '10' });
  });
});

describe('C3 set-position-mode', () => {
  it('switches with nothing open, and orders follow the mode', async () => {
    const trader = await openTrader(test);
    expect(ok(await setPositionMode(trader, 'hedge_mode'))).toEqual({ posMode: 'hedge_mode' });
    expect((await adminAccount(test, trader.uid)).posMode).toBe('hedge_mode');

    const withoutTradeSide = await placeRaw(trader, [{ side: 'buy', price: '90000', size: '0.01' }]);
    expect(withoutTradeSide.failureList.map((item) => item.errorCode)).toEqual(['40774']);
    await place(trader, [{ side: 'buy', price: '90000', size: '0.01', tradeSide: 'open' }]);
    const pending = ok(await trader.client.get(PENDING, { productType: 'USDT-FUTURES' })) as {
      entrustedList: Array<{ posSide: string; tradeSide: string; posMode: string }>;
    };
    expect(pending.entrustedList).toMatchObject([
      { posSide: 'long', tradeSide: 'open', posMode: 'hedge_mode' },
    ]);

    expect(refused(await setPositionMode(trader, 'one_way_mode'), '40920')).toContain('open orders');
    await cancelAll(trader);
    expect(ok(await setPositionMode(trader, 'ONE_WAY_MODE'))).toEqual({ posMode: 'one_way_mode' });
    await place(trader, [{ side: 'buy', price: '90000', size: '0.01' }]);
    const oneWay = ok(await trader.client.get(PENDING, { productType: 'USDT-FUTURES' })) as {
      entrustedList: Array<{ posSide: string; tradeSide: string; posMode: string }>;
    };
    expect(oneWay.entrustedList).toMatchObject([
      { posSide: 'net', tradeSide: 'buy_single', posMode: 'one_way_mode' },
    ]);
    await cancelAll(trader);
  });

  it('is refused while a position is open, in that product type only', async () => {
    const trader = await openTrader(test);
    const maker = await openTrader(test);
    await trade(maker, trader, { side: 'sell', price: '95000', size: '0.01' });
    expect(refused(await setPositionMode(trader, 'hedge_mode'), '40920')).toContain('positions');
    expect(ok(await setPositionMode(trader, 'hedge_mode', 'USDC-FUTURES'))).toEqual({
      posMode: 'hedge_mode',
    });
    await trade(maker, trader, { side: 'buy', price: '95000', size: '0.01' });
    expect(await positions(trader)).toEqual([]);
    ok(await setPositionMode(trader, 'hedge_mode'));
  });

  it('refuses malformed requests', async () => {
    const trader = await openTrader(test);
    refused(await setPositionMode(trader, 'two_way_mode'), '40020');
    expect(
      refused(await trader.client.post(SET_POSITION_MODE, { productType: 'USDT-FUTURES' }), '40019'),
    ).toBe('Parameter posMode cannot be empty');
    refused(await trader.client.post(SET_POSITION_MODE, { posMode: 'hedge_mode' }), '40019');
  });
});

describe('C4 set-margin-mode', () => {
  it('switches a symbol with nothing open, and the next position takes the mode', async () => {
    const trader = await openTrader(test);
    const maker = await openTrader(test);
    expect(ok(await setMarginMode(trader, 'isolated'))).toEqual({
      symbol: 'BTCUSDT',
      marginCoin: 'USDT',
      longLeverage: '20',
      shortLeverage: '20',
      marginMode: 'isolated',
    });
    // A v3 order carries no margin mode: it takes the symbol's.
    await place(maker, [{ side: 'sell', price: '95000', size: '0.01' }]);
    const placed = ok(
      await trader.client.post(PLACE_V3, [
        {
          category: 'USDT-FUTURES',
          symbol: 'BTCUSDT',
          qty: '0.01',
          price: '95000',
          side: 'buy',
          orderType: 'limit',
        },
      ]),
    ) as Array<{ code: string }>;
    expect(placed.map((item) => item.code)).toEqual(['00000']);
    expect(await onlyPosition(trader)).toMatchObject({
      marginMode: 'isolated',
      total: '0.01',
      marginSize: '47.5',
    });
    expect(refused(await setMarginMode(trader, 'crossed'), '45117')).toContain('BTCUSDT');
  });

  it('is refused while an order is open on the symbol, and allowed on another symbol', async () => {
    const trader = await openTrader(test);
    await place(trader, [{ side: 'buy', price: '90000', size: '0.01' }]);
    expect(refused(await setMarginMode(trader, 'isolated'), '45117')).toContain('open orders');
    expect(ok(await setMarginMode(trader, 'isolated', ETHUSDT))).toMatchObject({
      symbol: 'ETHUSDT',
      marginMode: 'isolated',
    });
    await cancelAll(trader);
    expect(ok(await setMarginMode(trader, 'isolated'))).toMatchObject({ marginMode: 'isolated' });
    expect(ok(await setMarginMode(trader, 'crossed'))).toMatchObject({ marginMode: 'crossed' });
  });

  it('refuses malformed requests', async () => {
    const trader = await openTrader(test);
    refused(await setMarginMode(trader, 'cross'), '40020');
    refused(
      await trader.client.post(SET_MARGIN_MODE, { ...BTCUSDT, marginCoin: 'USDC', marginMode: 'isolated' }),
      '40020',
    );
    refused(await setMarginMode(trader, 'isolated', { ...BTCUSDT, symbol: 'NOPEUSDT' }), '40034');
    expect(refused(await trader.client.post(SET_MARGIN_MODE, BTCUSDT), '40019')).toBe(
      'Parameter marginMode cannot be empty',
    );
  });
});
