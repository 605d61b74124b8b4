import type {
  DepositAccountType,
  HoldSide,
  MarginMode,
  OrderSource,
  OrderType,
  Permission,
  PosMode,
  ProductType,
  RecordCategory,
  Side,
  StpMode,
  TimeInForce,
} from '../../shared/api/enums';
import type { RestingOrder } from './book/order-book';

/** Deposit account types other than the unified account, which is `balances`. */
export type OuterWallet = Exclude<DepositAccountType, 'unified'>;

export type AccountKind = 'standard' | 'broker' | 'sub';

export interface ApiKeyRecord {
  readonly apiKey: string;
  readonly secretKey: string;
  readonly passphrase: string;
  readonly uid: string;
  readonly permissions: readonly Permission[];
}

export interface SymbolSettings {
  marginMode: MarginMode;
  /** Isolated leverage per direction; crossed uses crossLeverage. */
  longLeverage: number;
  shortLeverage: number;
  crossLeverage: number;
}

export interface Account {
  readonly uid: string;
  /** Small integer owner id used inside the order book (0 is the simulated market). */
  readonly owner: number;
  readonly kind: AccountKind;
  readonly brokerUid: string | null;
  readonly label: string;
  readonly keys: ApiKeyRecord[];
  readonly posModes: Record<ProductType, PosMode>;
  /** Wallet balance per coin in money units (1e-8): deposits, realized PnL, fees. */
  readonly balances: Map<string, bigint>;
  readonly symbolSettings: Map<string, SymbolSettings>;
  readonly depositAccounts: Map<string, DepositAccountType>;
  /** Balances outside the unified account (funding and OTC accounts) per coin, money units. */
  readonly wallets: Map<OuterWallet, Map<string, bigint>>;
  /** Institutional loan amounts transferred to this account per coin, money units. */
  readonly insLoans: Map<string, bigint>;
  /** Open orders by id, for the pending list and margin reservations. */
  readonly openOrders: Set<number>;
  /** Own clientOid -> order or plan id (default clientOids: EngineState.idByClientOid). */
  readonly clientOids: Map<string, number>;
  readonly records: FinancialRecord[];
  readonly historyPositions: HistoryPosition[];
  /** The account's open positions by position key (an index over EngineState.positions). */
  readonly positions: Map<string, Position>;
  /** Margin reserved by open orders per coin (the sum of their frozenMargin), money units. */
  readonly frozen: Map<string, bigint>;
  /**
   * Per position key: the unfilled lots, and their ticks x lots, of open orders that may open that
   * side; what the position tier limit counts beside the position itself. Derived from the orders.
   */
  readonly openingOrders: Map<string, { lots: number; value: bigint }>;
}

/** Who executed an order: the trader (`normal`) or the exchange (liquidation, delivery). */
export type ExecType = 'normal' | 'liquidation' | 'delivery';

export type OrderStatus = 'live' | 'partially_filled' | 'filled' | 'cancelled';

/** How the order relates to the position: opening, closing, or (one-way) netting both. */
export type OrderIntent = 'open' | 'close' | 'net';

export interface Order {
  readonly id: number;
  readonly clientOid: string;
  readonly uid: string;
  readonly symbol: string;
  readonly productType: ProductType;
  readonly marginCoin: string;
  readonly side: Side;
  /** Hedge mode: the position it opens or closes; one-way mode: 'net'. */
  readonly posSide: HoldSide | 'net';
  readonly intent: OrderIntent;
  readonly posMode: PosMode;
  readonly orderType: OrderType;
  readonly force: TimeInForce;
  /** Limit price in ticks; 0 for market orders. */
  readonly price: number;
  readonly lots: number;
  filledLots: number;
  /** Sum of price ticks x lots filled, for the average price. */
  filledValue: bigint;
  /** Fee paid in money units of the margin coin. */
  fee: bigint;
  /** Realized PnL of the closing part, money units. */
  profit: bigint;
  readonly reduceOnly: boolean;
  readonly marginMode: MarginMode;
  readonly leverage: number;
  readonly stpMode: StpMode;
  status: OrderStatus;
  cancelReason: string;
  readonly source: OrderSource;
  /** What made the trade: a trader's order, or the exchange closing a position itself. */
  readonly execType: ExecType;
  readonly apiVersion: 'v2' | 'v3';
  readonly presetTakeProfit: string;
  readonly presetStopLoss: string;
  /** Margin reserved for the unfilled opening part, money units. */
  frozenMargin: bigint;
  /** Unfilled lots this order adds to its account's openingOrders (0 once it ends or if it closes). */
  openingLots: number;
  readonly cTime: number;
  uTime: number;
  /** Its place on the book while it rests. */
  resting: RestingOrder | null;
}

export interface Position {
  readonly id: number;
  readonly uid: string;
  readonly symbol: string;
  readonly productType: ProductType;
  readonly marginCoin: string;
  readonly holdSide: HoldSide;
  readonly marginMode: MarginMode;
  readonly posMode: PosMode;
  leverage: number;
  lots: number;
  /** Sum of entry ticks x lots of what is still open, for the average entry price. */
  openValue: bigint;
  /** Initial margin held by the position, money units. */
  margin: bigint;
  /** Realized PnL excluding fees and funding, money units. */
  achievedProfits: bigint;
  /** Trading fees paid while it was open, money units. */
  deductedFee: bigint;
  /** Funding paid (negative) or received while it was open, money units; null before any. */
  fundingFee: bigint | null;
  openFee: bigint;
  closeFee: bigint;
  openTotalLots: number;
  openTotalValue: bigint;
  closeTotalLots: number;
  closeTotalValue: bigint;
  readonly cTime: number;
  uTime: number;
}

export interface HistoryPosition {
  readonly positionId: string;
  readonly symbol: string;
  readonly productType: ProductType;
  readonly marginCoin: string;
  readonly holdSide: HoldSide;
  readonly posMode: PosMode;
  readonly marginMode: MarginMode;
  readonly openAvgPrice: string;
  readonly closeAvgPrice: string;
  readonly openTotalPos: string;
  readonly closeTotalPos: string;
  readonly pnl: string;
  readonly netProfit: string;
  readonly totalFunding: string;
  readonly openFee: string;
  readonly closeFee: string;
  readonly cTime: number;
  readonly uTime: number;
}

export interface FinancialRecord {
  readonly id: number;
  readonly category: RecordCategory;
  readonly symbol: string;
  readonly coin: string;
  readonly type: string;
  /** Signed change of the balance, money units. */
  readonly amount: bigint;
  readonly fee: bigint;
  /** Balance after the change, money units. */
  readonly balance: bigint;
  readonly ts: number;
}

export interface PublicFill {
  readonly tradeId: number;
  readonly price: number;
  readonly lots: number;
  /** The taker's side. */
  readonly side: Side;
  readonly ts: number;
}

export type PlanKind = 'pos_profit' | 'pos_loss' | 'profit_plan' | 'loss_plan';

/** A take-profit or stop-loss waiting for its trigger price. */
export interface TriggerPlan {
  readonly id: number;
  readonly clientOid: string;
  readonly uid: string;
  readonly symbol: string;
  readonly productType: ProductType;
  readonly holdSide: HoldSide;
  readonly kind: PlanKind;
  readonly triggerPrice: number;
  readonly triggerType: 'fill_price' | 'mark_price';
  /** Execution price in ticks; 0 executes at market. */
  readonly executePrice: number;
  /** Lots to close; 0 closes the whole position. */
  readonly lots: number;
  readonly stpMode: StpMode;
  readonly cTime: number;
}
