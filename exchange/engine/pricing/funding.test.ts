import { describe, expect, it } from 'vitest';
import type { MarginMode, ProductType } from '../../../shared/api/enums';
import {
  createAccountCommand,
  futuresOrder,
  leverageCommand,
  marginAndLeverageCommands,
  placeOrdersCommand,
  T0,
} from '../../testing/engine-commands';
import type { Command } from '../commands';
import { DEFAULT_CONTRACTS } from '../contracts';
import { Engine } from '../engine';
import { FUNDING_IN, FUNDING_OUT } from './funding';
import { formatMoney } from '../money';
import { restoreSnapshot, takeSnapshot } from '../snapshot';
import type { PlaceOrderInput } from '../trading';
import { MarketViews } from '../market-views';
import { Views } from '../views';

const EIGHT_HOURS = 8 * 3_600_000;
/** The first funding time after T0: 2023-11-15 00:00 UTC. */
const FUNDING_TIME = (Math.floor(T0 / EIGHT_HOURS) + 1) * EIGHT_HOURS;
const options = { seed: 11, contracts: DEFAULT_CONTRACTS };

const SYMBOLS: Record<string, { productType: ProductType; marginCoin: string }> = {
  BTCUSDT: { productType: 'USDT-FUTURES', marginCoin: 'USDT' },
  BTCUSD: { productType: 'COIN-FUTURES', marginCoin: 'BTC' },
  BTCPERP: { productType: 'USDC-FUTURES', marginCoin: 'USDC' },
};

function pausedEngine(): Engine {
  const engine = new Engine(options);
  engine.apply({ type: 'setMarketPaused', ts: T0, paused: true });
  engine.apply({ type: 'setPrice', ts: T0, symbol: 'BTCUSDT', price: '100000' });
  for (const uid of ['alice', 'bob', 'carol']) {
    engine.apply(createAccountCommand(uid, { balances: { USDT: '100000', USDC: '100000', BTC: '2' } }));
  }
  return engine;
}

/** A crossed limit buy of 1 at 100,000 in the symbol's product type and margin coin. */
function order(symbol: string, overrides: Partial<PlaceOrderInput>): PlaceOrderInput {
  const { productType, marginCoin } = SYMBOLS[symbol] as { productType: ProductType; marginCoin: string };
  return futuresOrder({ symbol, productType, marginCoin, price: '100000', size: '1', ...overrides });
}

function place(engine: Engine, uid: string, ts: number, input: PlaceOrderInput): void {
  const [result] = engine.apply(placeOrdersCommand(uid, ts, input));
  expect(result).toMatchObject({ ok: true });
}

/** bob rests a sell (maker), alice buys it (taker): alice long, bob short, `size` at `price`. */
function trade(
  engine: Engine,
  symbol: string,
  size: string,
  price: string,
  marginMode: MarginMode,
  ts: number,
) {
  place(engine, 'bob', ts, order(symbol, { side: 'sell', price, size, marginMode }));
  place(engine, 'alice', ts, order(symbol, { side: 'buy', price, size, marginMode }));
}

function positionOf(engine: Engine, uid: string, productType: ProductType) {
  const [position] = new Views(engine).allPositions(engine.account(uid), productType, undefined);
  if (position === undefined) throw new Error(`${uid} holds no ${productType} position`);
  return position;
}

function fundingRecords(engine: Engine, uid: string, category: ProductType) {
  return new Views(engine)
    .financialRecords(engine.account(uid), { category, limit: 100 })
    .list.filter((record) => record.type === FUNDING_IN || record.type === FUNDING_OUT)
    .map(({ symbol, coin, type, amount, fee }) => ({ symbol, coin, type, amount, fee }));
}

function ticker(engine: Engine, symbol: string) {
  const { productType } = SYMBOLS[symbol] as { productType: ProductType };
  return new MarketViews(engine).tickers(productType).find((item) => item.symbol === symbol);
}

