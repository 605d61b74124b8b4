import { BUY, SELL, newRestingOrder, type RestingOrder } from './book/order-book';
import { lotSize, tickSize, type ContractSpec } from './contracts';
import { forSymbol, Rng } from '../market/random';
import { reanchor, stepFairPrice, type PricePathParams } from '../market/price-path';
import { buildQuoteLadder, type QuoteLadderParams } from '../market/liquidity';
import { nextTakerOrders, type TakerFlowParams } from '../market/taker-flow';
import { TickerStats } from '../market/ticker-stats';
import { defaultMarketSetup } from '../market/fair-values';
import { MARKET_OWNER, type Market } from './state';
import type { Engine } from './engine';

/** Longest simulated step: after a long stop the market resumes instead of replaying hours of flow. */
const MAX_STEP_MS = 60_000;

export interface MarketSimulationSnapshot {
  fairPrice: number;
  lastTickTs: number;
  lastMove: number;
  nextMakerId: number;
  rng: number[];
  path: PricePathParams;
  ladder: QuoteLadderParams;
  flow: TakerFlowParams;
  stats: unknown;
}

/**
 * The simulated participants of one symbol: a market maker quoting a ladder around the fair price
 * and a stream of takers. It acts only inside engine commands (tick, price moves), drawing on a
 * seeded generator kept in the state, so a replay reproduces every quote and trade.
 */
export class MarketSimulation {
  /** Quotes of the market maker currently on the book. */
  private makerOrders: RestingOrder[] = [];

  private constructor(
    public fairPrice: number,
    private lastTickTs: number,
    private lastMove: number,
    private nextMakerId: number,
    private rng: Rng,
    private path: PricePathParams,
    private readonly ladder: QuoteLadderParams,
    private readonly flow: TakerFlowParams,
    readonly stats: TickerStats,
  ) {}

  static create(contract: ContractSpec, seed: number): MarketSimulation {
    const setup = defaultMarketSetup(contract.symbol, { tick: tickSize(contract), lot: lotSize(contract) });
    return new MarketSimulation(
      setup.startFairTicks,
      0,
      -1,
      0,
      forSymbol(seed, contract.symbol),
      setup.pricePath,
      setup.ladder,
      setup.takerFlow,
      new TickerStats(setup.startFairTicks),
    );
  }

  static fromSnapshot(snapshot: MarketSimulationSnapshot): MarketSimulation {
    return new MarketSimulation(
      snapshot.fairPrice,
      snapshot.lastTickTs,
      snapshot.lastMove,
      snapshot.nextMakerId,
      Rng.fromState(snapshot.rng),
      snapshot.path,
      snapshot.ladder,
      snapshot.flow,
      TickerStats.fromJSON(snapshot.stats),
    );
  }

  toSnapshot(): MarketSimulationSnapshot {
    return {
      fairPrice: this.fairPrice,
      lastTickTs: this.lastTickTs,
      lastMove: this.lastMove,
      nextMakerId: this.nextMakerId,
      rng: [...this.rng.state],
      path: this.path,
      ladder: this.ladder,
      flow: this.flow,
      stats: this.stats.toJSON(),
    };
  }

  /** The mark price; it follows the fair (index) price. */
  get markPrice(): number {
    return this.fairPrice;
  }

  get indexPrice(): number {
    return this.fairPrice;
  }

  /** Re-attaches a market-maker quote found on a restored book. */
  adoptMakerOrder(order: RestingOrder): void {
    this.makerOrders.push(order);
  }

  recordTrade(ts: number, price: number, lots: number): void {
    this.stats.record(ts, price, lots);
  }

  /** One step of simulated time: the price walks, the maker re-quotes, takers trade. */
  tick(engine: Engine, market: Market, ts: number): void {
    const elapsed = this.lastTickTs === 0 ? 0 : Math.min(MAX_STEP_MS, ts - this.lastTickTs);
    this.lastTickTs = ts;
    if (engine.state.marketPaused) {
      this.withdraw(market);
      return;
    }
    if (elapsed <= 0) {
      if (this.makerOrders.length === 0) this.requote(engine, market, ts);
      return;
    }
    const previous = this.fairPrice;
    this.fairPrice = stepFairPrice(this.rng, this.fairPrice, elapsed, this.path);
    this.lastMove = this.fairPrice - previous;
    this.requote(engine, market, ts);
    for (const taker of nextTakerOrders(this.rng, elapsed, this.flow, this.lastMove)) {
      const limit = taker.side === 'buy' ? Number.MAX_SAFE_INTEGER : 1;
      engine.trading.systemTake(market, taker.side, taker.lots, limit, ts);
    }
    engine.state.version++;
  }

  /** An administrator moved the market: the price jumps there and the walk is anchored there. */
  moveTo(engine: Engine, market: Market, ticks: number, ts: number): void {
    this.fairPrice = ticks;
    this.path = reanchor(this.path, ticks);
    if (!engine.state.marketPaused) this.requote(engine, market, ts);
    engine.state.version++;
  }

  /**
   * Replaces the maker's ladder around the fair price. Resting user orders that the new ladder
   * would cross are first taken by an arbitrageur at their own price, as a live market would.
   */
  /** Takes the maker's quotes off the book: a paused market holds only the accounts' orders. */
  withdraw(market: Market): void {
    for (const order of this.makerOrders) market.book.remove(order);
    this.makerOrders = [];
  }

  private requote(engine: Engine, market: Market, ts: number): void {
    const book = market.book;
    this.withdraw(market);
    const ladder = buildQuoteLadder(this.rng, this.fairPrice, this.ladder);
    const bestAsk = ladder.asks[0]?.[0];
    const bestBid = ladder.bids[0]?.[0];
    if (bestAsk !== undefined) {
      const crossingBids = book.lotsUpTo(BUY, bestAsk, null);
      if (crossingBids > 0) engine.trading.systemTake(market, 'sell', crossingBids, bestAsk, ts);
    }
    if (bestBid !== undefined) {
      const crossingAsks = book.lotsUpTo(SELL, bestBid, null);
      if (crossingAsks > 0) engine.trading.systemTake(market, 'buy', crossingAsks, bestBid, ts);
    }
    for (const [price, lots] of ladder.bids) this.quote(market, BUY, price, lots);
    for (const [price, lots] of ladder.asks) this.quote(market, SELL, price, lots);
  }

  private quote(market: Market, side: typeof BUY | typeof SELL, price: number, lots: number): void {
    const order = newRestingOrder(this.nextMakerId--, side, price, lots, MARKET_OWNER);
    market.book.add(order);
    this.makerOrders.push(order);
  }
}
