import { describe, expect, it } from 'vitest';
import { createAccountCommand, futuresOrder, placeOrdersCommand, T0 } from '../../testing/engine-commands';
import type { Command } from '../commands';
import { DEFAULT_CONTRACTS } from '../contracts';
import { datedSymbol, nextQuarterlyDelivery } from './delivery-schedule';
import { Engine, type PlaceItemResult } from '../engine';
import { restoreSnapshot, takeSnapshot } from '../snapshot';
import type { PlaceOrderInput } from '../trading';
import { MarketViews } from '../market-views';
import { Views } from '../views';

const options = { seed: 11, contracts: DEFAULT_CONTRACTS };
// A dated contract on BTCUSDT: configured until +1 s, trading until +10 s, opening refused until
// +20 s, in delivery until +30 s, when it is settled.
const LAUNCH = T0 + 1_000;
const LIMIT_OPEN = T0 + 10_000;
const DELIVERY_START = T0 + 20_000;
const DELIVERY = T0 + 30_000;

/** A BTCUSDT-family limit buy of 0.1 at 60,000 without margin coin or mode. */
function order(symbol: string, overrides: Partial<PlaceOrderInput>): PlaceOrderInput {
  return futuresOrder({
    symbol,
    marginCoin: null,
    marginMode: null,
    price: '60000',
    size: '0.1',
    ...overrides,
  });
}

function place(engine: Engine, uid: string, ts: number, input: PlaceOrderInput): PlaceItemResult {
  const [result] = engine.apply(placeOrdersCommand(uid, ts, input));
  if (result === undefined) throw new Error('no result');
  return result;
}

/** The commands of a dated BTCUSDT contract's life, with alice long and bob short 0.1 at 60,000. */
function lifeOfAContract(): Command[] {
  return [
    { type: 'setMarketPaused', ts: T0, paused: true },
    { type: 'setPrice', ts: T0, symbol: 'BTCUSDT', price: '60000' },
    createAccountCommand('alice', { balances: { USDT: '100000' } }),
    createAccountCommand('bob', { balances: { USDT: '100000' } }),
    {
      type: 'listContract',
      ts: T0,
      productType: 'USDT-FUTURES',
      baseSymbol: 'BTCUSDT',
      listTime: LAUNCH,
      limitOpenTime: LIMIT_OPEN,
      deliveryStartTime: DELIVERY_START,
      deliveryTime: DELIVERY,
    },
    placeOrdersCommand('alice', T0 + 2_000, order('BTCUSDT1114', { side: 'buy' })),
    placeOrdersCommand('bob', T0 + 2_000, order('BTCUSDT1114', { side: 'sell' })),
    // The index stands at 60,000 for the first half of the window and at 63,000 for the second.
    { type: 'setPrice', ts: T0 + 15_000, symbol: 'BTCUSDT', price: '63000' },
    { type: 'tick', ts: DELIVERY },
  ];
}

function run(engine: Engine, commands: Command[]): void {
  for (const command of commands) engine.apply(command);
}

