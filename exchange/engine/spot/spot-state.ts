import type { OrderType, Side, StpMode, TimeInForce } from '../../../shared/api/enums';
import { OrderBook, type RestingOrder } from '../book/order-book';
import type { SpotSimulation } from './spot-simulation';
import type { SpotSymbolSpec } from './spot-symbols';

/** Open spot and margin orders an account may hold (spec E2 rule 8), apart from futures. */
export const MAX_OPEN_SPOT_ORDERS = 400;
/** Finished spot orders kept for order-info and clientOid look-up. */
export const MAX_FINISHED_SPOT_ORDERS = 50_000;

export type SpotCategory = 'SPOT' | 'MARGIN';
export type SpotOrderStatus = 'live' | 'partially_filled' | 'filled' | 'cancelled';

export interface SpotMarket {
  readonly spec: SpotSymbolSpec;
  readonly book: OrderBook;
  lastPrice: number;
  readonly sim: SpotSimulation;
}

export interface SpotOrder {
  readonly id: number;
  readonly clientOid: string;
  readonly uid: string;
  readonly symbol: string;
  readonly category: SpotCategory;
  readonly side: Side;
  readonly orderType: OrderType;
  readonly force: TimeInForce;
  /** Limit price in ticks; 0 for market orders. */
  readonly price: number;
  /** Base quantity in lots; 0 for a market buy, which is sized in the quote coin. */
  readonly lots: number;
  /** A market buy's amount in money units of the quote coin; 0 otherwise. */
  readonly quoteAmount: bigint;
  filledLots: number;
  /** Quote coin spent or received, money units. */
  filledQuote: bigint;
  /** Fee paid in money units of feeCoin (the coin received). */
  fee: bigint;
  readonly feeCoin: string;
  readonly stpMode: StpMode;
  status: SpotOrderStatus;
  cancelReason: string;
  /** The coin the order reserves (quote for a buy, base for a sell). */
  readonly frozenCoin: string;
  /** Reserved for its unfilled part, money units of frozenCoin. */
  frozen: bigint;
  readonly cTime: number;
  uTime: number;
  resting: RestingOrder | null;
}

/** A coin borrowed by the unified account: principal and unpaid interest, money units. */
export interface Liability {
  principal: bigint;
  interest: bigint;
  /** Hour (ts / 1 h) up to which interest is charged, that hour included. */
  chargedHour: number;
}

export interface SpotAccount {
  readonly openOrders: Set<number>;
  readonly liabilities: Map<string, Liability>;
}

/** Everything of spot and margin trading, kept apart from the futures state. */
export class SpotState {
  readonly markets = new Map<string, SpotMarket>();
  readonly orders = new Map<number, SpotOrder>();
  readonly accounts = new Map<string, SpotAccount>();
  /** Finished order ids, oldest first, to bound memory. */
  finished: number[] = [];

  accountOf(uid: string): SpotAccount {
    let account = this.accounts.get(uid);
    if (account === undefined) {
      account = { openOrders: new Set(), liabilities: new Map() };
      this.accounts.set(uid, account);
    }
    return account;
  }

  addMarket(spec: SpotSymbolSpec, sim: SpotSimulation, lastPrice: number): SpotMarket {
    const market: SpotMarket = { spec, book: new OrderBook(), lastPrice, sim };
    this.markets.set(spec.symbol, market);
    return market;
  }
}
