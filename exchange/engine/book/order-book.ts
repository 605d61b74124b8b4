// A limit order book with price-time priority. Prices are integer ticks and sizes integer lots.
// Each side keeps its price levels in an array sorted worst-first, so the best level is the last
// element and touching the top is O(1); levels are FIFO queues of resting orders in a doubly
// linked list, so cancelling any order is O(1).

export const BUY = 0;
export const SELL = 1;
export type BookSide = typeof BUY | typeof SELL;

export interface RestingOrder {
  readonly id: number;
  readonly side: BookSide;
  readonly price: number;
  remaining: number;
  /** The account that owns it; 0 for the simulated market maker. */
  readonly owner: number;
  prev: RestingOrder | null;
  next: RestingOrder | null;
  level: PriceLevel | null;
}

export class PriceLevel {
  head: RestingOrder | null = null;
  tail: RestingOrder | null = null;
  totalLots = 0;
  orderCount = 0;
  constructor(readonly price: number) {}
}

class SideLadder {
  /** Sorted worst-first: ascending prices for bids, descending for asks. */
  readonly prices: number[] = [];
  readonly levels = new Map<number, PriceLevel>();
  constructor(private readonly isBid: boolean) {}

  best(): PriceLevel | undefined {
    const price = this.prices[this.prices.length - 1];
    return price === undefined ? undefined : this.levels.get(price);
  }

  levelFor(price: number): PriceLevel {
    let level = this.levels.get(price);
    if (level !== undefined) return level;
    level = new PriceLevel(price);
    this.levels.set(price, level);
    const prices = this.prices;
    // Most new levels land at or near the top of the book: search from the end.
    let index = prices.length;
    if (this.isBid) {
      while (index > 0 && (prices[index - 1] as number) > price) index--;
    } else {
      while (index > 0 && (prices[index - 1] as number) < price) index--;
    }
    if (index === prices.length) prices.push(price);
    else prices.splice(index, 0, price);
    return level;
  }

  dropLevel(level: PriceLevel): void {
    this.levels.delete(level.price);
    const prices = this.prices;
    const last = prices.length - 1;
    if (prices[last] === level.price) {
      prices.pop();
      return;
    }
    const index = this.indexOf(level.price);
    if (index >= 0) prices.splice(index, 1);
  }

  private indexOf(price: number): number {
    // Binary search over the worst-first array.
    let low = 0;
    let high = this.prices.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const value = this.prices[middle] as number;
      if (value === price) return middle;
      const goRight = this.isBid ? value < price : value > price;
      if (goRight) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  /** Levels best-first, at most `max`. */
  *bestFirst(max: number): Generator<PriceLevel> {
    let count = 0;
    for (let index = this.prices.length - 1; index >= 0 && count < max; index--, count++) {
      yield this.levels.get(this.prices[index] as number) as PriceLevel;
    }
  }
}

export class OrderBook {
  private readonly ladders: [SideLadder, SideLadder] = [new SideLadder(true), new SideLadder(false)];

  /** Appends an order at the back of its price level's queue. */
  add(order: RestingOrder): void {
    const level = this.ladders[order.side].levelFor(order.price);
    order.level = level;
    order.prev = level.tail;
    order.next = null;
    if (level.tail === null) level.head = order;
    else level.tail.next = order;
    level.tail = order;
    level.totalLots += order.remaining;
    level.orderCount++;
  }

  /** Takes an order off the book (cancel or complete fill). */
  remove(order: RestingOrder): void {
    const level = order.level;
    if (level === null) return;
    if (order.prev === null) level.head = order.next;
    else order.prev.next = order.next;
    if (order.next === null) level.tail = order.prev;
    else order.next.prev = order.prev;
    level.totalLots -= order.remaining;
    level.orderCount--;
    order.prev = null;
    order.next = null;
    order.level = null;
    if (level.orderCount === 0) this.ladders[order.side].dropLevel(level);
  }

  /** Takes `lots` from a resting order (a fill); removes it when nothing remains. */
  fill(order: RestingOrder, lots: number): void {
    order.remaining -= lots;
    const level = order.level;
    if (level !== null) level.totalLots -= lots;
    if (order.remaining === 0) this.remove(order);
  }

  best(side: BookSide): PriceLevel | undefined {
    return this.ladders[side].best();
  }

  bestPrice(side: BookSide): number | undefined {
    return this.ladders[side].best()?.price;
  }

  levels(side: BookSide, max = Number.POSITIVE_INFINITY): Generator<PriceLevel> {
    return this.ladders[side].bestFirst(max);
  }

  levelCount(side: BookSide): number {
    return this.ladders[side].prices.length;
  }

  /** Lots resting on `side` at prices at least as good for a taker as `limit`. */
  lotsUpTo(side: BookSide, limit: number, excludeOwner: number | null): number {
    let total = 0;
    for (const level of this.ladders[side].bestFirst(Number.POSITIVE_INFINITY)) {
      if (side === SELL ? level.price > limit : level.price < limit) break;
      if (excludeOwner === null) {
        total += level.totalLots;
        continue;
      }
      for (let order = level.head; order !== null; order = order.next) {
        if (order.owner !== excludeOwner) total += order.remaining;
      }
    }
    return total;
  }
}

export function newRestingOrder(
  id: number,
  side: BookSide,
  price: number,
  lots: number,
  owner: number,
): RestingOrder {
  return { id, side, price, remaining: lots, owner, prev: null, next: null, level: null };
}
