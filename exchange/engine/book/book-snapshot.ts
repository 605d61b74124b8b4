import { BUY, SELL, newRestingOrder, type BookSide, type OrderBook, type RestingOrder } from './order-book';

/** A resting order as a snapshot keeps it: [id, price, remaining, owner]. */
export type BookEntry = [number, number, number, number];

/** A book's resting orders per side, each side in price-time priority. */
export interface BookSnapshot {
  bids: BookEntry[];
  asks: BookEntry[];
}

export function saveBook(book: OrderBook): BookSnapshot {
  const side = (bookSide: BookSide) => {
    const entries: BookEntry[] = [];
    for (const level of book.levels(bookSide)) {
      for (let order = level.head; order !== null; order = order.next) {
        entries.push([order.id, order.price, order.remaining, order.owner]);
      }
    }
    return entries;
  };
  return { bids: side(BUY), asks: side(SELL) };
}

/**
 * Puts saved orders back on a book in their priority order; `adopt` re-attaches each to its owner
 * (the simulated market's quotes, or an account's order) and throws if the snapshot has no such order.
 */
export function restoreBook(
  book: OrderBook,
  saved: BookSnapshot,
  adopt: (resting: RestingOrder) => void,
): void {
  for (const [side, entries] of [
    [BUY, saved.bids],
    [SELL, saved.asks],
  ] as const) {
    for (const [id, price, remaining, owner] of entries) {
      const resting = newRestingOrder(id, side, price, remaining, owner);
      book.add(resting);
      adopt(resting);
    }
  }
}
