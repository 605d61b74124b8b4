import { describe, expect, it } from 'vitest';
import { createAccountCommand, spotOrder } from '../../testing/engine-commands';
import type { Command } from '../commands';
import { DEFAULT_CONTRACTS } from '../contracts';
import { Engine } from '../engine';
import { formatMoney } from '../money';
import { restoreSnapshot, takeSnapshot } from '../snapshot';
import { debtAt, interestFor } from './borrowing';

const options = { seed: 7, contracts: DEFAULT_CONTRACTS };
const T0 = Date.UTC(2024, 0, 1, 0, 10);
const MINUTE = 60_000;

function account(uid: string, balances: Record<string, string>): Command {
  return createAccountCommand(uid, { ts: T0, balances, apiKey: `k-${uid}` });
}

describe('margin interest', () => {
  it('charges loan x daily rate / 24 for every hour begun, paid before the principal', () => {
    // The published example: 10,000 USDT at 0.0126279% a day, borrowed at 00:10 and repaid at
    // 02:30, is charged 3 hours: 10,000 x 0.0126279% / 24 x 3 = 0.15784875 USDT.
    expect(formatMoney(interestFor('USDT', 10_000n * 100_000_000n, 3))).toBe('0.15784875');
    const engine = new Engine(options);
    engine.apply(account('u1', { USDT: '1000' }));
    const holder = engine.state.accounts.get('u1')!;
    engine.spot.borrowing.borrow(holder, 'USDT', 10_000n * 100_000_000n, 'BTCUSDT', T0);
    const liability = () => engine.state.spot.accounts.get('u1')?.liabilities.get('USDT');
    expect(formatMoney(debtAt('USDT', liability(), T0 + 49 * MINUTE))).toBe('10000.05261625');
    expect(formatMoney(debtAt('USDT', liability(), T0 + 50 * MINUTE))).toBe('10000.1052325');
    engine.spot.borrowing.autoRepay(holder, 'USDT', 'BTCUSDT', T0 + 140 * MINUTE);
    expect(liability()).toBeUndefined();
    expect(
      holder.records.slice(-3).map((r) => [r.type, formatMoney(r.amount), formatMoney(r.balance)]),
    ).toEqual([
      ['BORROW', '10000', '11000'],
      ['INTEREST', '-0.15784875', '10999.84215125'],
      ['REPAY', '-10000', '999.84215125'],
    ]);
  });
});

/** A live market: ticks move every book, accounts trade spot and margin against the simulated crowd. */
function liveDay(): Command[] {
  const list: Command[] = [account('a', { USDT: '20000', BTC: '0.5' }), account('b', { USDT: '5000' })];
  let ts = T0;
  for (let step = 0; step < 300; step++) {
    ts += 1_000;
    list.push({ type: 'tick', ts });
    if (step % 15 === 5) {
      const margin = step % 30 === 5;
      list.push({
        type: 'placeSpotOrders',
        ts,
        uid: margin ? 'b' : 'a',
        orders: [
          spotOrder({ category: margin ? 'MARGIN' : 'SPOT', side: 'buy', qty: '3000' }),
          spotOrder({ side: 'sell', orderType: 'limit', price: '95100', qty: '0.01', force: 'gtc' }),
          spotOrder({ category: margin ? 'MARGIN' : 'SPOT', symbol: 'ETHUSDT', side: 'sell', qty: '0.5' }),
        ],
      });
    }
  }
  return list;
}

function run(engine: Engine, list: Command[]): void {
  for (const command of list) engine.apply(command);
}

describe('spot state across snapshots and replays', () => {
  it('a restored engine continues exactly like the original, loans and simulated books included', () => {
    const list = liveDay();
    const half = Math.floor(list.length / 2);
    const original = new Engine(options);
    run(original, list.slice(0, half));
    const restored = restoreSnapshot(options, JSON.parse(JSON.stringify(takeSnapshot(original))));
    expect(takeSnapshot(restored)).toEqual(takeSnapshot(original));
    run(original, list.slice(half));
    run(restored, list.slice(half));
    expect(takeSnapshot(restored)).toEqual(takeSnapshot(original));
    // Something happened: spot orders filled against the crowd and margin orders borrowed.
    const b = original.state.accounts.get('b')!;
    expect(b.records.some((record) => record.type === 'BORROW')).toBe(true);
    expect([...original.state.spot.orders.values()].some((o) => o.status === 'filled')).toBe(true);
    expect(original.state.spot.markets.get('BTCUSDT')!.book.levelCount(0)).toBeGreaterThan(10);
  });

  it('the frozen sums of a restored account equal those of the original', () => {
    const original = new Engine(options);
    // A bid far below the market stays open and keeps 10 USDT reserved.
    run(original, [
      ...liveDay(),
      {
        type: 'placeSpotOrders',
        ts: T0 + 400_000,
        uid: 'a',
        orders: [spotOrder({ side: 'buy', orderType: 'limit', price: '10000', qty: '0.001' })],
      },
    ]);
    const restored = restoreSnapshot(options, JSON.parse(JSON.stringify(takeSnapshot(original))));
    const reserved = (engine: Engine, uid: string) =>
      [...engine.state.accounts.get(uid)!.frozen].filter(([, amount]) => amount !== 0n);
    expect(reserved(original, 'a')).toContainEqual(['USDT', 1_000_000_000n]);
    for (const uid of ['a', 'b']) expect(reserved(restored, uid)).toEqual(reserved(original, uid));
  });
});
