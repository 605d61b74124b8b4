import { BUY, SELL, newRestingOrder, type RestingOrder } from './book/order-book';
import { lotSize, tickSize, type ContractSpec } from './contracts';
import { forSymbol, Rng } from '../market/random';
import type { PricePathParams } from '../market/price-path';
import { buildQuoteLadder, type QuoteLadderParams } from '../market/liquidity';
import { nextTakerOrders, type TakerFlowParams } from '../market/taker-flow';
import { TickerStats } from '../market/ticker-stats';
import { defaultMarketSetup } from '../market/fair-values';
import { MARKET_OWNER, type Market } from './state';
import type { Engine } from './engine';
import { BasisAverage, markPriceOf, nextFundingTime, type BasisAverageSnapshot } from './pricing/mark-price';
import { FundingMeter, fundingRateOf, premiumIndex, type FundingMeterSnapshot } from './pricing/funding-rate';

/** Longest simulated step: after a long stop the market resumes instead of replaying hours of flow. */
const MAX_STEP_MS = 60_000;
/**
 * The contract's own premium over the index: a mean-reverting walk (half-life 30 minutes, typical
 * size 0.03%), so the book leans above or below the index for a while and funding follows it.
 */
const PREMIUM_HALF_LIFE_MS = 1_800_000;
const PREMIUM_SPREAD = 0.0003;

export interface MarketSimulationSnapshot {
  fairPrice: number;
  lastTickTs: number;
  lastMove: number;
  nextMakerId: number;
  rng: number[];
  /** The walk of the contract's own price, before it followed the index; no longer read. */
  path?: PricePathParams;
  ladder: QuoteLadderParams;
  flow: TakerFlowParams;
  stats: unknown;
  /** Absent in snapshots written before mark and index prices: the fair price stands in. */
  indexPrice?: number;
  markPrice?: number;
  premium?: number;
  basis?: BasisAverageSnapshot;
  funding?: FundingMeterSnapshot;
}