describe('quarterly delivery times', () => {
  it('deliver at 08:00 UTC on the last Friday of March, June, September and December', () => {
    // June 30, 2025 is a Monday: the last Friday is June 27.
    expect(new Date(nextQuarterlyDelivery(Date.UTC(2025, 4, 1))).toISOString()).toBe(
      '2025-06-27T08:00:00.000Z',
    );
    // At the delivery itself the next quarter's contract is the current one.
    expect(new Date(nextQuarterlyDelivery(Date.UTC(2025, 5, 27, 8))).toISOString()).toBe(
      '2025-09-26T08:00:00.000Z',
    );
    // December 31, 2025 is a Wednesday: December 26, the live exchange's BTCUSD1226.
    const december = nextQuarterlyDelivery(Date.UTC(2025, 11, 1));
    expect(new Date(december).toISOString()).toBe('2025-12-26T08:00:00.000Z');
    const btcusd = DEFAULT_CONTRACTS.find((contract) => contract.symbol === 'BTCUSD');
    expect(btcusd === undefined ? '' : datedSymbol(btcusd, december)).toBe('BTCUSD1226');
  });

  it('are listed on a fresh exchange, one per margin type, and the next one when one delivers', () => {
    const engine = new Engine(options);
    engine.apply({ type: 'setMarketPaused', ts: T0, paused: true });
    const marketViews = new MarketViews(engine);
    // T0 is 2023-11-14: the current quarter delivers on Friday 2023-12-29 at 08:00 UTC.
    const december = Date.UTC(2023, 11, 29, 8);
    const expected = [
      ['USDT-FUTURES', 'BTCUSDT1229', 'USDT'],
      ['USDC-FUTURES', 'BTCUSDC1229', 'USDC'],
      ['COIN-FUTURES', 'BTCUSD1229', 'BTC'],
    ] as const;
    for (const [productType, symbol, marginCoin] of expected) {
      const dated = marketViews.contracts(productType, symbol)[0];
      expect(dated).toMatchObject({
        symbol,
        symbolType: 'delivery',
        symbolStatus: 'normal',
        supportMarginCoins: [marginCoin],
        fundInterval: '0',
        deliveryStartTime: String(december),
        deliveryTime: String(december),
        deliveryStatus: 'delivery_normal',
      });
    }
    // Coin-margined delivery futures trade at 1-50x.
    expect(marketViews.contracts('COIN-FUTURES', 'BTCUSD1229')[0]?.maxLever).toBe('50');
    engine.apply({ type: 'tick', ts: december - 60_000 });
    expect(marketViews.tickers('USDT-FUTURES').find((t) => t.symbol === 'BTCUSDT1229')?.deliveryStatus).toBe(
      'delivery_before',
    );
    engine.apply({ type: 'tick', ts: december });
    const symbols = marketViews.tickers('USDT-FUTURES').map((ticker) => ticker.symbol);
    // Delivered and gone; March 29, 2024 is the last Friday of the next quarter.
    expect(symbols).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BTCUSDT0329']);
  });
});

