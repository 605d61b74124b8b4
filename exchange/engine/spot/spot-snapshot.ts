import { restoreBook, saveBook, type BookSnapshot } from '../book/book-snapshot';
import type { Engine } from '../engine';
import { SpotSimulation, type SpotSimulationSnapshot } from './spot-simulation';
import type { Liability, SpotOrder } from './spot-state';

/** The spot and margin state as plain data (bigints stay bigints; the caller encodes them). */
export interface SpotSnapshot {
  markets: Array<BookSnapshot & { symbol: string; lastPrice: number; sim: SpotSimulationSnapshot }>;
  orders: Array<Omit<SpotOrder, 'resting'>>;
  accounts: Array<{ uid: string; openOrders: number[]; liabilities: Array<[string, Liability]> }>;
  finished: number[];
}

export function takeSpotSnapshot(engine: Engine): SpotSnapshot {
  const spot = engine.state.spot;
  return {
    markets: [...spot.markets.values()].map((market) => ({
      symbol: market.spec.symbol,
      lastPrice: market.lastPrice,
      sim: market.sim.toSnapshot(),
      ...saveBook(market.book),
    })),
    orders: [...spot.orders.values()].map(({ resting: _resting, ...order }) => order),
    accounts: [...spot.accounts].map(([uid, account]) => ({
      uid,
      openOrders: [...account.openOrders],
      liabilities: [...account.liabilities].map(([coin, liability]) => [coin, { ...liability }]),
    })),
    finished: [...spot.finished],
  };
}

/**
 * Restores the spot state into a fresh engine whose futures state is already restored; their
 * reservations join the accounts' frozen sums. A snapshot without spot state leaves it empty.
 */
export function restoreSpotSnapshot(engine: Engine, snapshot: SpotSnapshot | undefined): void {
  if (snapshot === undefined) return;
  const state = engine.state;
  const spot = state.spot;
  for (const saved of snapshot.orders) {
    const order: SpotOrder = { ...saved, resting: null };
    spot.orders.set(order.id, order);
  }
  for (const saved of snapshot.accounts) {
    const openOrders = new Set(saved.openOrders);
    spot.accounts.set(saved.uid, { openOrders, liabilities: new Map(saved.liabilities) });
    const account = state.accounts.get(saved.uid);
    if (account === undefined) throw new Error(`snapshot spot account ${saved.uid} belongs to no account`);
    for (const id of openOrders) {
      const order = spot.orders.get(id);
      if (order === undefined) throw new Error(`snapshot spot order ${id} is open but not described`);
      account.frozen.set(order.frozenCoin, (account.frozen.get(order.frozenCoin) ?? 0n) + order.frozen);
    }
  }
  spot.finished = [...snapshot.finished];
  for (const saved of snapshot.markets) {
    const market = spot.markets.get(saved.symbol);
    if (market === undefined)
      throw new Error(`snapshot has spot market ${saved.symbol}, which is not listed`);
    const sim = SpotSimulation.fromSnapshot(saved.sim);
    const restored = spot.addMarket(market.spec, sim, saved.lastPrice);
    restoreBook(restored.book, saved, (resting) => {
      if (resting.owner === 0) {
        sim.adoptMakerOrder(resting);
        return;
      }
      const order = spot.orders.get(resting.id);
      if (order === undefined)
        throw new Error(`snapshot spot book holds order ${resting.id} it does not describe`);
      order.resting = resting;
    });
  }
}
