import type {
  Category,
  DepositAccountType,
  HoldSide,
  MarginMode,
  Permission,
  PosMode,
  ProductType,
  StpMode,
} from '../../shared/api/enums';
import type { PlaceOrderInput } from './trading';
import type { SpotOrderInput } from './spot/spot-trading';
import type { AccountKind } from './types';

/**
 * Everything that changes the engine's state is one of these commands, journaled before its
 * answer is sent. Each carries the time it was accepted, so a replay reproduces it exactly;
 * anything random (credentials) is decided before the command is written.
 */
export type Command =
  | CreateAccountCommand
  | { type: 'addApiKey'; ts: number; uid: string; key: NewKey }
  | { type: 'placeOrders'; ts: number; uid: string; version: 'v2' | 'v3'; orders: PlaceOrderInput[] }
  | { type: 'placeSpotOrders'; ts: number; uid: string; orders: SpotOrderInput[] }
  | CancelOrdersCommand
  | CancelOrderV3Command
  | SetLeverageCommand
  | { type: 'setPositionMode'; ts: number; uid: string; productType: ProductType; posMode: PosMode }
  | {
      type: 'setMarginMode';
      ts: number;
      uid: string;
      productType: ProductType;
      symbol: string;
      marginCoin: string;
      marginMode: MarginMode;
    }
  | { type: 'setDepositAccount'; ts: number; uid: string; coin: string; accountType: DepositAccountType }
  | { type: 'deposit'; ts: number; uid: string; coin: string; amount: string }
  | { type: 'attachLoan'; ts: number; uid: string; coin: string; amount: string }
  | PlaceTpslCommand
  | { type: 'tick'; ts: number }
  | { type: 'setPrice'; ts: number; symbol: string; price: string }
  | { type: 'setMarketPaused'; ts: number; paused: boolean }
  /** Settles funding now: one symbol, or every perpetual symbol when null. */
  | { type: 'settleFunding'; ts: number; symbol: string | null }
  | ListContractCommand;

export interface NewKey {
  apiKey: string;
  secretKey: string;
  passphrase: string;
  permissions: Permission[];
}

export interface CreateAccountCommand {
  type: 'createAccount';
  ts: number;
  uid: string;
  kind: AccountKind;
  brokerUid: string | null;
  label: string;
  posMode: PosMode;
  /** Coin -> decimal amount. */
  balances: Record<string, string>;
  key: NewKey;
}

export interface CancelOrdersCommand {
  type: 'cancelOrders';
  ts: number;
  uid: string;
  productType: ProductType;
  symbol: string | null;
  marginCoin: string | null;
  /** null cancels every open order of the product type (and symbol, when given). */
  targets: Array<{ orderId: string | null; clientOid: string | null }> | null;
}

/** The unified account's cancel of one order, futures or spot; category and symbol must match. */
export interface CancelOrderV3Command {
  type: 'cancelOrderV3';
  ts: number;
  uid: string;
  orderId: string | null;
  clientOid: string | null;
  category: Category | null;
  symbol: string | null;
}

export interface SetLeverageCommand {
  type: 'setLeverage';
  ts: number;
  uid: string;
  productType: ProductType;
  symbol: string;
  marginCoin: string;
  leverage: number | null;
  longLeverage: number | null;
  shortLeverage: number | null;
  holdSide: HoldSide | null;
}

/** One take-profit or stop-loss leg of E8 or E9. */
export interface TpslLeg {
  kind: 'profit' | 'loss';
  triggerPrice: string;
  triggerType: 'fill_price' | 'mark_price';
  /** '' or '0' executes at market. */
  executePrice: string;
  /** '' for the whole position. */
  size: string;
  clientOid: string | null;
}

export interface PlaceTpslCommand {
  type: 'placeTpsl';
  ts: number;
  uid: string;
  version: 'v2' | 'v3';
  productType: ProductType;
  symbol: string;
  marginCoin: string | null;
  holdSide: HoldSide;
  stpMode: StpMode;
  legs: TpslLeg[];
}

/** Lists a dated contract on the perpetual `baseSymbol`; times in ms, null for their defaults. */
export interface ListContractCommand {
  type: 'listContract';
  ts: number;
  productType: ProductType;
  baseSymbol: string;
  listTime: number | null;
  limitOpenTime: number | null;
  deliveryStartTime: number | null;
  deliveryTime: number;
}

/**
 * Whether a command can move index and mark prices: simulated time, admin price moves and the
 * exchange's own commands (those of no account). A trader's order moves the last price only,
 * which the mark takes up at the next tick.
 */
export function movesMarks(command: Command): boolean {
  return isMarketCommand(command) || !('uid' in command);
}

/** Simulated time and the admin's price moves: they change the market, not an account. */
export function isMarketCommand(command: Command): boolean {
  return command.type === 'tick' || command.type === 'setPrice' || command.type === 'setMarketPaused';
}
