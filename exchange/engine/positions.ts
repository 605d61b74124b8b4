import type { HoldSide } from '../../shared/api/enums';
import type { EngineState, Market } from './state';
import { ticksTimesLots } from './contract-math';
import { divRound, formatMoney, formatScaled } from './money';
import type { Account, HistoryPosition, Order, Position } from './types';

export function direction(holdSide: HoldSide): 1 | -1 {
  return holdSide === 'long' ? 1 : -1;
}

/** Formats a sum of ticks x lots divided by lots as a price with the contract's decimals. */
export function averagePrice(market: Market, ticksLots: bigint, lots: number): string {
  if (lots === 0) return '0';
  const { pricePlace, priceEndStep } = market.contract;
  // Two extra decimals so an average between ticks is not hidden.
  const scaled = divRound(ticksLots * BigInt(priceEndStep) * 100n, BigInt(lots));
  return formatScaled(scaled, pricePlace + 2);
}

export function lotsText(market: Market, lots: number): string {
  return formatScaled(lots, market.contract.volumePlace);
}

export function priceText(market: Market, ticks: number): string {
  return formatScaled(ticks * market.contract.priceEndStep, market.contract.pricePlace);
}

/** Opens or adds to a position with a fill of `lots` at `price` ticks. */
export function openPosition(
  state: EngineState,
  account: Account,
  market: Market,
  order: Order,
  holdSide: HoldSide,
  lots: number,
  price: number,
  fee: bigint,
  ts: number,
): Position {
  const key = state.positionKeyOf(account.uid, market.contract.symbol, holdSide);
  let position = state.positions.get(key);
  if (position === undefined) {
    position = {
      id: state.nextPositionId++,
      uid: account.uid,
      symbol: market.contract.symbol,
      productType: market.contract.productType,
      marginCoin: market.contract.marginCoin,
      holdSide,
      marginMode: order.marginMode,
      posMode: order.posMode,
      leverage: order.leverage,
      lots: 0,
      openValue: 0n,
      margin: 0n,
      achievedProfits: 0n,
      deductedFee: 0n,
      fundingFee: null,
      openFee: 0n,
      closeFee: 0n,
      openTotalLots: 0,
      openTotalValue: 0n,
      closeTotalLots: 0,
      closeTotalValue: 0n,
      cTime: ts,
      uTime: ts,
    };
    state.addPosition(account, key, position);
  }
  const ticksLots = ticksTimesLots(price, lots);
  position.lots += lots;
  position.openValue += ticksLots;
  position.margin += market.math.marginFor(price, lots, position.leverage);
  position.deductedFee += fee;
  position.openFee += fee;
  position.openTotalLots += lots;
  position.openTotalValue += ticksLots;
  position.uTime = ts;
  state.ledger.applyForContract(
    account,
    market.contract,
    { type: holdSide === 'long' ? 'OPEN_LONG' : 'OPEN_SHORT', amount: 0n, fee },
    ts,
  );
  return position;
}

/**
 * Reduces a position by `lots` at `price` ticks: realizes PnL, releases margin, and archives the
 * position into history when nothing is left. Returns the realized PnL.
 */
export function closePosition(
  state: EngineState,
  account: Account,
  market: Market,
  position: Position,
  lots: number,
  price: number,
  fee: bigint,
  ts: number,
  recordType?: string,
): bigint {
  const whole = lots === position.lots;
  const entryPart = whole
    ? position.openValue
    : divRound(position.openValue * BigInt(lots), BigInt(position.lots));
  const pnl = market.math.pnl(entryPart, lots, price, direction(position.holdSide));
  const marginRelease = whole
    ? position.margin
    : divRound(position.margin * BigInt(lots), BigInt(position.lots));
  position.lots -= lots;
  position.openValue -= entryPart;
  position.margin -= marginRelease;
  position.achievedProfits += pnl;
  position.deductedFee += fee;
  position.closeFee += fee;
  position.closeTotalLots += lots;
  position.closeTotalValue += ticksTimesLots(price, lots);
  position.uTime = ts;
  state.ledger.applyForContract(
    account,
    market.contract,
    { type: recordType ?? (position.holdSide === 'long' ? 'CLOSE_LONG' : 'CLOSE_SHORT'), amount: pnl, fee },
    ts,
  );
  if (position.lots === 0) archive(state, account, market, position, ts);
  return pnl;
}

function archive(state: EngineState, account: Account, market: Market, position: Position, ts: number): void {
  state.removePosition(account, state.positionKeyOf(position.uid, position.symbol, position.holdSide));
  // Take-profit and stop-loss plans belong to the position and end with it.
  for (const plan of [...state.plans.ofSymbol(position.symbol)]) {
    if (plan.uid === position.uid && plan.holdSide === position.holdSide) state.plans.delete(plan.id);
  }
  const funding = position.fundingFee ?? 0n;
  const history: HistoryPosition = {
    // A history id of its own, taken at closing: the list runs newest close first and
    // idLessThan pages back through it without skipping a position closed out of opening order.
    positionId: String(state.nextPositionId++),
    symbol: position.symbol,
    productType: position.productType,
    marginCoin: position.marginCoin,
    holdSide: position.holdSide,
    posMode: position.posMode,
    marginMode: position.marginMode,
    openAvgPrice: averagePrice(market, position.openTotalValue, position.openTotalLots),
    closeAvgPrice: averagePrice(market, position.closeTotalValue, position.closeTotalLots),
    openTotalPos: lotsText(market, position.openTotalLots),
    closeTotalPos: lotsText(market, position.closeTotalLots),
    pnl: formatMoney(position.achievedProfits),
    netProfit: formatMoney(position.achievedProfits - position.openFee - position.closeFee + funding),
    totalFunding: formatMoney(funding),
    openFee: formatMoney(-position.openFee),
    closeFee: formatMoney(-position.closeFee),
    cTime: position.cTime,
    uTime: ts,
  };
  state.archivePosition(account, history);
}

/** Unrealized PnL of a position at a mark price in ticks, money units. */
export function unrealizedPnl(market: Market, position: Position, markTicks: number): bigint {
  if (position.lots === 0) return 0n;
  return market.math.pnl(position.openValue, position.lots, markTicks, direction(position.holdSide));
}
