import { linearMoneyFactor, lotMoneyUnits } from '../contracts';
import { divRound, formatScaled } from '../money';
import { unrealizedPnl } from '../positions';
import type { EngineState, Market } from '../state';
import type { Account, Position } from '../types';
import { tierTableOf, type TierTable } from './position-tiers';

const PPM = 1_000_000n;

/** What one direction of a symbol holds: lots and the sum of entry ticks x lots. */
export interface Exposure {
  lots: number;
  openValue: bigint;
}

const NONE: Exposure = { lots: 0, openValue: 0n };

/** A price as an exact fraction of ticks, den > 0. */
export interface TickFraction {
  num: bigint;
  den: bigint;
}

/** Position value at a mark price in money units of the margin coin. */
export function markValue(market: Market, exposure: Exposure, markTicks: number): bigint {
  if (exposure.lots === 0) return 0n;
  if (market.contract.kind === 'linear') return market.math.value(markTicks, exposure.lots);
  // Coin-margined: value in coin = face / mark, face = size x entry (the USD the position is worth).
  return divRound(exposure.openValue * lotMoneyUnits(market.contract), BigInt(markTicks));
}

/**
 * The mark price at which `margin` (isolated: the position margin; crossed: the account's equity
 * available to the symbol) plus the unrealized PnL of `long` and `short` falls to their tiered
 * maintenance margin, or null when no price reaches it.
 *
 * Linear, as published (https://www.bgportable.com/support/articles/12560603808759 "Bitget futures:
 * Estimated liquidation price"), with Q = size, EP = entry, dir = +1/-1:
 *   LP = (margin + offset - Q x EP x dir) / (Q x (MMR + takerFee - dir))
 * where offset is the tier's pre-calculated amount (TierTable.offsetScaled). Crossed hedge mode
 * tiers long and short together, which gives the same equation with both directions in it:
 *   LP = (X + offset - (Ql x EPl - Qs x EPs)) / ((Ql + Qs) x (MMR + fee) - (Ql - Qs)).
 * Coin-margined (not published): the same margin-rate equation with value = face / P and
 * PnL = dir x (Q - face / P), face = Q x EP, solved for 1/P:
 *   LP = ((facel + faces) x (MMR + fee) + (facel - faces)) / (X + offset + (Ql - Qs)).
 * The tier is the one the value at LP falls in; the first consistent tier is the answer.
 */
export function liquidationPrice(
  market: Market,
  table: TierTable,
  margin: bigint,
  long: Exposure,
  short: Exposure,
): TickFraction | null {
  const linear = market.contract.kind === 'linear';
  const unit = linear ? linearMoneyFactor(market.contract) : lotMoneyUnits(market.contract);
  const lots = BigInt(long.lots + short.lots);
  const netLots = BigInt(long.lots - short.lots);
  const netEntry = long.openValue - short.openValue;
  const totalEntry = long.openValue + short.openValue;
  let fallback: TickFraction | null = null;
  for (let index = 0; index < table.tiers.length; index++) {
    const rate = table.rateWithFeePpm(index);
    const offset = table.offsetScaled(index);
    let num: bigint;
    let den: bigint;
    if (linear) {
      num = margin * PPM + offset - netEntry * unit * PPM;
      den = unit * (lots * rate - netLots * PPM);
    } else {
      num = unit * (totalEntry * rate + netEntry * PPM);
      den = margin * PPM + offset + netLots * unit * PPM;
    }
    if (den === 0n) continue;
    if (den < 0n) {
      num = -num;
      den = -den;
    }
    const price = { num, den };
    if (index === 0) fallback = price;
    if (num <= 0n) continue;
    // The value at the price, as a fraction valueNum / valueDen.
    const valueNum = linear ? lots * unit * num : totalEntry * unit * den;
    const valueDen = linear ? den : num;
    const tier = table.tier(index);
    const last = index === table.tiers.length - 1;
    if (valueNum >= tier.lower * valueDen && (last || valueNum <= tier.upper * valueDen)) return price;
  }
  return fallback;
}

/** Rounds a tick fraction to whole ticks (half away from zero). */
export function roundTicks(price: TickFraction): bigint {
  return divRound(price.num, price.den);
}

/** A price in ticks written out with the contract's decimals; '0' for none. */
export function ticksText(market: Market, ticks: bigint | null): string {
  if (ticks === null) return '0';
  return formatScaled(ticks * BigInt(market.contract.priceEndStep), market.contract.pricePlace);
}

/** A ratio as the API writes it (4 decimals, 0.1 = 10%). */
export function ratioText(numerator: bigint, denominator: bigint): string {
  if (numerator <= 0n) return '0';
  if (denominator <= 0n) return '1';
  return formatScaled(divRound(numerator * 10_000n, denominator), 4);
}

/**
 * Breakeven price as ticks x lots over lots: the exit at which PnL covers the opening and closing
 * taker fee. Linear, the common form of exchange-facts.md: long EP x (1 + f) / (1 - f), short
 * EP x (1 - f) / (1 + f). Coin-margined, where both fees are size x f in coin and
 * PnL = dir x Q x (1 - EP / P): long EP / (1 - 2f), short EP / (1 + 2f).
 */
