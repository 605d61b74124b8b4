import type { HoldSide, PosMode, ProductType } from '../../shared/api/enums';
import { PRODUCT_TYPES } from '../../shared/api/enums';
import { OrderBook } from './book/order-book';
import { ContractMath } from './contract-math';
import type { ContractSpec } from './contracts';
import { Ledger } from './ledger';
import { OrderStore } from './order-store';
import { TriggerPlanStore } from './trigger-plans';
import type {
  Account,
  AccountKind,
  ApiKeyRecord,
  HistoryPosition,
  Order,
  Position,
  PublicFill,
  SymbolSettings,
} from './types';
import type { MarketSimulation } from './market-sim';
import type { IndexPrice, PriceIndex } from './pricing/price-index';
import { SpotState } from './spot/spot-state';

export const MARKET_OWNER = 0;
export const DEFAULT_LEVERAGE = 20;
/** Public fills kept per symbol (E13 answers at most 1,000 at a time). */
export const MAX_PUBLIC_FILLS = 10_000;
/** Finished orders kept for order-info and clientOid look-up. */
export const MAX_FINISHED_ORDERS = 50_000;
export const MAX_HISTORY_POSITIONS = 5_000;

export interface Market {
  readonly contract: ContractSpec;
  readonly math: ContractMath;
  readonly book: OrderBook;
  /** Newest last. */
  readonly fills: PublicFill[];
  lastPrice: number;
  readonly sim: MarketSimulation;
}

/** Everything the engine knows. Mutated only by Engine.apply, in command order. */
export class EngineState {
  clock = 0;
  nextOrderId = 1_000_000_001;
  nextTradeId = 1;
  nextPositionId = 1;
  nextOwner = 1;
  marketPaused = false;
  readonly ledger: Ledger;
  readonly accounts = new Map<string, Account>();
  readonly accountsByOwner = new Map<number, Account>();
  readonly keys = new Map<string, ApiKeyRecord>();
  readonly markets = new Map<string, Market>();
  readonly orders = new OrderStore();
  /** Ids of finished orders, oldest first from `finishedHead`, to bound memory. */
  readonly finishedOrders: number[] = [];
  private finishedHead = 0;
  readonly positions = new Map<string, Position>();
  /** Take-profit and stop-loss plans waiting for their trigger, by id. */
  readonly plans = new TriggerPlanStore();
  /** Spot and margin markets, orders and loans of the unified account. */
  readonly spot = new SpotState();
  /** Bumped on every change, so cached views know when to recompute. */
  version = 0;
  /** The simulated spot index of each base coin, which every market of the coin follows. */
  readonly indices = new Map<string, PriceIndex>();
  /** Time of the last tick checked for funding times (0: none yet). */
  fundingCheckedTs = 0;
  private readonly positionKeys = new Map<string, Map<string, { long: string; short: string }>>();
  /** Ids that an account's clientOids may name, so forgetting any other order reads nothing. */
  private readonly idsInClientOids = new Set<number>();

  constructor(nextRecordId = 1) {
    this.ledger = new Ledger(nextRecordId);
  }

  static positionKey(uid: string, symbol: string, holdSide: string): string {
    return `${uid}\u0000${symbol}\u0000${holdSide}`;
  }

  /**
   * positionKey without building and hashing a new string on every look-up. Only for a listed
   * symbol and an existing account, so the cache stays as small as accounts x contracts.
   */
  positionKeyOf(uid: string, symbol: string, holdSide: HoldSide): string {
    let bySymbol = this.positionKeys.get(uid);
    if (bySymbol === undefined) {
      bySymbol = new Map();
      this.positionKeys.set(uid, bySymbol);
    }
    let keys = bySymbol.get(symbol);
    if (keys === undefined) {
      keys = {
        long: EngineState.positionKey(uid, symbol, 'long'),
        short: EngineState.positionKey(uid, symbol, 'short'),
      };
      bySymbol.set(symbol, keys);
    }
    return holdSide === 'long' ? keys.long : keys.short;
  }

  /**
   * The index price of a base coin (BTC, ETH, SOL) in the quote currency, as units of
   * 10^-decimals: what contracts and spot books of the coin follow.
   */
  indexOf(baseCoin: string): IndexPrice {
    const index = this.indices.get(baseCoin);
    if (index === undefined) throw new Error(`no index for ${baseCoin}`);
    return index.price;
  }

  /** The index of a contract's base coin in the contract's ticks. */
  indexTicksFor(contract: ContractSpec): number {
    const index = this.indices.get(contract.baseCoin);
    if (index === undefined) throw new Error(`no index for ${contract.baseCoin}`);
    return index.ticksFor(contract);
  }

  market(symbol: string): Market | undefined {
    return this.markets.get(symbol);
  }

  addMarket(contract: ContractSpec, sim: MarketSimulation): Market {
    const market: Market = {
      contract,
      math: new ContractMath(contract),
      book: new OrderBook(),
      fills: [],
      lastPrice: sim.fairPrice,
      sim,
    };
    this.markets.set(contract.symbol, market);
    return market;
  }

