import type { ProductType } from '../../../shared/api/enums';
import { forSymbol } from '../../market/random';
import { TickerStats } from '../../market/ticker-stats';
import type { ListContractCommand } from '../commands';
import type { ContractSpec, DeliverySchedule } from '../contracts';
import {
  DELIVERY_PRICE_WINDOW_MS,
  OPENING_STOP_MS,
  datedSymbol,
  deliveryPhase,
  nextQuarterlyDelivery,
} from './delivery-schedule';
import type { Engine } from '../engine';
import { EngineError } from '../errors';
import { MarketSimulation } from '../market-sim';
import { divRound } from '../money';
import type { EngineState, Market } from '../state';

/** Perpetuals whose current-quarter contract the exchange keeps listed: one per margin type. */
const QUARTERLY_UNDERLYINGS = ['BTCUSDT', 'BTCPERP', 'BTCUSD'] as const;
/** Coin-margined delivery futures trade at 1-50x (https://www.bitget.org/support/articles/12560603845783). */
const INVERSE_DELIVERY_MAX_LEVER = 50;

/** What the desk knows of one dated contract beyond its spec; plain data, saved in snapshots. */
export interface DatedContractState {
  readonly contract: ContractSpec;
  /** Listed by the exchange's quarterly cycle rather than the admin interface. */
  readonly quarterly: boolean;
  readonly listedAt: number;
  /** Sum of index ticks x ms over the averaging window so far, and the ms it covers. */
  indexTimeSum: bigint;
  indexTimeMs: number;
  /** The index (contract ticks) standing since `sampledAt`. */
  lastIndex: number;
  sampledAt: number;
  /** The index the contract's price was last moved to. */
  followedIndex: number;
  /** Delivery price in ticks once settled. */
  deliveryPrice: number | null;
}

export interface DeliveryDeskSnapshot {
  dated: DatedContractState[];
}

export interface ListedContract {
  symbol: string;
  productType: ProductType;
  baseSymbol: string;
  launchTime: number;
  limitOpenTime: number;
  deliveryStartTime: number;
  deliveryTime: number;
}

/**
 * Dated (delivery) contracts: lists them (the quarterly cycle and the admin interface), keeps
 * their price on the index of their base coin, averages that index before delivery and, at the
 * delivery time, settles every position at the delivery price and takes the contract off.
 * It acts only inside engine commands, on their time, so a replay does exactly the same.
 */
export class DeliveryDesk {
  private readonly dated = new Map<string, DatedContractState>();
  /** Whether every quarterly underlying has its current contract; re-checked when one delivers. */
  private quarterliesListed = false;

  constructor(private readonly engine: Engine) {}

  private get state(): EngineState {
    return this.engine.state;
  }

  /** The admin interface lists a dated contract on a perpetual, with near times for tests. */
  list(command: ListContractCommand): ListedContract {
    const underlying = this.engine.marketFor(command.baseSymbol, command.productType);
    if (underlying.contract.symbolType !== 'perpetual') {
      throw EngineError.detailed(
        'paramError',
        `Parameter baseSymbol error: ${command.baseSymbol} is a dated contract; name its perpetual`,
      );
    }
    const ts = command.ts;
    if (command.deliveryTime <= ts) {
      throw EngineError.detailed(
        'paramError',
        `Parameter deliveryTime error: ${command.deliveryTime} is not after the exchange time ${ts}`,
      );
    }
    const launchTime = command.listTime ?? ts;
    const deliveryStartTime = command.deliveryStartTime ?? command.deliveryTime;
    const limitOpenTime = command.limitOpenTime ?? Math.max(launchTime, deliveryStartTime - OPENING_STOP_MS);
    if (!(launchTime <= limitOpenTime && limitOpenTime <= deliveryStartTime)) {
      throw EngineError.detailed(
        'paramError',
        'Parameter time error: listTime <= limitOpenTime <= deliveryStartTime <= deliveryTime is required',
      );
    }
    if (deliveryStartTime > command.deliveryTime) {
      throw EngineError.detailed(
        'paramError',
        'Parameter deliveryStartTime error: it must not be after deliveryTime',
      );
    }
    const schedule = {
      launchTime,
      limitOpenTime,
      deliveryStartTime,
      deliveryTime: command.deliveryTime,
      underlying: underlying.contract.symbol,
    };
    const dated = this.add(underlying, schedule, false, ts);
    return {
      symbol: dated.contract.symbol,
      productType: dated.contract.productType,
      baseSymbol: underlying.contract.symbol,
      launchTime,
      limitOpenTime,
      deliveryStartTime,
      deliveryTime: command.deliveryTime,
    };
  }

