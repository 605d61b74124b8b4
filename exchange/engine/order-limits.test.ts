// Spec E2 rule 8: at most 400 open orders across all futures product types of an account.
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../shared/api/error-codes';
import { DEFAULT_CONTRACTS } from './contracts';
import { Engine, type PlaceItemResult } from './engine';
import type { PlaceOrderInput } from './trading';

const T0 = 1_700_000_000_000;

function bid(overrides: Partial<PlaceOrderInput> = {}): PlaceOrderInput {
  return {
    symbol: 'BTCUSDT',
    productType: 'USDT-FUTURES',
    marginCoin: null,
    marginMode: null,
    side: 'buy',
    tradeSide: null,
    posSide: null,
    orderType: 'limit',
    force: 'gtc',
    price: '50000',
    size: '0.001',
    clientOid: null,
    reduceOnly: false,
    presetStopSurplusPrice: null,
    presetStopLossPrice: null,
    stpMode: 'none',
    ...overrides,
  };
}

function place(engine: Engine, orders: PlaceOrderInput[]): PlaceItemResult[] {
  return engine.apply({ type: 'placeOrders', ts: T0, uid: 'u1', version: 'v2', orders });
}

describe('per-account open-order limit', () => {
  it('accepts 400 open futures orders across product types and refuses the 401st until one ends', () => {
    const engine = new Engine({ seed: 3, contracts: DEFAULT_CONTRACTS });
    engine.apply({ type: 'setMarketPaused', ts: T0, paused: true });
    engine.apply({
      type: 'createAccount',
      ts: T0,
      uid: 'u1',
      kind: 'standard',
      brokerUid: null,
      label: '',
      posMode: 'one_way_mode',
      balances: { USDT: '1000000', USDC: '1000000' },
      key: { apiKey: 'k1', secretKey: 's', passphrase: 'p', permissions: ['read', 'trade'] },
    });
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