describe('funding settlement', () => {
  it('makes a crossed long pay a crossed short at a positive rate, linear', () => {
    const engine = pausedEngine();
    trade(engine, 'BTCUSDT', '1', '100000', 'crossed', T0 + 1);
    // An empty book has no premium: rate = 0 + clamp(0.01% - 0, -0.05%, 0.05%) = 0.01%.
    expect(ticker(engine, 'BTCUSDT')).toMatchObject({
      fundingRate: '0.0001',
      markPrice: '100000',
      indexPrice: '100000',
    });
    const settled = engine.apply({ type: 'settleFunding', ts: T0 + 2, symbol: 'BTCUSDT' });
    expect(settled).toEqual([{ symbol: 'BTCUSDT', ratePpm: 100, positions: 2 }]);
    // Value = 1 BTC x 100,000 mark = 100,000 USDT; x 0.01% = 10 USDT, paid by the long.
    expect(fundingRecords(engine, 'alice', 'USDT-FUTURES')).toEqual([
      { symbol: 'BTCUSDT', coin: 'USDT', type: FUNDING_OUT, amount: '-10', fee: '0' },
    ]);
    expect(fundingRecords(engine, 'bob', 'USDT-FUTURES')).toEqual([
      { symbol: 'BTCUSDT', coin: 'USDT', type: FUNDING_IN, amount: '10', fee: '0' },
    ]);
    expect(positionOf(engine, 'alice', 'USDT-FUTURES')).toMatchObject({
      totalFee: '-10',
      marginSize: '5000',
    });
    expect(positionOf(engine, 'bob', 'USDT-FUTURES')).toMatchObject({ totalFee: '10', marginSize: '5000' });
    // Crossed funding moves the balance: alice paid 60 taker fee and 10 funding, bob 20 maker fee
    // and received 10.
    expect(formatMoney(engine.account('alice').balances.get('USDT') ?? 0n)).toBe('99930');
    expect(formatMoney(engine.account('bob').balances.get('USDT') ?? 0n)).toBe('99990');
  });

  it('makes an isolated short pay an isolated long from its margin at a negative rate', () => {
    const engine = pausedEngine();
    trade(engine, 'BTCUSDT', '1', '100000', 'isolated', T0 + 1);
    // carol's ask 0.1% under the index is the whole ask side: impact ask 99,900.
    place(engine, 'carol', T0 + 2, order('BTCUSDT', { side: 'sell', price: '99900', size: '0.1' }));
    // P = -(100,000 - 99,900) / 100,000 = -0.1%; rate = -0.1% + clamp(0.11%, +-0.05%) = -0.05%.
    expect(ticker(engine, 'BTCUSDT')?.fundingRate).toBe('-0.0005');
    const [settled] = engine.apply({ type: 'settleFunding', ts: T0 + 3, symbol: null });
    expect(settled).toEqual({ symbol: 'BTCUSDT', ratePpm: -500, positions: 2 });
    // 100,000 USDT x 0.05% = 50 USDT from the short's margin (5,000) to the long's.
    expect(positionOf(engine, 'alice', 'USDT-FUTURES')).toMatchObject({ totalFee: '50', marginSize: '5050' });
    expect(positionOf(engine, 'bob', 'USDT-FUTURES')).toMatchObject({ totalFee: '-50', marginSize: '4950' });
    expect(fundingRecords(engine, 'bob', 'USDT-FUTURES')).toEqual([
      { symbol: 'BTCUSDT', coin: 'USDT', type: FUNDING_OUT, amount: '-50', fee: '0' },
    ]);
    // Paid from the margin: what bob can still use stays 100,000 - 20 fee - 5,000 margin = 94,980.
    expect(formatMoney(engine.account('bob').balances.get('USDT') ?? 0n)).toBe('99930');
    expect(formatMoney(engine.trading.available(engine.account('bob'), 'USDT'))).toBe('94980');
  });

  it('settles an inverse position in coin on its value at the mark price', () => {
    const engine = pausedEngine();
    trade(engine, 'BTCUSD', '0.1', '100000', 'crossed', T0 + 1);
    engine.apply({ type: 'setPrice', ts: T0 + 2, symbol: 'BTCUSD', price: '80000' });
    engine.apply({ type: 'settleFunding', ts: T0 + 3, symbol: 'BTCUSD' });
    // Value in coin = 0.1 BTC x 100,000 / 80,000 mark = 0.125 BTC; x 0.01% = 0.0000125 BTC.
    expect(fundingRecords(engine, 'alice', 'COIN-FUTURES')).toEqual([
      { symbol: 'BTCUSD', coin: 'BTC', type: FUNDING_OUT, amount: '-0.0000125', fee: '0' },
    ]);
    expect(fundingRecords(engine, 'bob', 'COIN-FUTURES')).toEqual([
      { symbol: 'BTCUSD', coin: 'BTC', type: FUNDING_IN, amount: '0.0000125', fee: '0' },
    ]);
    expect(positionOf(engine, 'alice', 'COIN-FUTURES')).toMatchObject({
      totalFee: '-0.0000125',
      markPrice: '80000',
    });
  });

  it('takes funding from an isolated margin, which may then be liquidated', () => {
    const engine = pausedEngine();
    engine.apply(leverageCommand('bob', 125));
    for (const command of marginAndLeverageCommands('bob', 'isolated', 125)) engine.apply(command);
    trade(engine, 'BTCUSDT', '1', '100000', 'isolated', T0 + 1);
    // An ask 1% under the index: P = -1%, rate = -1% + 0.05% = -0.95%, capped at -0.66%.
    place(engine, 'carol', T0 + 2, order('BTCUSDT', { side: 'sell', price: '99000', size: '0.1' }));
    expect(ticker(engine, 'BTCUSDT')?.fundingRate).toBe('-0.0066');
    engine.apply({ type: 'settleFunding', ts: T0 + 3, symbol: 'BTCUSDT' });
    // 100,000 x 0.66% = 660 USDT is due; bob's margin at 125x holds 800 USDT and pays it. The 140
    // left is under the maintenance margin (100,000 x (0.40% + 0.06%) = 460): the position is
    // liquidated in the same command, its funding kept in the history.
    expect(engine.state.positionsOf('bob')).toEqual([]);
    const history = new Views(engine).historyPositions(engine.account('bob'), {
      productType: 'USDT-FUTURES',
      limit: 10,
    }).list[0];
    expect(history).toMatchObject({ totalFunding: '-660' });
    // 0 PnL (closed at the 100,000 mark) - 20 open fee - 60 liquidation fee - 660 funding.
    expect(history).toMatchObject({ pnl: '0', netProfit: '-740', closeFee: '-60' });
    expect(
      engine
        .account('bob')
        .records.slice(-3)
        .map((record) => [record.type, formatMoney(record.amount), formatMoney(record.fee)]),
    ).toEqual([
      ['CONTRACT_MAIN_SETTLE_FEE_USER_OUT', '-660', '0'],
      ['BURST_SHORT_LOSS_QUERY', '0', '-60'],
      // The 80 the margin still held goes to the insurance fund: the position cost its 800 margin.
      ['RISK_CAPTITAL_USER_TRANSFER', '-80', '0'],
    ]);
  });

  it('never takes more than an isolated margin holds', () => {
    const engine = pausedEngine();
    for (const command of marginAndLeverageCommands('alice', 'isolated', 125)) engine.apply(command);
    trade(engine, 'BTCUSDT', '1', '100000', 'isolated', T0 + 1);
    // alice's long holds 100,000 / 125 = 800 of margin; the price rises 25% to 125,000 (bob's
    // short, isolated at 20x, is liquidated on the way).
    engine.apply({ type: 'setPrice', ts: T0 + 2, symbol: 'BTCUSDT', price: '125000' });
    // A bid 1% over the index: P = +1%, rate = 1% - 0.05% = 0.95%, capped at 0.66%.
    place(engine, 'carol', T0 + 3, order('BTCUSDT', { side: 'buy', price: '126250', size: '0.1' }));
    expect(ticker(engine, 'BTCUSDT')?.fundingRate).toBe('0.0066');
    engine.apply({ type: 'settleFunding', ts: T0 + 4, symbol: 'BTCUSDT' });
    // Due: 125,000 x 0.66% = 825, more than the 800 margin: the margin pays what it holds. The long
    // stays open: its equity is the 25,000 of profit, far above 125,000 x 0.46% = 575.
    expect(positionOf(engine, 'alice', 'USDT-FUTURES')).toMatchObject({
      marginMode: 'isolated',
      marginSize: '0',
      totalFee: '-800',
      unrealizedPL: '25000',
    });
    expect(fundingRecords(engine, 'alice', 'USDT-FUTURES')).toEqual([
      { symbol: 'BTCUSDT', coin: 'USDT', type: FUNDING_OUT, amount: '-800', fee: '0' },
    ]);
  });

  it('writes the funding into the history position: totalFunding and netProfit', () => {
    const engine = pausedEngine();
    trade(engine, 'BTCUSDT', '1', '100000', 'crossed', T0 + 1);
    engine.apply({ type: 'settleFunding', ts: T0 + 2, symbol: 'BTCUSDT' });
    // alice closes as maker (0.02% = 20), bob as taker (0.06% = 60), both at 100,000: no PnL.
    place(engine, 'alice', T0 + 3, order('BTCUSDT', { side: 'sell', price: '100000', size: '1' }));
    place(engine, 'bob', T0 + 3, order('BTCUSDT', { side: 'buy', price: '100000', size: '1' }));
    const history = (uid: string) =>
      new Views(engine).historyPositions(engine.account(uid), { productType: 'USDT-FUTURES', limit: 10 })
        .list[0];
    // alice: 0 PnL - 60 open fee - 20 close fee - 10 funding = -90.
    expect(history('alice')).toMatchObject({
      totalFunding: '-10',
      openFee: '-60',
      closeFee: '-20',
      netProfit: '-90',
    });
    // bob: 0 - 20 - 60 + 10 = -70.
    expect(history('bob')).toMatchObject({ totalFunding: '10', netProfit: '-70' });
  });

  it('settles by itself at the funding time, on the tick that crosses it', () => {
    const engine = pausedEngine();
    trade(engine, 'BTCUSDT', '1', '100000', 'crossed', T0 + 1);
    engine.apply({ type: 'tick', ts: T0 + 2 });
    engine.apply({ type: 'tick', ts: FUNDING_TIME - 1 });
    expect(fundingRecords(engine, 'alice', 'USDT-FUTURES')).toEqual([]);
    engine.apply({ type: 'tick', ts: FUNDING_TIME });
    const records = new Views(engine).financialRecords(engine.account('alice'), {
      category: 'USDT-FUTURES',
      type: FUNDING_OUT,
      limit: 10,
    }).list;
    expect(records.map(({ amount, ts }) => ({ amount, ts }))).toEqual([
      { amount: '-10', ts: String(FUNDING_TIME) },
    ]);
    // Once per funding time: the next ticks of the interval settle nothing more.
    engine.apply({ type: 'tick', ts: FUNDING_TIME + 60_000 });
    engine.apply({ type: 'tick', ts: FUNDING_TIME + EIGHT_HOURS - 1 });
    expect(fundingRecords(engine, 'alice', 'USDT-FUTURES')).toHaveLength(1);
    engine.apply({ type: 'tick', ts: FUNDING_TIME + EIGHT_HOURS });
    expect(fundingRecords(engine, 'alice', 'USDT-FUTURES')).toHaveLength(2);
    expect(positionOf(engine, 'alice', 'USDT-FUTURES').totalFee).toBe('-20');
  });

  it('settles at the average premium of the interval, sampled once a minute', () => {
    const engine = pausedEngine();
    trade(engine, 'BTCUSDT', '1', '100000', 'crossed', T0 + 1);
    engine.apply({ type: 'tick', ts: FUNDING_TIME - 180_000 });
    // A minute with an empty book (P = 0), then two with carol's ask 0.2% under the index (P = -0.2%).
    place(
      engine,
      'carol',
      FUNDING_TIME - 119_000,
      order('BTCUSDT', { side: 'sell', price: '99800', size: '0.1' }),
    );
    engine.apply({ type: 'tick', ts: FUNDING_TIME - 119_000 });
    engine.apply({ type: 'tick', ts: FUNDING_TIME - 59_000 });
    // Average P = (0 - 0.2% - 0.2%) / 3 = -0.1333%; rate = P + 0.05% = -0.083333%.
    expect(ticker(engine, 'BTCUSDT')?.fundingRate).toBe('-0.000833');
    engine.apply({ type: 'tick', ts: FUNDING_TIME });
    // Sampled at the funding time too: (0 - 0.2% x 3) / 4 = -0.15%; rate = -0.1%; 100 USDT to the long.
    expect(fundingRecords(engine, 'alice', 'USDT-FUTURES')).toEqual([
      { symbol: 'BTCUSDT', coin: 'USDT', type: FUNDING_IN, amount: '100', fee: '0' },
    ]);
    // A new interval starts from no samples: the current book alone, -0.2% + 0.05% = -0.15%.
    expect(ticker(engine, 'BTCUSDT')?.fundingRate).toBe('-0.0015');
  });

  it('refuses an unknown symbol without changing anything', () => {
    const engine = pausedEngine();
    trade(engine, 'BTCUSDT', '1', '100000', 'crossed', T0 + 1);
    const before = JSON.stringify(takeSnapshot(engine));
    expect(() => engine.apply({ type: 'settleFunding', ts: T0 + 1, symbol: 'NOPEUSDT' })).toThrow(
      expect.objectContaining({ code: '40034' }),
    );
    expect(JSON.stringify(takeSnapshot(engine))).toBe(before);
  });
});

