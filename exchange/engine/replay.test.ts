// Determinism of the whole engine: a session with every kind of event (a living market, funding,
// take-profit and stop-loss, liquidation, a dated contract's delivery, spot and margin orders,
// deposits and loans) gives the same state when replayed from nothing, and when restored from a
// snapshot taken half-way and continued: what a restart from the journal or a snapshot relies on.
import { describe, expect, it } from 'vitest';
import {
  createAccountCommand,
  futuresOrder,
  marginAndLeverageCommands,
  placeOrdersCommand,
  spotOrder,
  tpslCommand,
} from '../testing/engine-commands';
import type { Command } from './commands';
import { DEFAULT_CONTRACTS } from './contracts';
import { Engine, type EngineOptions } from './engine';
import { EngineError } from './errors';
import { restoreSnapshot, takeSnapshot } from './snapshot';
import type { PlaceOrderInput } from './trading';

const OPTIONS: EngineOptions = { seed: 11, contracts: DEFAULT_CONTRACTS };
/** Ten minutes before the 08:00 UTC funding time. */
const T0 = Date.UTC(2026, 10, 21, 7, 50);
const MINUTE = 60_000;

function futures(uid: string, ts: number, overrides: Partial<PlaceOrderInput>): Command {
  return placeOrdersCommand(
    uid,
    ts,
    futuresOrder({
      marginCoin: null,
      marginMode: null,
      orderType: 'market',
      price: null,
      size: '0.05',
      ...overrides,
    }),
  );
}

function session(): Command[] {
  const commands: Command[] = [];
  let ts = T0;
  const account = (uid: string, balances: Record<string, string>) =>
    commands.push(createAccountCommand(uid, { ts, balances }));
  const isolated = (uid: string, leverage: number) =>
    commands.push(...marginAndLeverageCommands(uid, 'isolated', leverage, { ts }));
  commands.push({ type: 'setPrice', ts, symbol: 'BTCUSDT', price: '95000' });
  for (const uid of ['alice', 'bob', 'carol', 'dave']) account(uid, { USDT: '20000', BTC: '1' });
  isolated('carol', 100);
  commands.push({
    type: 'listContract',
    ts,
    productType: 'USDT-FUTURES',
    baseSymbol: 'BTCUSDT',
    listTime: null,
    limitOpenTime: T0 + 20 * MINUTE,
    deliveryStartTime: T0 + 25 * MINUTE,
    deliveryTime: T0 + 30 * MINUTE,
  });
  // A market that moves: a tick every second for the first minutes, then every minute.
  const tickUntil = (end: number, step: number) => {
    while (ts + step <= end) {
      ts += step;
      commands.push({ type: 'tick', ts });
    }
  };
  tickUntil(T0 + MINUTE, 1_000);
  commands.push(futures('alice', ++ts, { presetStopSurplusPrice: '150000', presetStopLossPrice: '90000' }));
  commands.push(futures('bob', ++ts, { side: 'sell', size: '0.1' }));
  commands.push(futures('carol', ++ts, { size: '0.2' }));
  commands.push(futures('dave', ++ts, { symbol: 'ETHUSDT', size: '1' }));
  // Resting far from the market: still open at the end.
  commands.push(
    futures('dave', ++ts, {
      symbol: 'ETHUSDT',
      side: 'sell',
      orderType: 'limit',
      price: '5000',
      size: '0.5',
    }),
  );
  commands.push(
    tpslCommand('bob', ++ts, 'short', {
      kind: 'profit',
      triggerPrice: '93000',
      triggerType: 'mark_price',
      size: '0.04',
      clientOid: 'bob-tp',
    }),
  );
  // The dated contract: dave goes long before opening stops.
  tickUntil(T0 + 2 * MINUTE, 1_000);
  const dated = 'BTCUSDT1121';
  commands.push(futures('dave', ++ts, { symbol: dated, size: '0.02' }));
  commands.push(futures('alice', ++ts, { symbol: dated, side: 'sell', size: '0.01' }));
  // Spot and margin: buy with quote, sell, and a margin buy that borrows.
  const spot = (uid: string, category: 'SPOT' | 'MARGIN', side: 'buy' | 'sell', qty: string) =>
    commands.push({ type: 'placeSpotOrders', ts: ++ts, uid, orders: [spotOrder({ category, side, qty })] });
  spot('alice', 'SPOT', 'buy', '1000');
  spot('bob', 'SPOT', 'sell', '0.1');
  spot('dave', 'MARGIN', 'buy', '30000');
  commands.push({ type: 'setDepositAccount', ts: ++ts, uid: 'carol', coin: 'USDT', accountType: 'unified' });
  commands.push({ type: 'deposit', ts: ++ts, uid: 'carol', coin: 'USDT', amount: '500' });
  commands.push({ type: 'attachLoan', ts: ++ts, uid: 'bob', coin: 'USDT', amount: '1000' });
  // Through the 08:00 funding time and the dated contract's delivery.
  tickUntil(T0 + 40 * MINUTE, MINUTE);
  commands.push({ type: 'settleFunding', ts: ++ts, symbol: null });
  // A fall: carol's 100x isolated long is liquidated, bob's take-profit fires, alice's stop-loss too.
  commands.push({ type: 'setPrice', ts: ++ts, symbol: 'BTCUSDT', price: '89000' });
  tickUntil(ts + 10 * MINUTE, MINUTE);
  return commands;
}

