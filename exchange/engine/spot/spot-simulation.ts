import type { Side } from '../../../shared/api/enums';
import { BUY, SELL, newRestingOrder, type BookSide, type RestingOrder } from '../book/order-book';
import { MARKET_OWNER } from '../state';
import { forSymbol, Rng } from '../../market/random';
import { buildQuoteLadder, type QuoteLadderParams } from '../../market/liquidity';
import { nextTakerOrders, type TakerFlowParams } from '../../market/taker-flow';
import { defaultMarketSetup, hasDefaultMarket } from '../../market/fair-values';
import type { SpotMarket } from './spot-state';
import { spotLotSize, spotTickSize, type SpotSymbolSpec } from './spot-symbols';

/** Longest simulated step, as in the futures markets. */
const MAX_STEP_MS = 60_000;

export interface SpotSimulationSnapshot {
  lastTickTs: number;
  lastFair: number;
  nextMakerId: number;
  rng: number[];
  ladder: QuoteLadderParams;
  flow: TakerFlowParams;
}

/** Takes `lots` from the book for the simulated crowd, up to `limit` ticks. */
export type SystemTake = (market: SpotMarket, side: Side, lots: number, limit: number, ts: number) => void;

/**
 * The simulated participants of one spot symbol: a maker quoting a ladder around the index (the
 * spot price follows its base coin's index rather than walking on its own) and a stream of takers.
 * It acts only inside engine commands, drawing on a seeded generator, so a replay repeats it.
 */
export class SpotSimulation {
  private makerOrders: RestingOrder[] = [];

  private constructor(
    private lastTickTs: number,
    private lastFair: number,
    private nextMakerId: number,
    private readonly rng: Rng,
    private readonly ladder: QuoteLadderParams,
    private readonly flow: TakerFlowParams,
  ) {}

  static create(spec: SpotSymbolSpec, seed: number, startTicks: number): SpotSimulation {
    const grid = { tick: spotTickSize(spec), lot: spotLotSize(spec) };
    const setup = defaultMarketSetup(hasDefaultMarket(spec.symbol) ? spec.symbol : 'BTCUSDT', grid);
    return new SpotSimulation(0, startTicks, -1, forSymbol(seed, `SPOT:${spec.symbol}`), setup.ladder, {
      ...setup.takerFlow,
      // Spot trades a little less often than the perpetual of the same coin.
      ordersPerSecond: setup.takerFlow.ordersPerSecond / 2,
    });
  }

  static fromSnapshot(snapshot: SpotSimulationSnapshot): SpotSimulation {
    return new SpotSimulation(
      snapshot.lastTickTs,
      snapshot.lastFair,
      snapshot.nextMakerId,
      Rng.fromState(snapshot.rng),
      snapshot.ladder,
      snapshot.flow,
    );
  }

  toSnapshot(): SpotSimulationSnapshot {
    return {
      lastTickTs: this.lastTickTs,
      lastFair: this.lastFair,
      nextMakerId: this.nextMakerId,
      rng: [...this.rng.state],
      ladder: this.ladder,
      flow: this.flow,
    };
  }

  adoptMakerOrder(order: RestingOrder): void {
    this.makerOrders.push(order);
  }

  /** One step: the maker re-quotes around the index `fairTicks`, takers trade. */
  tick(market: SpotMarket, fairTicks: number, paused: boolean, ts: number, take: SystemTake): void {
    const elapsed = this.lastTickTs === 0 ? 0 : Math.min(MAX_STEP_MS, ts - this.lastTickTs);
    this.lastTickTs = ts;
    if (paused) {
      this.withdraw(market);
      return;
    }
    const move = fairTicks - this.lastFair;
    this.lastFair = fairTicks;
    if (elapsed <= 0 && this.makerOrders.length > 0) return;
    this.requote(market, fairTicks, ts, take);
    if (elapsed <= 0) return;
    for (const taker of nextTakerOrders(this.rng, elapsed, this.flow, move)) {
      take(market, taker.side, taker.lots, taker.side === 'buy' ? Number.MAX_SAFE_INTEGER : 1, ts);
    }
  }

  /** Takes the maker's quotes off the book. */
  withdraw(market: SpotMarket): void {
    for (const order of this.makerOrders) market.book.remove(order);
    this.makerOrders = [];
  }

  /** New ladder; resting orders the ladder would cross are first taken at their own price. */
  private requote(market: SpotMarket, fairTicks: number, ts: number, take: SystemTake): void {
    const book = market.book;
    this.withdraw(market);
    const ladder = buildQuoteLadder(this.rng, fairTicks, this.ladder);
    const bestAsk = ladder.asks[0]?.[0];
    const bestBid = ladder.bids[0]?.[0];
    if (bestAsk !== undefined) {
      const crossing = book.lotsUpTo(BUY, bestAsk, null);
      if (crossing > 0) take(market, 'sell', crossing, bestAsk, ts);
    }
    if (bestBid !== undefined) {
      const crossing = book.lotsUpTo(SELL, bestBid, null);
      if (crossing > 0) take(market, 'buy', crossing, bestBid, ts);
    }
    for (const [price, lots] of ladder.bids) this.quote(market, BUY, price, lots);
    for (const [price, lots] of ladder.asks) this.quote(market, SELL, price, lots);
  }

  private quote(market: SpotMarket, side: BookSide, price: number, lots: number): void {
    const order = newRestingOrder(this.nextMakerId--, side, price, lots, MARKET_OWNER);
    market.book.add(order);
    this.makerOrders.push(order);
  }
}
