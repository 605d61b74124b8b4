import { describe, expect, it } from 'vitest';
import { OrderStore } from './order-store';
import type { Order } from './types';

const orderWithId = (id: number) => ({ id }) as unknown as Order;

describe('OrderStore', () => {
  it('keeps, finds and forgets orders by id across pages, iterating in id order', () => {
    const store = new OrderStore();
    const ids = [1_000_000_001, 1_000_000_002, 1_000_000_600, 1_000_005_000, 2_000_000_000_000];
    for (const id of ids) store.set(id, orderWithId(id));
    expect(store.size).toBe(5);
    expect(store.get(1_000_000_600)?.id).toBe(1_000_000_600);
    expect(store.has(1_000_000_003)).toBe(false);
    expect(store.get(Number('not a number'))).toBeUndefined();
    expect(store.get(1_000_000_001.5)).toBeUndefined();
    expect([...store.values()].map((order) => order.id)).toEqual(ids);

    expect(store.delete(1_000_000_600)).toBe(true);
    expect(store.delete(1_000_000_600)).toBe(false);
    expect(store.get(1_000_000_600)).toBeUndefined();
    store.set(1_000_000_001, orderWithId(1_000_000_001));
    expect(store.size).toBe(4);
    expect([...store.values()].map((order) => order.id)).toEqual([
      1_000_000_001, 1_000_000_002, 1_000_005_000, 2_000_000_000_000,
    ]);
  });

  it('refuses an id that is not a safe integer', () => {
    expect(() => new OrderStore().set(1.5, orderWithId(1.5))).toThrow();
  });
});