function run(engine: Engine, commands: readonly Command[]): void {
  for (const command of commands) {
    try {
      engine.apply(command);
    } catch (error) {
      // A refused command changes nothing, in the original as in the replay.
      if (!(error instanceof EngineError)) throw error;
    }
  }
}

function recordTypes(engine: Engine): Set<string> {
  const types = new Set<string>();
  for (const account of engine.state.accounts.values())
    for (const record of account.records) types.add(record.type);
  return types;
}

describe('replay of a whole session', () => {
  const commands = session();

  it('covers funding, triggers, liquidation, delivery, spot, margin, deposits and loans', () => {
    const engine = new Engine(OPTIONS);
    run(engine, commands);
    const types = recordTypes(engine);
    for (const type of [
      'CONTRACT_MAIN_SETTLE_FEE_USER_IN',
      'CONTRACT_MAIN_SETTLE_FEE_USER_OUT',
      'BURST_LONG_LOSS_QUERY',
      'DELIVERY_LONG',
      'DELIVERY_SHORT',
      'BORROW',
      'ORDER_DEALT_IN',
      'INS_LOAN_TRANSFER_IN',
    ]) {
      expect(types, type).toContain(type);
    }
    const sources = new Set([...engine.state.orders.values()].map((order) => order.source));
    expect(sources).toContain('liquidation');
    expect(sources).toContain('delivery_close_long');
    expect(sources).toContain('profit_market');
    expect(sources).toContain('pos_loss_market');
  });

  it("keeps each account's opening orders in step with its open orders", () => {
    const engine = new Engine(OPTIONS);
    run(engine, commands);
    for (const account of engine.state.accounts.values()) {
      const expected = new Map<string, { lots: number; value: bigint }>();
      for (const id of account.openOrders) {
        const order = engine.state.orders.get(id);
        if (order === undefined || order.intent === 'close') continue;
        const side = order.posSide !== 'net' ? order.posSide : order.side === 'buy' ? 'long' : 'short';
        const key = engine.state.positionKeyOf(account.uid, order.symbol, side);
        const entry = expected.get(key) ?? { lots: 0, value: 0n };
        const lots = order.lots - order.filledLots;
        expected.set(key, {
          lots: entry.lots + lots,
          value: entry.value + BigInt(order.price) * BigInt(lots),
        });
      }
      expect(account.openingOrders, account.uid).toEqual(expected);
    }
    expect(engine.account('dave').openingOrders.size).toBeGreaterThan(0);
  });

  it('gives the same state replayed from nothing and restored half-way from a snapshot', () => {
    const original = new Engine(OPTIONS);
    run(original, commands);
    const expected = JSON.stringify(takeSnapshot(original));

    const replayed = new Engine(OPTIONS);
    run(replayed, commands);
    expect(JSON.stringify(takeSnapshot(replayed))).toBe(expected);

    for (const cut of [Math.floor(commands.length / 3), Math.floor((commands.length * 2) / 3)]) {
      const first = new Engine(OPTIONS);
      run(first, commands.slice(0, cut));
      const restored = restoreSnapshot(OPTIONS, JSON.parse(JSON.stringify(takeSnapshot(first))));
      run(restored, commands.slice(cut));
      expect(JSON.stringify(takeSnapshot(restored)), `restored at command ${cut}`).toBe(expected);
    }
  });
});
