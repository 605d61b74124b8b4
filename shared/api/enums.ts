// Canonical enumerations of the API. Requests may spell them in any letter case (the live
// exchange accepts `usdt-futures` and `btcusdt`); schemas normalise to these spellings.

export const PRODUCT_TYPES = ['USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

/** v3 `category`: futures product types plus the unified account's spot and margin. */
export const CATEGORIES = ['SPOT', 'MARGIN', ...PRODUCT_TYPES] as const;
export type Category = (typeof CATEGORIES)[number];

export const RECORD_CATEGORIES = [...CATEGORIES, 'OTHER'] as const;
export type RecordCategory = (typeof RECORD_CATEGORIES)[number];

export const MARGIN_MODES = ['isolated', 'crossed'] as const;
export type MarginMode = (typeof MARGIN_MODES)[number];

export const POS_MODES = ['one_way_mode', 'hedge_mode'] as const;
export type PosMode = (typeof POS_MODES)[number];

export const SIDES = ['buy', 'sell'] as const;
export type Side = (typeof SIDES)[number];

export const TRADE_SIDES = ['open', 'close'] as const;
export type TradeSideInput = (typeof TRADE_SIDES)[number];

export const HOLD_SIDES = ['long', 'short'] as const;
export type HoldSide = (typeof HOLD_SIDES)[number];

export const ORDER_TYPES = ['limit', 'market'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

export const TIME_IN_FORCE = ['gtc', 'ioc', 'fok', 'post_only'] as const;
export type TimeInForce = (typeof TIME_IN_FORCE)[number];

export const STP_MODES = ['none', 'cancel_taker', 'cancel_maker', 'cancel_both'] as const;
export type StpMode = (typeof STP_MODES)[number];

export const YES_NO = ['YES', 'NO'] as const;
export type YesNo = (typeof YES_NO)[number];

export const TRIGGER_TYPES = ['fill_price', 'mark_price'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

export const V3_TRIGGER_BY = ['market', 'mark'] as const;
export type V3TriggerBy = (typeof V3_TRIGGER_BY)[number];

export const TPSL_MODES = ['full', 'partial'] as const;
export type TpslMode = (typeof TPSL_MODES)[number];

export const DEPOSIT_ACCOUNT_TYPES = ['funding', 'unified', 'otc'] as const;
export type DepositAccountType = (typeof DEPOSIT_ACCOUNT_TYPES)[number];

export const DEPTH_PRECISIONS = ['scale0', 'scale1', 'scale2', 'scale3'] as const;
export type DepthPrecision = (typeof DEPTH_PRECISIONS)[number];

export const DEPTH_LIMITS = ['1', '5', '15', '50', 'max'] as const;
export type DepthLimit = (typeof DEPTH_LIMITS)[number];

export const PENDING_STATUSES = ['live', 'partially_filled'] as const;
export type PendingStatus = (typeof PENDING_STATUSES)[number];

export const V3_ORDER_STATUSES = ['live', 'new', 'partially_filled', 'filled', 'cancelled'] as const;
export type V3OrderStatus = (typeof V3_ORDER_STATUSES)[number];

export const DELIVERY_STATUSES = [
  'delivery_config_period',
  'delivery_normal',
  'delivery_before',
  'delivery_period',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Permissions an API key can carry. A write permission implies its read. */
export const PERMISSIONS = [
  'read',
  'trade',
  'uta_trade_read',
  'uta_trade_write',
  'uta_mgt_read',
  'uta_mgt_write',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** `tradeSide` values of orders as reported (v2 pending orders). */
export type ReportedTradeSide =
  | 'open'
  | 'close'
  | 'reduce_close_long'
  | 'reduce_close_short'
  | 'burst_close_long'
  | 'burst_close_short'
  | 'offset_close_long'
  | 'offset_close_short'
  | 'delivery_close_long'
  | 'delivery_close_short'
  | 'dte_sys_adl_close_long'
  | 'dte_sys_adl_close_short'
  | 'buy_single'
  | 'sell_single'
  | 'reduce_buy_single'
  | 'reduce_sell_single'
  | 'burst_buy_single'
  | 'burst_sell_single'
  | 'delivery_sell_single'
  | 'delivery_buy_single'
  | 'dte_sys_adl_buy_in_single_side_mode'
  | 'dte_sys_adl_sell_in_single_side_mode';

export type OrderSource =
  | 'normal'
  | 'market'
  | 'profit_market'
  | 'loss_market'
  | 'Trader_delegate'
  | 'trader_profit'
  | 'trader_loss'
  | 'reverse'
  | 'trader_reverse'
  | 'profit_limit'
  | 'loss_limit'
  | 'liquidation'
  | 'delivery_close_long'
  | 'delivery_close_short'
  | 'pos_profit_limit'
  | 'pos_profit_market'
  | 'pos_loss_limit'
  | 'pos_loss_market';