/**
 * The simulated participants of one symbol: a market maker quoting a ladder around the fair price
 * (the index of the base coin plus the contract's own small premium) and a stream of takers. It
 * acts only inside engine commands (tick, price moves), drawing on a seeded generator kept in the
 * state, so a replay reproduces every quote and trade. It also keeps the symbol's index and mark
 * prices and the premium samples of its funding rate.
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
    private readonly ladder: QuoteLadderParams,
    private readonly flow: TakerFlowParams,
    readonly stats: TickerStats,
    private index: number,
    private mark: number,
    private premium: number,
    private readonly basis: BasisAverage,
    readonly funding: FundingMeter,
  ) {}

  static create(contract: ContractSpec, seed: number): MarketSimulation {
    const setup = defaultMarketSetup(contract.symbol, { tick: tickSize(contract), lot: lotSize(contract) });
    const start = setup.startFairTicks;
    return new MarketSimulation(
      start,
      0,
      -1,
      0,
      forSymbol(seed, contract.symbol),
      setup.ladder,
      setup.takerFlow,
      new TickerStats(start),
      start,
      start,
      0,
      BasisAverage.empty(),
      new FundingMeter(),
    );
  }

  static fromSnapshot(snapshot: MarketSimulationSnapshot): MarketSimulation {
    return new MarketSimulation(
      snapshot.fairPrice,
      snapshot.lastTickTs,
      snapshot.lastMove,
      snapshot.nextMakerId,
      Rng.fromState(snapshot.rng),
      snapshot.ladder,
      snapshot.flow,
      TickerStats.fromJSON(snapshot.stats),
      snapshot.indexPrice ?? snapshot.fairPrice,
      snapshot.markPrice ?? snapshot.fairPrice,
      snapshot.premium ?? 0,
      BasisAverage.fromSnapshot(snapshot.basis),
      FundingMeter.fromSnapshot(snapshot.funding),
    );
  }

  toSnapshot(): MarketSimulationSnapshot {
    return {
      fairPrice: this.fairPrice,
      lastTickTs: this.lastTickTs,
      lastMove: this.lastMove,
      nextMakerId: this.nextMakerId,
      rng: [...this.rng.state],
      ladder: this.ladder,
      flow: this.flow,
      stats: this.stats.toJSON(),
      indexPrice: this.index,
      markPrice: this.mark,
      premium: this.premium,
      basis: this.basis.toSnapshot(),
      funding: this.funding.toSnapshot(),
    };
  }

  /** The mark price in the contract's ticks: PnL, margin and mark-price triggers read it. */
  get markPrice(): number {
    return this.mark;
  }

  /** The index of the base coin in the contract's ticks. */
  get indexPrice(): number {
    return this.index;
  }

  /** The funding rate the next settlement will apply, in rate units (1e-8). */
  fundingRate(market: Market): number {
    const average = this.funding.averagePremium(() => premiumIndex(market.book, market.contract, this.index));
    return fundingRateOf(average, market.contract.fundIntervalHours);
  }

  /** Re-attaches a market-maker quote found on a restored book. */
  adoptMakerOrder(order: RestingOrder): void {
    this.makerOrders.push(order);
  }

  recordTrade(ts: number, price: number, lots: number): void {
    this.stats.record(ts, price, lots);
  }

  /**
   * One step of simulated time: the fair price follows the index, the maker re-quotes, takers
   * trade, and the mark price follows. A paused market holds its prices still; the premium of
   * what the accounts' own orders make of the book is still sampled for funding.
   */
  tick(engine: Engine, market: Market, ts: number): void {
    const elapsed = this.lastTickTs === 0 ? 0 : Math.min(MAX_STEP_MS, ts - this.lastTickTs);
    this.lastTickTs = ts;
    if (engine.state.marketPaused) {
      this.withdraw(market);
      this.sampleFunding(market, ts);
      return;
    }
    if (elapsed <= 0) {
      if (this.makerOrders.length === 0) this.requote(engine, market, ts);
      return;
    }
    this.index = engine.state.indexTicksFor(market.contract);
    const previous = this.fairPrice;
    this.premium = this.stepPremium(elapsed);
    this.fairPrice = Math.max(1, Math.round(this.index * (1 + this.premium)));
    this.lastMove = this.fairPrice - previous;
    this.requote(engine, market, ts);
    for (const taker of nextTakerOrders(this.rng, elapsed, this.flow, this.lastMove)) {
      const limit = taker.side === 'buy' ? Number.MAX_SAFE_INTEGER : 1;
      engine.trading.systemTake(market, taker.side, taker.lots, limit, ts);
    }
    this.basis.sample(ts, market.book.bestPrice(BUY), market.book.bestPrice(SELL), this.index);
    this.sampleFunding(market, ts);
    this.mark = markPriceOf({
      lastTicks: market.lastPrice,
      indexTicks: this.index,
      fundingRate: this.fundingRate(market),
      msToNextFunding: nextFundingTime(ts, market.contract.fundIntervalHours) - ts,
      intervalHours: market.contract.fundIntervalHours,
      averageBasis: this.basis.average,
    });
    engine.state.version++;
  }

  /**
   * An administrator moved the market: the index, fair and mark prices jump to `ticks` at once, the
   * basis average starts afresh there, and the maker re-quotes around it.
   */
  moveTo(engine: Engine, market: Market, ticks: number, ts: number): void {
    this.index = ticks;
    this.fairPrice = ticks;
    this.mark = ticks;
    this.premium = 0;
    this.basis.clear();
    if (!engine.state.marketPaused) this.requote(engine, market, ts);
    engine.state.version++;
  }

  private sampleFunding(market: Market, ts: number): void {
    if (this.funding.due(ts)) this.funding.sample(ts, premiumIndex(market.book, market.contract, this.index));
  }

  /** The own premium after `elapsedMs`: an Ornstein-Uhlenbeck step, exact for any step length. */
  private stepPremium(elapsedMs: number): number {
    const decay = Math.pow(0.5, elapsedMs / PREMIUM_HALF_LIFE_MS);
    return this.premium * decay + PREMIUM_SPREAD * Math.sqrt(1 - decay * decay) * this.rng.nextNormal();
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
