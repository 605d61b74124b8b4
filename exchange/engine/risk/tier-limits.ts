import type { HoldSide } from '../../../shared/api/enums';
import { EngineError } from '../errors';
import { formatMoney } from '../money';
import type { EngineState, Market } from '../state';
import type { Account, Order, SymbolSettings } from '../types';
import { tierTableOf } from './position-tiers';
import { markValue, type Exposure } from './position-risk';

const NONE: Exposure = { lots: 0, openValue: 0n };

/**
 * Refuses with 40762 a position value beyond what `leverage` may hold: the larger a position, the
 * lower the leverage its tier allows ("Position Tier" help article,
 * https://www.bitget.com/support/articles/360052911052).
 */
export function checkTierLimit(market: Market, leverage: number, value: bigint): void {
  const max = tierTableOf(market.contract).maxValueFor(leverage);
  if (max >= 0n && value <= max) return;
  const { symbol, marginCoin } = market.contract;
  throw EngineError.detailed(
    'maxOpenSize',
    max < 0n
      ? `The order size is greater than the max open size: ${symbol} has no position tier for ${leverage}x`
      : `The order size is greater than the max open size: at ${leverage}x a ${symbol} position may be worth at most ${formatMoney(max)} ${marginCoin} (position tier); lower the leverage or the size`,
  );
}

/** What an account holds in one direction of a symbol. */
function exposureOf(state: EngineState, account: Account, market: Market, side: HoldSide): Exposure {
  const position = state.positions.get(state.positionKeyOf(account.uid, market.contract.symbol, side));
  return position === undefined ? NONE : { lots: position.lots, openValue: position.openValue };
}

/**
 * The tier limit of an order that opens: the position it would make, at the mark price, must stay
 * within the tiers of the order's leverage (crossed: long and short of the symbol together).
 */
export function checkOrderTier(state: EngineState, account: Account, market: Market, order: Order): void {
  if (order.intent === 'close') return;
  const side: HoldSide = order.posSide !== 'net' ? order.posSide : order.side === 'buy' ? 'long' : 'short';
  const opposite = exposureOf(state, account, market, side === 'long' ? 'short' : 'long');
  const opening = order.intent === 'net' ? order.lots - opposite.lots : order.lots;
  if (opening <= 0) return;
  const mark = market.sim.markPrice;
  const held = exposureOf(state, account, market, side);
  // What the account's other open orders may still open on this side counts too.
  const resting = account.openingOrders.get(state.positionKeyOf(account.uid, market.contract.symbol, side));
  const price = order.price > 0 ? order.price : mark;
  const after = {
    lots: held.lots + (resting?.lots ?? 0) + opening,
    openValue: held.openValue + (resting?.value ?? 0n) + BigInt(price) * BigInt(opening),
  };
  let value = markValue(market, after, mark);
  if (order.marginMode === 'crossed' && order.intent !== 'net') value += markValue(market, opposite, mark);
  checkTierLimit(market, order.leverage, value);
}

/** The tier limit of a leverage change for the positions the account already holds. */
export function checkLeverageTier(
  state: EngineState,
  account: Account,
  market: Market,
  next: SymbolSettings,
): void {
  const mark = market.sim.markPrice;
  const long = markValue(market, exposureOf(state, account, market, 'long'), mark);
  const short = markValue(market, exposureOf(state, account, market, 'short'), mark);
  if (next.marginMode === 'crossed') {
    if (long + short > 0n) checkTierLimit(market, next.crossLeverage, long + short);
    return;
  }
  if (long > 0n) checkTierLimit(market, next.longLeverage, long);
  if (short > 0n) checkTierLimit(market, next.shortLeverage, short);
}