  /**
   * Runs after every command, at its time: averages the index, settles what is due, keeps a
   * current-quarter contract per margin type listed, and moves dated prices to the index.
   */
  advance(ts: number, marksMoved: boolean): void {
    // Between price moves the index stands still: its average needs a sample only when it moves or
    // a contract delivers, which keeps a trader's order free of this work.
    // Decided on saved state only, so a restored engine skips exactly where the original did.
    if (!marksMoved && this.dated.size > 0 && ts < this.nextDeliveryTime()) return;
    for (const dated of this.dated.values()) {
      if (dated.deliveryPrice !== null) continue;
      this.sample(dated, ts);
      const schedule = scheduleOf(dated);
      if (ts >= schedule.deliveryTime) this.settle(dated, ts);
    }
    this.listQuarterlies(ts);
    for (const dated of this.dated.values()) {
      if (dated.deliveryPrice === null) this.follow(dated, ts);
    }
  }

  private nextDeliveryTime(): number {
    let next = Infinity;
    for (const dated of this.dated.values()) {
      if (dated.deliveryPrice === null) next = Math.min(next, scheduleOf(dated).deliveryTime);
    }
    return next;
  }

  /**
   * Before a market's step of simulated time: whether it steps (a dated contract does not before
   * launch, nor in or after delivery), and a dated one starts its step from the index, so that one
   * re-quote per step keeps it there.
   */
  prepareTick(market: Market): boolean {
    if (market.contract.delivery === undefined) return true;
    if (!this.simulates(market)) return false;
    const dated = this.dated.get(market.contract.symbol);
    const index = indexTicks(this.state, market.contract);
    if (dated !== undefined && index > 0) {
      market.sim.fairPrice = index;
      dated.followedIndex = index;
    }
    return true;
  }

  /** Whether the simulated market of `symbol` trades: not before launch, not in or after delivery. */
  simulates(market: Market): boolean {
    const schedule = market.contract.delivery;
    if (schedule === undefined) return true;
    const phase = deliveryPhase(schedule, this.state.clock);
    return phase === 'delivery_normal' || phase === 'delivery_before';
  }

  /** The delivery price of a settled contract, ticks. */
  deliveryPriceOf(symbol: string): number | null {
    return this.dated.get(symbol)?.deliveryPrice ?? null;
  }

  toSnapshot(): DeliveryDeskSnapshot {
    return { dated: [...this.dated.values()].map((dated) => ({ ...dated })) };
  }

  /** Re-lists the dated contracts of a snapshot, before its markets are restored. */
  restore(snapshot: DeliveryDeskSnapshot | undefined): void {
    for (const saved of snapshot?.dated ?? []) {
      const dated = { ...saved, followedIndex: saved.followedIndex ?? 0 };
      this.dated.set(dated.contract.symbol, dated);
      const underlying = this.state.market(scheduleOf(dated).underlying);
      if (underlying === undefined) {
        throw new Error(
          `snapshot lists ${dated.contract.symbol} on ${scheduleOf(dated).underlying}, which this exchange does not list`,
        );
      }
      // The snapshot's own market state replaces this simulation right after.
      this.state.addMarket(dated.contract, this.simulationFor(dated.contract, underlying, dated.lastIndex));
    }
  }

  private add(
    underlying: Market,
    schedule: DeliverySchedule,
    quarterly: boolean,
    ts: number,
  ): DatedContractState {
    const perpetual = underlying.contract;
    const contract: ContractSpec = {
      ...perpetual,
      symbol: this.freeSymbol(datedSymbol(perpetual, schedule.deliveryTime)),
      symbolType: 'delivery',
      // A dated contract pays no funding.
      fundIntervalHours: 0,
      maxLever:
        perpetual.kind === 'inverse'
          ? Math.min(INVERSE_DELIVERY_MAX_LEVER, perpetual.maxLever)
          : perpetual.maxLever,
      delivery: schedule,
    };
    const index = indexTicks(this.state, contract);
    const dated: DatedContractState = {
      contract,
      quarterly,
      listedAt: ts,
      indexTimeSum: 0n,
      indexTimeMs: 0,
      lastIndex: index,
      sampledAt: ts,
      followedIndex: 0,
      deliveryPrice: null,
    };
    this.dated.set(contract.symbol, dated);
    this.state.addMarket(contract, this.simulationFor(contract, underlying, index));
    this.state.version++;
    return dated;
  }

  /** The symbol, or with _2, _3, ... when an earlier contract delivering the same day took it. */
  private freeSymbol(symbol: string): string {
    if (this.state.market(symbol) === undefined) return symbol;
    for (let suffix = 2; ; suffix++) {
      const candidate = `${symbol}_${suffix}`;
      if (this.state.market(candidate) === undefined) return candidate;
    }
  }

