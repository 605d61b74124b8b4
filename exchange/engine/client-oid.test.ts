import { describe, expect, it } from 'vitest';
import { createAccountCommand, futuresOrder, placeOrdersCommand, T0 } from '../testing/engine-commands';
import { DEFAULT_CONTRACTS } from './contracts';
import { Engine, type PlaceItemResult } from './engine';
import type { PlaceOrderInput } from './trading';

function newEngine(): Engine {
  const engine = new Engine({ seed: 3, contracts: DEFAULT_CONTRACTS });
  engine.apply({ type: 'setMarketPaused', ts: T0, paused: true });
  for (const uid of ['alice', 'bob']) {
    engine.apply(createAccountCommand(uid, { balances: { USDT: '100000' } }));
  }
  return engine;
}

/** A crossed BTCUSDT limit buy of 0.01 at 80,000. */
function bid(clientOid: string | null): PlaceOrderInput {
  return futuresOrder({ price: '80000', size: '0.01', clientOid });
}

function place(engine: Engine, uid: string, clientOid: string | null, ts = T0 + 1): PlaceItemResult {
  const [result] = engine.apply(placeOrdersCommand(uid, ts, bid(clientOid)));
  if (result === undefined) throw new Error('no result');
  return result;
}

describe('default clientOids (an order placed without one answers to its id)', () => {
  it('finds, refuses as duplicate and cancels an order by its default clientOid', () => {
    const engine = newEngine();
    const placed = place(engine, 'alice', null);
    if (!placed.ok) throw new Error(placed.msg);
    expect(placed.clientOid).toBe(placed.orderId);
    const alice = engine.account('alice');
    expect(engine.findOrder(alice, null, placed.orderId)?.id).toBe(Number(placed.orderId));
    // Another account does not see it.
    expect(engine.findOrder(engine.account('bob'), null, placed.orderId)).toBeUndefined();
    expect(place(engine, 'alice', placed.orderId)).toMatchObject({ ok: false, code: '40786' });
    expect(place(engine, 'bob', placed.orderId).ok).toBe(true);
    const [cancelled] = engine.apply({
      type: 'cancelOrders',
      ts: T0 + 2,
      uid: 'alice',
      productType: 'USDT-FUTURES',
      symbol: 'BTCUSDT',
      marginCoin: null,
      targets: [{ orderId: null, clientOid: placed.orderId }],
    });
    expect(cancelled).toMatchObject({ ok: true, orderId: placed.orderId });
  });

  it('gives a clientOid taken ahead of time to the later order whose id it is', () => {
    const engine = newEngine();
    const alice = engine.account('alice');
    const futureId = String(engine.state.nextOrderId + 1);
    const early = place(engine, 'alice', futureId);
    const later = place(engine, 'alice', null);
    if (!early.ok || !later.ok) throw new Error('refused');
    expect(later.orderId).toBe(futureId);
    // As with any reused clientOid, the newest order holds it.
    expect(engine.findOrder(alice, null, futureId)?.id).toBe(Number(later.orderId));
  });

  it('does not take a plain-text clientOid for an order id', () => {
    const engine = newEngine();
    const placed = place(engine, 'alice', null);
    if (!placed.ok) throw new Error(placed.msg);
    const alice = engine.account('alice');
    expect(engine.findOrder(alice, null, ` ${placed.orderId}`)).toBeUndefined();
    expect(engine.findOrder(alice, null, `${placed.orderId}.0`)).toBeUndefined();
  });
});

describe('forgetting finished orders', () => {
  it('forgets own and default clientOids with the order, and only then', () => {
    const engine = newEngine();
    const alice = engine.account('alice');
    const own = place(engine, 'alice', 'keep-me');
    const plain = place(engine, 'alice', null);
    if (!own.ok || !plain.ok) throw new Error('refused');
    engine.apply({
      type: 'cancelOrders',
      ts: T0 + 2,
      uid: 'alice',
      productType: 'USDT-FUTURES',
      symbol: 'BTCUSDT',
      marginCoin: null,
      targets: null,
    });
    // Immediate-or-cancel bids on an empty book finish at once: 50,000 finished orders later,
    // the first two are beyond the retention bound.
    const batch = Array.from({ length: 1_000 }, () => ({ ...bid(null), force: 'ioc' as const }));
    const finishBatch = () =>
      engine.apply({ type: 'placeOrders', ts: T0 + 3, uid: 'bob', version: 'v2', orders: batch });
    for (let round = 0; round < 49; round++) finishBatch();
    expect(engine.findOrder(alice, null, 'keep-me')?.id).toBe(Number(own.orderId));
    expect(engine.findOrder(alice, null, plain.orderId)?.id).toBe(Number(plain.orderId));
    finishBatch();
    expect(engine.findOrder(alice, null, 'keep-me')).toBeUndefined();
    expect(engine.findOrder(alice, null, plain.orderId)).toBeUndefined();
    expect(alice.clientOids.size).toBe(0);
    expect(place(engine, 'alice', 'keep-me', T0 + 4).ok).toBe(true);
  });
});