describe('index and mark prices', () => {
  it('moves every BTC contract with an admin move of BTCUSDT', () => {
    const engine = pausedEngine();
    engine.apply({ type: 'setPrice', ts: T0 + 1, symbol: 'BTCUSDT', price: '120000' });
    for (const symbol of ['BTCUSDT', 'BTCUSD', 'BTCPERP']) {
      expect(ticker(engine, symbol)).toMatchObject({ indexPrice: '120000', markPrice: '120000' });
    }
    expect(engine.state.indexOf('BTC')).toEqual({ coin: 'BTC', units: 12_000_000_000_000, decimals: 8 });
    // Other coins stay where they were.
    expect(ticker(engine, 'BTCUSDT')).toBeDefined();
    expect(
      new MarketViews(engine).tickers('USDT-FUTURES').find((item) => item.symbol === 'ETHUSDT'),
    ).toMatchObject({
      indexPrice: '3400',
    });
  });

  it('keeps BTCUSD and BTCPERP on the BTCUSDT index while the market runs', () => {
    const engine = new Engine(options);
    let ts = T0;
    for (let step = 0; step < 2_000; step++) engine.apply({ type: 'tick', ts: (ts += 500) });
    const btc = engine.state.indexOf('BTC');
    const index = btc.units / 10 ** btc.decimals;
    // A thousand seconds of walk: the index moved, and every BTC market shows it.
    expect(index).not.toBe(95000);
    for (const symbol of ['BTCUSDT', 'BTCUSD', 'BTCPERP']) {
      const item = ticker(engine, symbol);
      expect(Number(item?.indexPrice)).toBeCloseTo(index, 1);
      // Mark and last stay within 0.3% of the index: they follow it, premium and all.
      expect(Math.abs(Number(item?.markPrice) / index - 1)).toBeLessThan(0.003);
      expect(Math.abs(Number(item?.lastPr) / index - 1)).toBeLessThan(0.003);
      expect(Math.abs(Number(item?.fundingRate))).toBeLessThanOrEqual(0.0066);
    }
  });
});

