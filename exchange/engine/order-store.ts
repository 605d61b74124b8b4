import type { Order } from './types';

/** Ids per page: small, so a page kept alive by one long-resting order costs little memory. */
const PAGE_SIZE = 512;

class Page {
  readonly slots: Array<Order | undefined> = new Array<Order | undefined>(PAGE_SIZE).fill(undefined);
  count = 0;
}

/**
 * Orders by id. Ids are handed out in increasing order and orders are forgotten roughly in the
 * same order, so they sit in pages of consecutive ids: a look-up is one small-map hit and an
 * array index, where one large Map costs a cache miss or more per operation.
 */
export class OrderStore {
  private readonly pages = new Map<number, Page>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(id: number): Order | undefined {
    const pageIndex = Math.floor(id / PAGE_SIZE);
    const page = this.pages.get(pageIndex);
    return page === undefined ? undefined : page.slots[id - pageIndex * PAGE_SIZE];
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(id: number, order: Order): this {
    if (!Number.isSafeInteger(id)) throw new Error(`order id ${id} is not an integer`);
    const pageIndex = Math.floor(id / PAGE_SIZE);
    let page = this.pages.get(pageIndex);
    if (page === undefined) {
      page = new Page();
      this.pages.set(pageIndex, page);
    }
    const slot = id - pageIndex * PAGE_SIZE;
    if (page.slots[slot] === undefined) {
      page.count++;
      this.count++;
    }
    page.slots[slot] = order;
    return this;
  }

  delete(id: number): boolean {
    const pageIndex = Math.floor(id / PAGE_SIZE);
    const page = this.pages.get(pageIndex);
    if (page === undefined) return false;
    const slot = id - pageIndex * PAGE_SIZE;
    if (page.slots[slot] === undefined) return false;
    page.slots[slot] = undefined;
    page.count--;
    this.count--;
    if (page.count === 0) this.pages.delete(pageIndex);
    return true;
  }

  /** Every order, in id order (the order they were placed in). */
  *values(): Generator<Order> {
    const pageIndexes = [...this.pages.keys()].sort((a, b) => a - b);
    for (const pageIndex of pageIndexes) {
      const page = this.pages.get(pageIndex);
      if (page === undefined) continue;
      for (const order of page.slots) if (order !== undefined) yield order;
    }
  }
}