export function breakEvenTicksLots(market: Market, position: Position): bigint {
  const fee = BigInt(market.contract.takerFeePpm);
  const long = position.holdSide === 'long';
  if (market.contract.kind === 'inverse') {
    return long
      ? divRound(position.openValue * PPM, PPM - 2n * fee)
      : divRound(position.openValue * PPM, PPM + 2n * fee);
  }
  return long
    ? (position.openValue * (PPM + fee)) / (PPM - fee)
    : (position.openValue * (PPM - fee)) / (PPM + fee);
}

/** The risk figures of one position as all-position shows them. */
export interface PositionRisk {
  keepMarginRatePpm: number;
  /** Maintenance margin of the position (crossed: its share of the symbol's), money units. */
  maintenance: bigint;
  marginRatio: string;
  liquidationTicks: bigint | null;
}

/** Crossed figures of one account in one margin coin. */
export interface CrossedAccount {
  /** Balance less isolated margins plus crossed unrealized PnL, money units. */
  equity: bigint;
  /** Sum of the crossed symbols' maintenance margins, money units x 1e6 (exact). */
  maintenanceScaled: bigint;
  symbols: Map<string, CrossedSymbol>;
}

export interface CrossedSymbol {
  market: Market;
  long: Exposure;
  short: Exposure;
  value: bigint;
  maintenanceScaled: bigint;
  unrealized: bigint;
}

/** Margin, maintenance and liquidation figures from the engine's state. */
export class RiskCalculator {
  constructor(private readonly state: EngineState) {}

  /** Crossed equity and maintenance of an account in one margin coin. */
  crossedAccount(account: Account, coin: string): CrossedAccount {
    let equity = account.balances.get(coin) ?? 0n;
    const symbols = new Map<string, CrossedSymbol>();
    for (const position of account.positions.values()) {
      if (position.marginCoin !== coin) continue;
      if (position.marginMode === 'isolated') {
        equity -= position.margin;
        continue;
      }
      const market = this.state.market(position.symbol);
      if (market === undefined) continue;
      let entry = symbols.get(position.symbol);
      if (entry === undefined) {
        entry = { market, long: NONE, short: NONE, value: 0n, maintenanceScaled: 0n, unrealized: 0n };
        symbols.set(position.symbol, entry);
      }
      const exposure = { lots: position.lots, openValue: position.openValue };
      if (position.holdSide === 'long') entry.long = exposure;
      else entry.short = exposure;
      const pnl = unrealizedPnl(market, position, market.sim.markPrice);
      entry.unrealized += pnl;
      equity += pnl;
    }
    let maintenanceScaled = 0n;
    for (const entry of symbols.values()) {
      const mark = entry.market.sim.markPrice;
      // Crossed: long and short of a symbol are tiered together ("Position Tier" help article).
      entry.value = markValue(entry.market, entry.long, mark) + markValue(entry.market, entry.short, mark);
      entry.maintenanceScaled = tierTableOf(entry.market.contract).maintenanceScaled(entry.value);
      maintenanceScaled += entry.maintenanceScaled;
    }
    return { equity, maintenanceScaled, symbols };
  }

  /** The all-position risk figures of a position; `crossed` may be passed in when already known. */
  positionRisk(account: Account, position: Position, crossed?: CrossedAccount): PositionRisk {
    const market = this.state.market(position.symbol) as Market;
    const table = tierTableOf(market.contract);
    const mark = market.sim.markPrice;
    const exposure = { lots: position.lots, openValue: position.openValue };
    if (position.marginMode === 'isolated') {
      // Isolated: each direction is tiered alone; margin ratio = MM / (position margin + uPnL).
      const value = markValue(market, exposure, mark);
      const maintenance = table.maintenance(value);
      const equity = position.margin + unrealizedPnl(market, position, mark);
      const long = position.holdSide === 'long';
      const price = liquidationPrice(
        market,
        table,
        position.margin,
        long ? exposure : NONE,
        long ? NONE : exposure,
      );
      return {
        keepMarginRatePpm: table.tier(table.indexOf(value)).mmrPpm,
        maintenance,
        marginRatio: ratioText(maintenance, equity),
        liquidationTicks: price === null ? null : roundTicks(price),
      };
    }
    const summary = crossed ?? this.crossedAccount(account, position.marginCoin);
    const symbol = summary.symbols.get(position.symbol);
    if (symbol === undefined) {
      return {
        keepMarginRatePpm: table.tier(0).mmrPpm,
        maintenance: 0n,
        marginRatio: '0',
        liquidationTicks: null,
      };
    }
    const value = markValue(market, exposure, mark);
    const maintenance =
      symbol.value === 0n ? 0n : divRound(symbol.maintenanceScaled * value, symbol.value * PPM);
    // Crossed: the equity left to this symbol is the account's crossed equity without the symbol's
    // own PnL, less the other symbols' maintenance margin ("X" of the help article).
    const available =
      summary.equity -
      symbol.unrealized -
      divRound(summary.maintenanceScaled - symbol.maintenanceScaled, PPM);
    const price = liquidationPrice(market, table, available, symbol.long, symbol.short);
    return {
      keepMarginRatePpm: table.tier(table.indexOf(symbol.value)).mmrPpm,
      maintenance,
      marginRatio: ratioText(divRound(summary.maintenanceScaled, PPM), summary.equity),
      liquidationTicks: price === null ? null : roundTicks(price),
    };
  }
}
