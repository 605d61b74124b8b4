// Builders of the commands that engine tests and benchmarks apply directly, filled with the values
// most of them use, so that each call spells out only what its test is about.
import type { HoldSide, MarginMode, PosMode, ProductType, Side } from '../../shared/api/enums';
import type {
  Command,
  CreateAccountCommand,
  PlaceTpslCommand,
  SetLeverageCommand,
  TpslLeg,
} from '../engine/commands';
import type { SpotOrderInput } from '../engine/spot/spot-trading';
import type { PlaceOrderInput } from '../engine/trading';
import type { AccountKind } from '../engine/types';

export type PlaceOrdersCommand = Extract<Command, { type: 'placeOrders' }>;
export type SetMarginModeCommand = Extract<Command, { type: 'setMarginMode' }>;

/** The time engine tests start from unless they need a particular date (2023-11-14 22:13:20 UTC). */
export const T0 = 1_700_000_000_000;

export interface AccountOptions {
  /** T0 unless given. */
  ts?: number;
  /** Coin -> decimal amount; 100,000 USDT unless given. */
  balances?: Record<string, string>;
  posMode?: PosMode;
  kind?: AccountKind;
  brokerUid?: string | null;
  /** The uid unless given. */
  label?: string;
  /** `key-<uid>` unless given. */
  apiKey?: string;
}

/** Opens a standard one-way account with one read-and-trade key, so tests name only what differs. */
export function createAccountCommand(uid: string, options: AccountOptions = {}): CreateAccountCommand {
  return {
    type: 'createAccount',
    ts: options.ts ?? T0,
    uid,
    kind: options.kind ?? 'standard',
    brokerUid: options.brokerUid ?? null,
    label: options.label ?? uid,
    posMode: options.posMode ?? 'one_way_mode',
    balances: options.balances ?? { USDT: '100000' },
    key: {
      apiKey: options.apiKey ?? `key-${uid}`,
      secretKey: 's',
      passphrase: 'p',
      permissions: ['read', 'trade'],
    },
  };
}

/** A futures order with every field set: a crossed BTCUSDT limit buy of 0.01 at 95,000 unless overridden. */
export function futuresOrder(overrides: Partial<PlaceOrderInput> = {}): PlaceOrderInput {
  return {
    symbol: 'BTCUSDT',
    productType: 'USDT-FUTURES',
    marginCoin: 'USDT',
    marginMode: 'crossed',
    side: 'buy',
    tradeSide: null,
    posSide: null,
    orderType: 'limit',
    force: 'gtc',
    price: '95000',
    size: '0.01',
    clientOid: null,
    reduceOnly: false,
    presetStopSurplusPrice: null,
    presetStopLossPrice: null,
    stpMode: 'none',
    ...overrides,
  };
}

/** Places futures orders as the v2 batch endpoint does, in one command. */
export function placeOrdersCommand(
  uid: string,
  ts: number,
  ...orders: PlaceOrderInput[]
): PlaceOrdersCommand {
  return { type: 'placeOrders', ts, uid, version: 'v2', orders };
}

/** Take-profit and stop-loss legs on a BTCUSDT position (v2); each leg gives its kind and what differs. */
export function tpslCommand(
  uid: string,
  ts: number,
  holdSide: HoldSide,
  ...legs: Array<Partial<TpslLeg> & Pick<TpslLeg, 'kind'>>
): PlaceTpslCommand {
  return {
    type: 'placeTpsl',
    ts,
    uid,
    version: 'v2',
    productType: 'USDT-FUTURES',
    symbol: 'BTCUSDT',
    marginCoin: 'USDT',
    holdSide,
    stpMode: 'none',
    legs: legs.map((leg) => ({
      triggerPrice: '',
      triggerType: 'fill_price',
      executePrice: '',
      size: '',
      clientOid: null,
      ...leg,
    })),
  };
}

/** A spot order with every field set: a BTCUSDT spot market order unless overridden; side and qty given. */
export function spotOrder(input: Partial<SpotOrderInput> & { side: Side; qty: string }): SpotOrderInput {
  return {
    symbol: 'BTCUSDT',
    category: 'SPOT',
    orderType: 'market',
    force: 'gtc',
    price: null,
    clientOid: null,
    stpMode: 'none',
    isolated: false,
    ...input,
  };
}

export interface SymbolOptions {
  /** T0 unless given. */
  ts?: number;
  /** BTCUSDT unless given. */
  symbol?: string;
  /** USDT-FUTURES unless given. */
  productType?: ProductType;
  /** USDT unless given. */
  marginCoin?: string;
}

/** The account, symbol and time that margin-mode and leverage commands share. */
function symbolTarget(uid: string, options: SymbolOptions) {
  return {
    ts: options.ts ?? T0,
    uid,
    productType: options.productType ?? 'USDT-FUTURES',
    symbol: options.symbol ?? 'BTCUSDT',
    marginCoin: options.marginCoin ?? 'USDT',
  };
}

/** Sets one leverage for both sides of a symbol, the way one-way accounts and crossed margin take it. */
export function leverageCommand(
  uid: string,
  leverage: number,
  options: SymbolOptions = {},
): SetLeverageCommand {
  return {
    type: 'setLeverage',
    ...symbolTarget(uid, options),
    leverage,
    longLeverage: null,
    shortLeverage: null,
    holdSide: null,
  };
}

/** Switches a symbol of an account to crossed or isolated margin. */
export function marginModeCommand(
  uid: string,
  marginMode: MarginMode,
  options: SymbolOptions = {},
): SetMarginModeCommand {
  return { type: 'setMarginMode', ...symbolTarget(uid, options), marginMode };
}

/** The margin mode, then the leverage, of a symbol: how a test gets a position of a known margin. */
export function marginAndLeverageCommands(
  uid: string,
  marginMode: MarginMode,
  leverage: number,
  options: SymbolOptions = {},
): [SetMarginModeCommand, SetLeverageCommand] {
  return [marginModeCommand(uid, marginMode, options), leverageCommand(uid, leverage, options)];
}
