import { describe, expect, it } from 'vitest';
import { BUY, OrderBook, SELL, newRestingOrder } from './order-book';

function levelsOf(book: OrderBook, side: typeof BUY | typeof SELL): Array<[number, number]> {
  return [...book.levels(side)].map((level) => [level.price, level.totalLots]);
}

describe('OrderBook', () => {
  it('keeps both sides sorted best-first and aggregates levels', () => {
    const book = new OrderBook();
    book.add(newRestingOrder(1, BUY, 100, 5, 1));
    book.add(newRestingOrder(2, BUY, 102, 1, 1));
    book.add(newRestingOrder(3, BUY, 101, 2, 1));
    book.add(newRestingOrder(4, BUY, 102, 3, 2));
    book.add(newRestingOrder(5, SELL, 105, 1, 1));
    book.add(newRestingOrder(6, SELL, 103, 4, 1));
    expect(levelsOf(book, BUY)).toEqual([
      [102, 4],
      [101, 2],
      [100, 5],
    ]);
    expect(levelsOf(book, SELL)).toEqual([
      [103, 4],
      [105, 1],
    ]);
    expect(book.bestPrice(BUY)).toBe(102);
    expect(book.bestPrice(SELL)).toBe(103);
  });

  it('serves a level first in, first out and cancels from the middle', () => {
    const book = new OrderBook();
    const first = newRestingOrder(1, SELL, 50, 1, 1);
    const second = newRestingOrder(2, SELL, 50, 2, 2);
    const third = newRestingOrder(3, SELL, 50, 3, 3);
    book.add(first);
    book.add(second);
    book.add(third);
    book.remove(second);
    const level = book.best(SELL);
    expect(level?.head?.id).toBe(1);
    expect(level?.head?.next?.id).toBe(3);
    expect(level?.totalLots).toBe(4);
    book.fill(first, 1);
    expect(book.best(SELL)?.head?.id).toBe(3);
    book.fill(third, 3);
    expect(book.best(SELL)).toBeUndefined();
    expect(book.levelCount(SELL)).toBe(0);
  });

  it('counts the lots a taker could reach, optionally without its own orders', () => {
    const book = new OrderBook();
    book.add(newRestingOrder(1, SELL, 10, 2, 7));
    book.add(newRestingOrder(2, SELL, 11, 3, 8));
    book.add(newRestingOrder(3, SELL, 12, 4, 8));
    expect(book.lotsUpTo(SELL, 11, null)).toBe(5);
    expect(book.lotsUpTo(SELL, 11, 7)).toBe(3);
    expect(book.lotsUpTo(SELL, 9, null)).toBe(0);
  });

  it('drops emptied levels anywhere in the ladder', () => {
    const book = new OrderBook();
    const orders = [100, 99, 98, 97].map((price, index) => newRestingOrder(index + 1, BUY, price, 1, 1));
    for (const order of orders) book.add(order);
    book.remove(orders[2]!);
    expect(levelsOf(book, BUY).map(([price]) => price)).toEqual([100, 99, 97]);
    book.remove(orders[0]!);
    expect(book.bestPrice(BUY)).toBe(99);
  });
});
