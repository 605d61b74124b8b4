import { describe, expect, it } from 'vitest';
import { isTriggered, TriggerPlanStore } from './trigger-plans';
import type { TriggerPlan } from './types';

function plan(id: number, symbol: string, fields: Partial<TriggerPlan> = {}): TriggerPlan {
  return {
    id,
    clientOid: String(id),
    uid: 'u1',
    symbol,
    productType: 'USDT-FUTURES',
    holdSide: 'long',
    kind: 'pos_profit',
    triggerPrice: 960_000,
    triggerType: 'fill_price',
    executePrice: 0,
    lots: 0,
    stpMode: 'none',
    cTime: 0,
    ...fields,
  };
}

describe('TriggerPlanStore', () => {
  it('keeps the per-symbol index in step with additions and removals, in creation order', () => {
    const store = new TriggerPlanStore();
    store.set(1, plan(1, 'BTCUSDT')).set(2, plan(2, 'ETHUSDT')).set(3, plan(3, 'BTCUSDT'));
    expect([...store.ofSymbol('BTCUSDT')].map((item) => item.id)).toEqual([1, 3]);
    store.delete(1);
    store.delete(2);
    expect([...store.ofSymbol('BTCUSDT')].map((item) => item.id)).toEqual([3]);
    expect([...store.symbols()]).toEqual(['BTCUSDT']);
    store.clear();
    expect([...store.ofSymbol('BTCUSDT')]).toEqual([]);
  });
});

describe('isTriggered', () => {
  it('fires a long take-profit at or above its trigger and a long stop-loss at or below', () => {
    expect(isTriggered(plan(1, 'BTCUSDT'), 950_000, 959_999)).toBe(false);
    expect(isTriggered(plan(1, 'BTCUSDT'), 950_000, 960_000)).toBe(true);
    const stopLoss = plan(2, 'BTCUSDT', { kind: 'loss_plan', triggerPrice: 940_000 });
    expect(isTriggered(stopLoss, 940_001, 960_000)).toBe(false);
    expect(isTriggered(stopLoss, 940_000, 960_000)).toBe(true);
  });

  it('fires a short take-profit below and a short stop-loss above', () => {
    const takeProfit = plan(1, 'BTCUSDT', { holdSide: 'short', triggerPrice: 940_000 });
    expect(isTriggered(takeProfit, 940_000, 940_000)).toBe(true);
    expect(isTriggered(takeProfit, 940_001, 990_000)).toBe(false);
    const stopLoss = plan(2, 'BTCUSDT', { holdSide: 'short', kind: 'pos_loss', triggerPrice: 960_000 });
    expect(isTriggered(stopLoss, 900_000, 960_000)).toBe(true);
    expect(isTriggered(stopLoss, 900_000, 959_999)).toBe(false);
  });
});