  createAccount(input: {
    uid: string;
    kind: AccountKind;
    brokerUid: string | null;
    label: string;
    posMode: PosMode;
  }): Account {
    const posModes = Object.fromEntries(PRODUCT_TYPES.map((type) => [type, input.posMode])) as Record<
      ProductType,
      PosMode
    >;
    const account: Account = {
      uid: input.uid,
      owner: this.nextOwner++,
      kind: input.kind,
      brokerUid: input.brokerUid,
      label: input.label,
      keys: [],
      posModes,
      balances: new Map(),
      symbolSettings: new Map(),
      depositAccounts: new Map(),
      wallets: new Map(),
      insLoans: new Map(),
      openOrders: new Set(),
      clientOids: new Map(),
      records: [],
      historyPositions: [],
      positions: new Map(),
      frozen: new Map(),
      openingOrders: new Map(),
    };
    this.accounts.set(account.uid, account);
    this.accountsByOwner.set(account.owner, account);
    return account;
  }

  addKey(account: Account, key: ApiKeyRecord): void {
    account.keys.push(key);
    this.keys.set(key.apiKey, key);
  }

  settingsFor(account: Account, contract: ContractSpec): SymbolSettings {
    let settings = account.symbolSettings.get(contract.symbol);
    if (settings === undefined) {
      const leverage = Math.min(DEFAULT_LEVERAGE, contract.maxLever);
      settings = {
        marginMode: 'crossed',
        longLeverage: leverage,
        shortLeverage: leverage,
        crossLeverage: leverage,
      };
      account.symbolSettings.set(contract.symbol, settings);
    }
    return settings;
  }

  /** Positions of an account, newest first as all-position lists them. */
  positionsOf(uid: string): Position[] {
    const account = this.accounts.get(uid);
    if (account === undefined) return [];
    return [...account.positions.values()].sort((a, b) => b.cTime - a.cTime || b.id - a.id);
  }

  addPosition(account: Account, key: string, position: Position): void {
    this.positions.set(key, position);
    account.positions.set(key, position);
  }

  removePosition(account: Account, key: string): void {
    this.positions.delete(key);
    account.positions.delete(key);
  }

  /** Changes an order's margin reservation, keeping the account's per-coin sum in step. */
  setFrozen(account: Account, order: Order, amount: bigint): void {
    this.trackOpening(account, order);
    if (amount === order.frozenMargin) return;
    const total = (account.frozen.get(order.marginCoin) ?? 0n) + amount - order.frozenMargin;
    account.frozen.set(order.marginCoin, total);
    order.frozenMargin = amount;
  }

  /**
   * Keeps account.openingOrders in step with an order's unfilled opening lots. Every change of an
   * order's fill or status goes through setFrozen, which calls this first.
   */
  trackOpening(account: Account, order: Order): void {
    const open = order.status === 'live' || order.status === 'partially_filled';
    const lots = open && order.intent !== 'close' ? order.lots - order.filledLots : 0;
    const change = lots - order.openingLots;
    if (change === 0) return;
    const side = order.posSide !== 'net' ? order.posSide : order.side === 'buy' ? 'long' : 'short';
    const key = this.positionKeyOf(account.uid, order.symbol, side);
    const entry = account.openingOrders.get(key) ?? { lots: 0, value: 0n };
    entry.lots += change;
    entry.value += BigInt(order.price) * BigInt(change);
    if (entry.lots === 0) account.openingOrders.delete(key);
    else account.openingOrders.set(key, entry);
    order.openingLots = lots;
  }

  archivePosition(account: Account, history: HistoryPosition): void {
    account.historyPositions.push(history);
    if (account.historyPositions.length > MAX_HISTORY_POSITIONS) account.historyPositions.shift();
  }

  /** Names an order by a clientOid in the account's clientOids. */
  keepClientOid(account: Account, clientOid: string, orderId: number): void {
    account.clientOids.set(clientOid, orderId);
    this.idsInClientOids.add(orderId);
  }

  /** Takes note of the ids an account's clientOids name (an account restored from a snapshot). */
  trackClientOids(account: Account): void {
    for (const id of account.clientOids.values()) this.idsInClientOids.add(id);
  }

  /** Remembers a finished order, forgetting the oldest beyond the retention bound. */
  finishOrder(order: Order): void {
    this.finishedOrders.push(order.id);
    while (this.finishedOrders.length - this.finishedHead > MAX_FINISHED_ORDERS) {
      const oldId = this.finishedOrders[this.finishedHead++] as number;
      if (!this.idsInClientOids.delete(oldId)) {
        this.orders.delete(oldId);
        continue;
      }
      const old = this.orders.get(oldId);
      if (old === undefined) continue;
      this.orders.delete(oldId);
      const account = this.accounts.get(old.uid);
      if (account?.clientOids.get(old.clientOid) === oldId) account.clientOids.delete(old.clientOid);
    }
    // Drop forgotten ids in one go now and then rather than shifting the array every time.
    if (this.finishedHead > 65_536) {
      this.finishedOrders.splice(0, this.finishedHead);
      this.finishedHead = 0;
    }
  }

  /**
   * The order or plan id a clientOid names for an account. An order placed without a clientOid
   * answers to its id written out, which stays out of `clientOids` (most orders have no clientOid
   * of their own, and the map would otherwise grow and shrink with every one of them).
   */
  idByClientOid(account: Account, clientOid: string): number | undefined {
    const id = account.clientOids.get(clientOid);
    if (id !== undefined) return id;
    const order = this.orders.get(Number(clientOid));
    return order !== undefined && order.uid === account.uid && order.clientOid === clientOid
      ? order.id
      : undefined;
  }

  /** Finished order ids still remembered, oldest first. */
  rememberedFinishedOrders(): number[] {
    return this.finishedOrders.slice(this.finishedHead);
  }
}
