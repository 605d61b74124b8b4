// Spec E2 rule 8: at most 400 open orders across all futures product types of an account.
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../shared/api/error-codes';
import { createAccountCommand, futuresOrder, placeOrdersCommand, T0 } from '../testing/engine-commands';
import { DEFAULT_CONTRACTS } from './contracts';
import { Engine, type PlaceItemResult } from './engine';
import type { PlaceOrderInput } from './trading';

/** A BTCUSDT limit buy of 0.001 at 50,000 without margin coin or mode. */
function bid(overrides: Partial<PlaceOrderInput> = {}): PlaceOrderInput {
  return futuresOrder({ marginCoin: null, marginMode: null, price: '50000', size: '0.001', ...overrides });
}

function place(engine: Engine, orders: PlaceOrderInput[]): PlaceItemResult[] {
  return engine.apply(placeOrdersCommand('u1', T0, ...orders));
}

describe('per-account open-order limit', () => {
  it('accepts 400 open futures orders across product types and refuses the 401st until one ends', () => {
    const engine = new Engine({ seed: 3, contracts: DEFAULT_CONTRACTS });
    engine.apply({ type: 'setMarketPaused', ts: T0, paused: true });
    engine.apply(
      createAccountCommand('u1', { label: '', balances: { USDT: '1000000', USDC: '1000000' }, apiKey: 'k1' }),
    );
    const usdt = place(
      engine,
      Array.from({ length: 300 }, () => bid()),
    );
    const usdc = place(
      engine,
      Array.from({ length: 100 }, () => bid({ symbol: 'BTCPERP', productType: 'USDC-FUTURES' })),
    );
    expect([...usdt, ...usdc].every((result) => result.ok)).toBe(true);

    const [refused] = place(engine, [bid({ symbol: 'ETHUSDT', price: '2000', size: '0.01' })]);
    expect(refused).toMatchObject({
      ok: false,
      code: ERROR_CODES.orderLimit.code,
      msg: 'The order count has reached the limit of 400 open orders',
    });

    const first = usdt[0];
    if (first === undefined || !first.ok) throw new Error('the first order was placed');
    const [cancelled] = engine.apply({
      type: 'cancelOrders',
      ts: T0,
      uid: 'u1',
      productType: 'USDT-FUTURES',
      symbol: 'BTCUSDT',
      marginCoin: null,
      targets: [{ orderId: first.orderId, clientOid: null }],
    });
    expect(cancelled?.ok).toBe(true);
    expect(place(engine, [bid()])[0]?.ok).toBe(true);
    expect(place(engine, [bid()])[0]?.ok).toBe(false);
  });
});