describe('a dated contract listed with near times', () => {
  it('walks through the four states, refusing what each forbids', () => {
    const engine = new Engine(options);
    run(engine, lifeOfAContract().slice(0, 5));
    const marketViews = new MarketViews(engine);
    const status = () =>
      marketViews.tickers('USDT-FUTURES').find((t) => t.symbol === 'BTCUSDT1114')?.deliveryStatus;
    const contract = () => marketViews.contracts('USDT-FUTURES', 'BTCUSDT1114')[0];
    expect(status()).toBe('delivery_config_period');
    expect(contract()).toMatchObject({
      symbolStatus: 'listed',
      deliveryStartTime: String(DELIVERY_START),
      deliveryTime: String(DELIVERY),
    });
    expect(place(engine, 'alice', T0 + 500, order('BTCUSDT1114', {}))).toMatchObject({
      ok: false,
      code: '43115',
    });

    engine.apply({ type: 'tick', ts: LAUNCH });
    expect(status()).toBe('delivery_normal');
    expect(place(engine, 'alice', LAUNCH, order('BTCUSDT1114', {})).ok).toBe(true);
    expect(place(engine, 'bob', LAUNCH, order('BTCUSDT1114', { side: 'sell' })).ok).toBe(true);

    engine.apply({ type: 'tick', ts: LIMIT_OPEN });
    expect(status()).toBe('delivery_before');
    expect(contract()?.symbolStatus).toBe('limit_open');
    // Opening is refused, whether a fresh long or a sell beyond the long it would reduce.
    expect(place(engine, 'alice', LIMIT_OPEN, order('BTCUSDT1114', {}))).toMatchObject({
      ok: false,
      code: '40308',
    });
    expect(
      place(engine, 'alice', LIMIT_OPEN, order('BTCUSDT1114', { side: 'sell', size: '0.2', price: '65000' })),
    ).toMatchObject({ ok: false, code: '40308' });
    // Closing is allowed: a sell of half the long rests on the book.
    const close = place(
      engine,
      'alice',
      LIMIT_OPEN,
      order('BTCUSDT1114', { side: 'sell', size: '0.05', price: '65000' }),
    );
    expect(close.ok).toBe(true);

    engine.apply({ type: 'tick', ts: DELIVERY_START });
    expect(status()).toBe('delivery_period');
    expect(contract()?.symbolStatus).toBe('maintain');
    expect(
      place(
        engine,
        'bob',
        DELIVERY_START,
        order('BTCUSDT1114', { side: 'buy', size: '0.05', price: '61000' }),
      ),
    ).toMatchObject({ ok: false, code: '40308' });
    expect(() =>
      engine.apply({
        type: 'cancelOrders',
        ts: DELIVERY_START,
        uid: 'alice',
        productType: 'USDT-FUTURES',
        symbol: 'BTCUSDT1114',
        marginCoin: null,
        targets: null,
      }),
    ).toThrow(/40308/);
    const aliceAccount = engine.account('alice');
    expect(aliceAccount.openOrders.size).toBe(1);

    engine.apply({ type: 'tick', ts: DELIVERY });
    expect(aliceAccount.openOrders.size).toBe(0);
    expect(marketViews.tickers('USDT-FUTURES').map((t) => t.symbol)).not.toContain('BTCUSDT1114');
    expect(() => marketViews.contracts('USDT-FUTURES', 'BTCUSDT1114')).toThrow(/40034/);
    expect(place(engine, 'alice', DELIVERY, order('BTCUSDT1114', {}))).toMatchObject({
      ok: false,
      code: '40309',
    });
  });

  it('settles long and short at the averaged index with the taker rate as delivery fee', () => {
    const engine = new Engine(options);
    run(engine, lifeOfAContract());
    const views = new Views(engine);
    // Index 60,000 for 15 s and 63,000 for 15 s of the 30 s the contract was listed:
    // delivery price (60,000 x 15 + 63,000 x 15) / 30 = 61,500.
    expect(engine.deliveries.deliveryPriceOf('BTCUSDT1114')).toBe(615_000);
    // alice long 0.1 from 60,000: PnL 0.1 x (61,500 - 60,000) = 150; fee 0.1 x 61,500 x 0.0006 = 3.69.
    // bob short 0.1: PnL -150, the same fee.
    for (const [uid, type, amount] of [
      ['alice', 'DELIVERY_LONG', '150'],
      ['bob', 'DELIVERY_SHORT', '-150'],
    ] as const) {
      const holder = engine.account(uid);
      expect(holder.positions.size).toBe(0);
      const page = views.financialRecords(holder, { category: 'USDT-FUTURES', limit: 1 });
      expect(page.list[0]).toMatchObject({ symbol: 'BTCUSDT1114', type, amount, fee: '-3.69' });
      const history = views.historyPositions(holder, {
        symbol: 'BTCUSDT1114',
        productType: 'USDT-FUTURES',
        limit: 10,
      });
      expect(history.list[0]).toMatchObject({
        openAvgPrice: '60000',
        closeAvgPrice: '61500',
        pnl: amount,
        closeFee: '-3.69',
      });
      const delivery = [...engine.state.orders.values()].find(
        (item) => item.uid === uid && item.execType === 'delivery',
      );
      expect(delivery).toMatchObject({
        source: uid === 'alice' ? 'delivery_close_long' : 'delivery_close_short',
      });
      expect(views.orderInfo(holder, String(delivery?.id), undefined)).toMatchObject({
        execType: 'delivery',
        avgPrice: '61500',
        orderStatus: 'filled',
      });
    }
  });

  it('settles a coin-margined position in the coin', () => {
    const engine = new Engine(options);
    run(engine, [
      { type: 'setMarketPaused', ts: T0, paused: true },
      { type: 'setPrice', ts: T0, symbol: 'BTCUSD', price: '62500' },
      createAccountCommand('carol', { balances: { BTC: '1' } }),
      createAccountCommand('dave', { balances: { BTC: '1' } }),
      {
        type: 'listContract',
        ts: T0,
        productType: 'COIN-FUTURES',
        baseSymbol: 'BTCUSD',
        listTime: null,
        // Left out, opening would stop 10 minutes before delivery: from the start here.
        limitOpenTime: LIMIT_OPEN,
        deliveryStartTime: null,
        deliveryTime: DELIVERY,
      },
    ]);
    const coin = (input: Partial<PlaceOrderInput>) =>
      order('BTCUSD1114', { productType: 'COIN-FUTURES', price: '50000', ...input });
    expect(place(engine, 'carol', T0 + 1, coin({ side: 'buy' })).ok).toBe(true);
    expect(place(engine, 'dave', T0 + 1, coin({ side: 'sell' })).ok).toBe(true);
    engine.apply({ type: 'tick', ts: DELIVERY });
    const views = new Views(engine);
    // Index 62,500 throughout. carol long 0.1 BTC from 50,000:
    // PnL 0.1 x (62,500 - 50,000) / 62,500 = 0.02 BTC; fee 0.1 x 0.0006 = 0.00006 BTC.
    const carol = views.financialRecords(engine.account('carol'), { category: 'COIN-FUTURES', limit: 1 });
    expect(carol.list[0]).toMatchObject({
      type: 'DELIVERY_LONG',
      coin: 'BTC',
      amount: '0.02',
      fee: '-0.00006',
    });
    const dave = views.financialRecords(engine.account('dave'), { category: 'COIN-FUTURES', limit: 1 });
    expect(dave.list[0]).toMatchObject({ type: 'DELIVERY_SHORT', amount: '-0.02', fee: '-0.00006' });
  });

  it('is restored from a snapshot and continues to the same delivery', () => {
    const commands = lifeOfAContract();
    const original = new Engine(options);
    run(original, commands.slice(0, 7));
    const restored = restoreSnapshot(options, JSON.parse(JSON.stringify(takeSnapshot(original))));
    expect(restored.state.market('BTCUSDT1114')?.contract.delivery?.deliveryTime).toBe(DELIVERY);
    run(original, commands.slice(7));
    run(restored, commands.slice(7));
    expect(takeSnapshot(restored)).toEqual(takeSnapshot(original));
    expect(restored.deliveries.deliveryPriceOf('BTCUSDT1114')).toBe(615_000);
  });

  it('refuses a listing with times out of order, in the past or on an unknown perpetual', () => {
    const engine = new Engine(options);
    engine.apply({ type: 'setMarketPaused', ts: T0, paused: true });
    const list = (overrides: Partial<Extract<Command, { type: 'listContract' }>>) => () =>
      engine.apply({
        type: 'listContract',
        ts: T0,
        productType: 'USDT-FUTURES',
        baseSymbol: 'BTCUSDT',
        listTime: null,
        limitOpenTime: null,
        deliveryStartTime: null,
        deliveryTime: DELIVERY,
        ...overrides,
      });
    expect(list({ deliveryTime: T0 })).toThrow(/40020.*deliveryTime/);
    expect(list({ deliveryStartTime: DELIVERY + 1 })).toThrow(/40020/);
    expect(list({ listTime: LIMIT_OPEN, limitOpenTime: LAUNCH })).toThrow(/40020/);
    expect(list({ baseSymbol: 'DOGEUSDT' })).toThrow(/40034/);
    expect(list({ baseSymbol: 'BTCUSDT1229' })).toThrow(/40020.*dated/);
    const before = engine.state.markets.size;
    // Two listings delivering the same day get distinct symbols.
    expect(list({})()).toMatchObject({
      symbol: 'BTCUSDT1114',
      limitOpenTime: T0,
      deliveryStartTime: DELIVERY,
    });
    expect(list({})()).toMatchObject({ symbol: 'BTCUSDT1114_2' });
    expect(engine.state.markets.size).toBe(before + 2);
  });
});
