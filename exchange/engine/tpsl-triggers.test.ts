import { describe, expect, it } from 'vitest';
import {
  createAccountCommand,
  futuresOrder,
  placeOrdersCommand,
  T0,
  tpslCommand,
} from '../testing/engine-commands';
import type { Command, TpslLeg } from './commands';
import { DEFAULT_CONTRACTS } from './contracts';
import { Engine } from './engine';
import { restoreSnapshot, takeSnapshot } from './snapshot';
import type { PlaceOrderInput } from './trading';

const options = { seed: 7, contracts: DEFAULT_CONTRACTS };

/** A crossed BTCUSDT limit order without a price unless given; side and size always given. */
function order(fields: Partial<PlaceOrderInput> & Pick<PlaceOrderInput, 'side' | 'size'>): PlaceOrderInput {
  return futuresOrder({ price: null, ...fields });
}

function tpsl(uid: string, ts: number, ...legs: Array<Partial<TpslLeg> & Pick<TpslLeg, 'kind'>>): Command {
  return tpslCommand(uid, ts, 'long', ...legs);
}

/** A paused market at 95000 where `trader` holds a 0.02 BTC long bought from `maker`. */
function setUp(): Command[] {
  const list: Command[] = [];
  for (const uid of ['trader', 'maker', 'bidder', 'seller']) {
    list.push(createAccountCommand(uid, { balances: { USDT: '100000' }, apiKey: `k-${uid}` }));
  }
  list.push({ type: 'setMarketPaused', ts: T0, paused: true });
  list.push({ type: 'setPrice', ts: T0, symbol: 'BTCUSDT', price: '95000' });
  list.push(placeOrdersCommand('maker', T0 + 1, order({ side: 'sell', price: '95000', size: '0.02' })));
  list.push(placeOrdersCommand('trader', T0 + 2, order({ side: 'buy', orderType: 'market', size: '0.02' })));
  return list;
}

function run(engine: Engine, list: Command[]): void {
  for (const command of list) engine.apply(command);
}

function ordersOf(engine: Engine, uid: string) {
  return [...engine.state.orders.values()].filter((item) => item.uid === uid);
}

describe('take-profit and stop-loss triggers in the engine', () => {
  it('closes the whole position with a reduce-only market order named pos_profit_market', () => {
    const engine = new Engine(options);
    run(engine, setUp());
    run(engine, [
      tpsl(
        'trader',
        T0 + 3,
        { kind: 'profit', triggerPrice: '96000' },
        { kind: 'loss', triggerPrice: '94000' },
      ),
      placeOrdersCommand('bidder', T0 + 4, order({ side: 'buy', price: '96000', size: '0.03' })),
    ]);
    expect(engine.state.plans.size).toBe(2);
    run(engine, [
      placeOrdersCommand('seller', T0 + 5, order({ side: 'sell', price: '96000', size: '0.01' })),
    ]);

    const close = ordersOf(engine, 'trader').at(-1);
    expect(close).toMatchObject({
      side: 'sell',
      orderType: 'market',
      source: 'pos_profit_market',
      reduceOnly: true,
      lots: 200,
      filledLots: 200,
      status: 'filled',
    });
    expect(engine.state.positionsOf('trader')).toEqual([]);
    expect(engine.state.plans.size).toBe(0);
    expect([...engine.state.plans.ofSymbol('BTCUSDT')]).toEqual([]);
  });

  it('names a stop-loss plan with a size loss_market and closes only that size', () => {
    const engine = new Engine(options);
    run(engine, setUp());
    run(engine, [
      tpsl('trader', T0 + 3, {
        kind: 'loss',
        triggerPrice: '94000',
        size: '0.005',
        triggerType: 'mark_price',
      }),
      placeOrdersCommand('bidder', T0 + 4, order({ side: 'buy', price: '94000', size: '0.01' })),
      { type: 'setPrice', ts: T0 + 5, symbol: 'BTCUSDT', price: '93990' },
    ]);
    expect(ordersOf(engine, 'trader').at(-1)).toMatchObject({
      source: 'loss_market',
      lots: 50,
      filledLots: 50,
    });
    expect(engine.state.positionsOf('trader')).toMatchObject([{ holdSide: 'long', lots: 150 }]);
  });

  it('snapshots pending plans and fires them the same way after a restore', () => {
    const before = [
      ...setUp(),
      tpsl('trader', T0 + 3, { kind: 'profit', triggerPrice: '96000', size: '0.01' }),
      tpsl('trader', T0 + 4, { kind: 'profit', triggerPrice: '96500' }),
      tpsl('trader', T0 + 5, { kind: 'loss', triggerPrice: '94000', triggerType: 'mark_price' }),
      placeOrdersCommand('bidder', T0 + 6, order({ side: 'buy', price: '96500', size: '0.05' })),
    ];
    const after: Command[] = [
      placeOrdersCommand('seller', T0 + 7, order({ side: 'sell', price: '96500', size: '0.01' })),
      placeOrdersCommand('seller', T0 + 8, order({ side: 'sell', orderType: 'market', size: '0.01' })),
    ];
    const original = new Engine(options);
    run(original, before);
    expect(original.state.plans.size).toBe(3);
    const restored = restoreSnapshot(options, JSON.parse(JSON.stringify(takeSnapshot(original))));
    expect([...restored.state.plans.ofSymbol('BTCUSDT')].map((plan) => plan.kind)).toEqual([
      'profit_plan',
      'pos_profit',
      'pos_loss',
    ]);
    run(original, after);
    run(restored, after);
    expect(takeSnapshot(restored)).toEqual(takeSnapshot(original));
    // The 96500 trade fired the partial take-profit (0.01) and then the whole-position one.
    expect(ordersOf(restored, 'trader').map((item) => item.source)).toEqual([
      'market',
      'profit_market',
      'pos_profit_market',
    ]);
    expect(restored.state.positionsOf('trader')).toEqual([]);
    expect(restored.state.plans.size).toBe(0);
  });
});
