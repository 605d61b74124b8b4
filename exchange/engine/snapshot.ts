import { restoreBook, saveBook, type BookSnapshot } from './book/book-snapshot';
import { Engine, type EngineOptions } from './engine';
import { MarketSimulation, type MarketSimulationSnapshot } from './market-sim';
import { EngineState } from './state';
import { PriceIndex, unitsPerTick, type PriceIndexSnapshot } from './pricing/price-index';
import type { Account, Order, OuterWallet, Position, TriggerPlan } from './types';
import { restoreSpotSnapshot, takeSpotSnapshot, type SpotSnapshot } from './spot/spot-snapshot';
import type { DeliveryDeskSnapshot } from './delivery/delivery-desk';

/**
 * The whole engine state as plain JSON data (bigints written as {"$bigint": "..."}), and back.
 * Restoring then applying the same commands gives exactly the state the original reaches.
 */
export const SNAPSHOT_FORMAT = 1;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function encodeBigints(value: unknown): Json {
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (Array.isArray(value)) return value.map(encodeBigints);
  if (value !== null && typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = encodeBigints(item);
    return out;
  }
  return value as Json;
}

export function decodeBigints(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeBigints);
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.$bigint === 'string' && Object.keys(record).length === 1) return BigInt(record.$bigint);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(record)) out[key] = decodeBigints(item);
    return out;
  }
  return value;
}

interface AccountSnapshot extends Omit<
  Account,
  | 'balances'
  | 'symbolSettings'
  | 'depositAccounts'
  | 'wallets'
  | 'insLoans'
  | 'openOrders'
  | 'clientOids'
  | 'positions'
  | 'frozen'
  | 'openingOrders'
> {
  /** Missing in snapshots written before funding/OTC wallets and loans existed. */
  wallets?: Array<[OuterWallet, Array<[string, bigint]>]>;
  insLoans?: Array<[string, bigint]>;
  balances: Array<[string, bigint]>;
  symbolSettings: Array<[string, Account['symbolSettings'] extends Map<string, infer V> ? V : never]>;
  depositAccounts: Array<[string, string]>;
  openOrders: number[];
  clientOids: Array<[string, number]>;
}

interface MarketSnapshot extends BookSnapshot {
  symbol: string;
  lastPrice: number;
  fills: unknown[];
  sim: MarketSimulationSnapshot;
}

interface EngineSnapshot {
  format: number;
  clock: number;
  nextOrderId: number;
  nextTradeId: number;
  nextPositionId: number;
  nextOwner: number;
  nextRecordId: number;
  marketPaused: boolean;
  accounts: AccountSnapshot[];
  orders: Array<Omit<Order, 'resting'>>;
  finishedOrders: number[];
  positions: Position[];
  plans: TriggerPlan[];
  markets: MarketSnapshot[];
  /** Absent before the coins' indices: each follows its coin's first market then. */
  indices?: PriceIndexSnapshot[];
  fundingCheckedTs?: number;
  /** Absent in snapshots written before spot trading. */
  spot?: SpotSnapshot;
  /** Dated contracts listed while running; absent in snapshots written before they existed. */
  deliveries?: DeliveryDeskSnapshot;
}

export function takeSnapshot(engine: Engine): Json {
  const state = engine.state;
  const snapshot: EngineSnapshot = {
    format: SNAPSHOT_FORMAT,
    clock: state.clock,
    nextOrderId: state.nextOrderId,
    nextTradeId: state.nextTradeId,
    nextPositionId: state.nextPositionId,
    nextOwner: state.nextOwner,
    nextRecordId: state.ledger.nextId,
    marketPaused: state.marketPaused,
    accounts: [...state.accounts.values()].map(
      ({ positions: _positions, frozen: _frozen, openingOrders: _opening, ...account }) => ({
        ...account,
        balances: [...account.balances],
        symbolSettings: [...account.symbolSettings],
        depositAccounts: [...account.depositAccounts],
        wallets: [...account.wallets].map(([type, coins]) => [type, [...coins]]),
        insLoans: [...account.insLoans],
        openOrders: [...account.openOrders],
        clientOids: [...account.clientOids],
      }),
    ),
    orders: [...state.orders.values()].map(({ resting: _resting, ...order }) => order),
    finishedOrders: state.rememberedFinishedOrders(),
    positions: [...state.positions.values()],
    plans: [...state.plans.values()],
    markets: [...state.markets.values()].map((market) => ({
      symbol: market.contract.symbol,
      lastPrice: market.lastPrice,
      fills: market.fills,
      sim: market.sim.toSnapshot(),
      ...saveBook(market.book),
    })),
    indices: [...state.indices.values()].map((index) => index.toSnapshot()),
    fundingCheckedTs: state.fundingCheckedTs,
    spot: takeSpotSnapshot(engine),
    deliveries: engine.deliveries.toSnapshot(),
  };
  return encodeBigints(snapshot);
}