describe('replay', () => {
  function day(): Command[] {
    const list: Command[] = [];
    let ts = FUNDING_TIME - 30_000;
    for (let step = 0; step < 240; step++) {
      list.push({ type: 'tick', ts: (ts += 250) });
      if (step === 100) list.push({ type: 'settleFunding', ts, symbol: null });
    }
    return list;
  }

  it('reaches the same state, funding and all, after a snapshot and the same commands', () => {
    const live = new Engine(options);
    const setup: Command[] = [
      { type: 'setPrice', ts: T0, symbol: 'BTCUSDT', price: '100000' },
      ...['alice', 'bob'].map((uid) => createAccountCommand(uid, { balances: { USDT: '100000', BTC: '2' } })),
      { type: 'tick', ts: T0 + 1 },
      placeOrdersCommand(
        'alice',
        T0 + 2,
        order('BTCUSDT', { orderType: 'market', price: null, size: '0.5' }),
      ),
      placeOrdersCommand(
        'bob',
        T0 + 2,
        order('BTCUSD', {
          side: 'sell',
          orderType: 'market',
          price: null,
          size: '0.2',
          marginMode: 'isolated',
        }),
      ),
    ];
    for (const command of setup) live.apply(command);
    const snapshot = takeSnapshot(live);
    const restored = restoreSnapshot(options, JSON.parse(JSON.stringify(snapshot)));
    for (const command of day()) {
      live.apply(command);
      restored.apply(command);
    }
    expect(JSON.stringify(takeSnapshot(restored))).toBe(JSON.stringify(takeSnapshot(live)));
    // Funding was settled at the funding time and by the admin command.
    const records = fundingRecords(live, 'alice', 'USDT-FUTURES');
    expect(records.length).toBe(2);
    expect(fundingRecords(live, 'bob', 'COIN-FUTURES').length).toBe(2);
  });

  it('loads a snapshot written before indices, the index following the first market of its coin', () => {
    const engine = new Engine(options);
    engine.apply({ type: 'setMarketPaused', ts: T0, paused: true });
    engine.apply({ type: 'setPrice', ts: T0, symbol: 'BTCUSDT', price: '97000' });
    const old = takeSnapshot(engine) as Record<string, unknown>;
    delete old.indices;
    delete old.fundingCheckedTs;
    for (const market of old.markets as Array<{ sim: Record<string, unknown> }>) {
      for (const key of ['indexPrice', 'markPrice', 'premium', 'basis', 'funding']) delete market.sim[key];
    }
    const restored = restoreSnapshot(options, old);
    expect(restored.state.indexOf('BTC').units).toBe(9_700_000_000_000);
    expect(ticker(restored, 'BTCUSDT')).toMatchObject({ markPrice: '97000', indexPrice: '97000' });
  });
});
