import { describe, expect, it } from 'vitest';
import { createAccountCommand, futuresOrder, placeOrdersCommand, T0 } from '../testing/engine-commands';
import type { Command } from './commands';
import { DEFAULT_CONTRACTS } from './contracts';
import { Engine } from './engine';
import { restoreSnapshot, takeSnapshot } from './snapshot';

const options = { seed: 42, contracts: DEFAULT_CONTRACTS };

/** A day in the life of the exchange: accounts, ticks of the simulated market, orders near the touch. */
function commands(): Command[] {
  const list: Command[] = [];
  for (const uid of ['u1', 'u2']) {
    list.push(
      createAccountCommand(uid, {
        posMode: uid === 'u1' ? 'one_way_mode' : 'hedge_mode',
        balances: { USDT: '50000', BTC: '1' },
        apiKey: `k-${uid}`,
      }),
    );
  }
  let ts = T0;
  for (let step = 0; step < 400; step++) {
    ts += 250;
    list.push({ type: 'tick', ts });
    if (step % 10 === 3) {
      const engineFree = step % 20 === 3;
      list.push(
        placeOrdersCommand(
          engineFree ? 'u1' : 'u2',
          ts,
          futuresOrder({
            side: step % 40 < 20 ? 'buy' : 'sell',
            tradeSide: engineFree ? null : 'open',
            orderType: step % 30 === 3 ? 'market' : 'limit',
            price: step % 30 === 3 ? null : '95000',
            size: '0.01',
            clientOid: `c${step}`,
          }),
        ),
      );
    }
  }
  return list;
}

function run(engine: Engine, list: Command[]): void {
  for (const command of list) {
    try {
      engine.apply(command);
    } catch {
      // Refused commands change nothing; the journal never holds them.
    }
  }
}

describe('engine snapshots', () => {
  it('restores to a state that continues exactly like the original', () => {
    const list = commands();
    const half = Math.floor(list.length / 2);
    const original = new Engine(options);
    run(original, list.slice(0, half));
    const saved = JSON.parse(JSON.stringify(takeSnapshot(original)));
    const restored = restoreSnapshot(options, saved);
    expect(takeSnapshot(restored)).toEqual(takeSnapshot(original));
    run(original, list.slice(half));
    run(restored, list.slice(half));
    expect(takeSnapshot(restored)).toEqual(takeSnapshot(original));
    // Something really happened: the market traded and the accounts hold orders or positions.
    expect(original.state.market('BTCUSDT')!.fills.length).toBeGreaterThan(10);
    expect(original.state.orders.size).toBeGreaterThan(10);
  });

  it('replays the same commands to the same state', () => {
    const first = new Engine(options);
    const second = new Engine(options);
    run(first, commands());
    run(second, commands());
    expect(takeSnapshot(second)).toEqual(takeSnapshot(first));
  });
});