export function restoreSnapshot(options: EngineOptions, data: unknown): Engine {
  const snapshot = decodeBigints(data) as EngineSnapshot;
  if (snapshot.format !== SNAPSHOT_FORMAT) {
    throw new Error(
      `snapshot format ${String(snapshot.format)} is not ${SNAPSHOT_FORMAT}; this exchange cannot read it`,
    );
  }
  const engine = new Engine(options, snapshot.nextRecordId);
  const state = engine.state;
  state.clock = snapshot.clock;
  state.nextOrderId = snapshot.nextOrderId;
  state.nextTradeId = snapshot.nextTradeId;
  state.nextPositionId = snapshot.nextPositionId;
  state.nextOwner = snapshot.nextOwner;
  state.marketPaused = snapshot.marketPaused;
  state.fundingCheckedTs = snapshot.fundingCheckedTs ?? 0;
  for (const saved of snapshot.indices ?? []) state.indices.set(saved.coin, PriceIndex.fromSnapshot(saved));
  for (const saved of snapshot.accounts) {
    const account: Account = {
      ...saved,
      balances: new Map(saved.balances),
      symbolSettings: new Map(saved.symbolSettings),
      depositAccounts: new Map(saved.depositAccounts) as Account['depositAccounts'],
      wallets: new Map((saved.wallets ?? []).map(([type, coins]) => [type, new Map(coins)])),
      insLoans: new Map(saved.insLoans ?? []),
      openOrders: new Set(saved.openOrders),
      clientOids: new Map(saved.clientOids),
      positions: new Map(),
      frozen: new Map(),
      openingOrders: new Map(),
    };
    state.accounts.set(account.uid, account);
    state.accountsByOwner.set(account.owner, account);
    state.trackClientOids(account);
    for (const key of account.keys) state.keys.set(key.apiKey, key);
  }
  for (const saved of snapshot.orders) {
    // Snapshots written before execType existed hold traders' orders only.
    // Older snapshots lack execType and openingLots; openingOrders is rebuilt from the orders.
    const order: Order = { ...saved, execType: saved.execType ?? 'normal', openingLots: 0, resting: null };
    state.orders.set(order.id, order);
    const account = state.accounts.get(order.uid);
    if (account?.openOrders.has(order.id) === true) {
      account.frozen.set(order.marginCoin, (account.frozen.get(order.marginCoin) ?? 0n) + order.frozenMargin);
      state.trackOpening(account, order);
    }
  }
  state.finishedOrders.push(...snapshot.finishedOrders);
  for (const position of snapshot.positions) {
    const account = state.accounts.get(position.uid);
    if (account === undefined) throw new Error(`snapshot position ${position.id} belongs to no account`);
    state.addPosition(
      account,
      EngineState.positionKey(position.uid, position.symbol, position.holdSide),
      position,
    );
  }
  for (const plan of snapshot.plans) state.plans.set(plan.id, plan);
  const indexedCoins = new Set((snapshot.indices ?? []).map((saved) => saved.coin));
  engine.deliveries.restore(snapshot.deliveries);
  for (const saved of snapshot.markets) {
    const market = state.market(saved.symbol);
    if (market === undefined)
      throw new Error(`snapshot has market ${saved.symbol}, which this exchange does not list`);
    const sim = MarketSimulation.fromSnapshot(saved.sim);
    const index = state.indices.get(market.contract.baseCoin);
    if (index !== undefined && !indexedCoins.has(index.coin)) {
      index.moveTo(saved.sim.fairPrice * unitsPerTick(market.contract));
      indexedCoins.add(index.coin);
    }
    const restored = { ...market, sim, lastPrice: saved.lastPrice };
    restored.fills.push(...(saved.fills as typeof market.fills));
    state.markets.set(saved.symbol, restored);
    restoreBook(restored.book, saved, (resting) => {
      if (resting.owner === 0) {
        sim.adoptMakerOrder(resting);
        return;
      }
      const order = state.orders.get(resting.id);
      if (order === undefined)
        throw new Error(`snapshot book holds order ${resting.id} that it does not describe`);
      order.resting = resting;
    });
  }
  restoreSpotSnapshot(engine, snapshot.spot);
  return engine;
}