  /** The underlying perpetual's simulated participants, with a generator of the contract's own. */
  private simulationFor(contract: ContractSpec, underlying: Market, fairTicks: number): MarketSimulation {
    const template = MarketSimulation.create(
      { ...contract, symbol: underlying.contract.symbol },
      this.engine.options.seed,
    ).toSnapshot();
    const fair = Math.max(1, fairTicks);
    return MarketSimulation.fromSnapshot({
      ...template,
      fairPrice: fair,
      indexPrice: fair,
      markPrice: fair,
      rng: [...forSymbol(this.engine.options.seed, contract.symbol).state],
      stats: new TickerStats(fair).toJSON(),
    });
  }

  /** Adds the index standing since the last sample to the average, within the averaging window. */
  private sample(dated: DatedContractState, ts: number): void {
    const schedule = scheduleOf(dated);
    const windowStart = Math.max(schedule.deliveryTime - DELIVERY_PRICE_WINDOW_MS, dated.listedAt);
    const from = Math.max(dated.sampledAt, windowStart);
    const to = Math.min(ts, schedule.deliveryTime);
    if (to > from) {
      dated.indexTimeSum += BigInt(dated.lastIndex) * BigInt(to - from);
      dated.indexTimeMs += to - from;
    }
    dated.lastIndex = indexTicks(this.state, dated.contract);
    dated.sampledAt = ts;
  }

  /**
   * Delivery: open orders are cancelled, every position is closed by the exchange at the delivery
   * price paying the taker rate as delivery fee (same article as DELIVERY_PRICE_WINDOW_MS), and the
   * contract is off.
   */
  private settle(dated: DatedContractState, ts: number): void {
    const state = this.state;
    const symbol = dated.contract.symbol;
    const market = state.market(symbol);
    if (market === undefined) throw new Error(`dated contract ${symbol} has no market`);
    const price =
      dated.indexTimeMs > 0
        ? Number(divRound(dated.indexTimeSum, BigInt(dated.indexTimeMs)))
        : Math.max(1, dated.lastIndex);
    dated.deliveryPrice = price;
    for (const account of state.accounts.values()) {
      for (const id of [...account.openOrders]) {
        const order = state.orders.get(id);
        if (order?.symbol === symbol) this.engine.trading.cancel(order, 'delivery', ts);
      }
    }
    const positions = [...state.positions.values()]
      .filter((position) => position.symbol === symbol)
      .sort((a, b) => a.id - b.id);
    for (const position of positions) {
      const account = state.accounts.get(position.uid);
      if (account === undefined) continue;
      const recordType = position.holdSide === 'long' ? 'DELIVERY_LONG' : 'DELIVERY_SHORT';
      this.engine.trading.systemClose(
        account,
        position,
        position.lots,
        price,
        'delivery',
        dated.contract.takerFeePpm,
        recordType,
        ts,
      );
    }
    // Take-profits and stop-losses end with their positions; none outlives the contract.
    for (const plan of [...state.plans.ofSymbol(symbol)]) state.plans.delete(plan.id);
    market.sim.withdraw(market);
    if (dated.quarterly) this.quarterliesListed = false;
    state.version++;
  }

  private listQuarterlies(ts: number): void {
    if (this.quarterliesListed) return;
    this.quarterliesListed = true;
    for (const underlyingSymbol of QUARTERLY_UNDERLYINGS) {
      const underlying = this.state.market(underlyingSymbol);
      if (underlying === undefined || underlying.contract.symbolType !== 'perpetual') continue;
      let listed = false;
      for (const dated of this.dated.values()) {
        if (
          dated.quarterly &&
          dated.deliveryPrice === null &&
          scheduleOf(dated).underlying === underlyingSymbol
        ) {
          listed = true;
          break;
        }
      }
      if (listed) continue;
      const deliveryTime = nextQuarterlyDelivery(ts);
      this.add(
        underlying,
        {
          launchTime: ts,
          limitOpenTime: Math.max(ts, deliveryTime - OPENING_STOP_MS),
          deliveryStartTime: deliveryTime,
          deliveryTime,
          underlying: underlyingSymbol,
        },
        true,
        ts,
      );
    }
  }

  /** Moves a trading dated contract to its index; in delivery it stands still, without quotes. */
  private follow(dated: DatedContractState, ts: number): void {
    const market = this.state.market(dated.contract.symbol);
    if (market === undefined) return;
    if (!this.simulates(market)) {
      market.sim.withdraw(market);
      return;
    }
    const index = indexTicks(this.state, dated.contract);
    if (index > 0 && index !== dated.followedIndex) {
      dated.followedIndex = index;
      market.sim.moveTo(this.engine, market, index, ts);
    }
  }
}

function scheduleOf(dated: DatedContractState): DeliverySchedule {
  const schedule = dated.contract.delivery;
  if (schedule === undefined) throw new Error(`${dated.contract.symbol} has no delivery schedule`);
  return schedule;
}

/** The index of a dated contract's base coin in the contract's own ticks. */
export function indexTicks(state: EngineState, contract: ContractSpec): number {
  return state.indexTicksFor(contract);
}
