import { isMarketCommand, movesMarks, type Command } from '../commands';
import type { EngineState, Market } from '../state';
import type { Trading } from '../trading';
import { unrealizedPnl } from '../positions';
import type { Account, Position } from '../types';
import { tierTableOf } from './position-tiers';
import { liquidationPrice, RiskCalculator, type TickFraction } from './position-risk';

const PPM = 1_000_000n;

/** An isolated position's liquidation threshold, valid while lots, margin and entry stay. */
interface Threshold {
  lots: number;
  margin: bigint;
  openValue: bigint;
  /** Long: liquidated at a mark <= ticks; short: at a mark >= ticks; null: never. */
  ticks: number | null;
}

/** A crossed account's threshold, valid while its balance and positions of the coin stay as held. */
interface CrossedThreshold {
  held: ReadonlyArray<Position | number | bigint>;
  /** The one crossed position of the coin; null when there is none. */
  crossed: Position | null;
  /** Long: liquidated at a mark <= ticks; short: at a mark >= ticks; null: never. */
  ticks: number | null;
}

/**
 * Closes positions whose margin ratio reached 100% at the mark price, as the exchange does: the
 * account's open orders go first, then the position is closed by the exchange (order source
 * `liquidation`, trade side burst_*), and the loss beyond what the position may lose is taken by
 * the insurance fund, so a balance never goes negative.
 *
 * It runs after every command but looks only at symbols whose mark price moved or that traded, and
 * at accounts whose balance changed or that sent the command. Isolated positions are checked by a
 * cached liquidation price (a number comparison while the position is unchanged).
 */
export class Liquidations {
  private readonly risk: RiskCalculator;
  private readonly checkedMarks = new Map<string, number>();
  private readonly thresholds = new WeakMap<Position, Threshold>();
  private readonly crossedThresholds = new WeakMap<Account, Map<string, CrossedThreshold>>();
  /**
   * Per symbol, since its last scan: the highest long and lowest short threshold of its positions,
   * and the accounts whose crossed threshold depends on several marks (always checked).
   */
  private readonly bounds = new Map<
    string,
    {
      highestLong: number;
      lowestShort: number;
      unbounded: Set<Account>;
      /** Accounts checked since, whose thresholds are folded in at the symbol's next mark move. */
      pending: Set<Account>;
    }
  >();

  constructor(
    private readonly state: EngineState,
    private readonly trading: Trading,
  ) {
    this.risk = new RiskCalculator(state);
  }

  settle(command: Command, ts: number): void {
    const state = this.state;
    // Only the mark moves a margin ratio; a trade moves the balances of its accounts (below). Most
    // commands change neither, so nothing is allocated until something did.
    let dirtySymbols: Set<string> | null = null;
    const everything = !('uid' in command) && !isMarketCommand(command);
    for (const market of movesMarks(command) ? state.markets.values() : []) {
      const symbol = market.contract.symbol;
      if (this.checkedMarks.get(symbol) !== market.sim.markPrice) {
        (dirtySymbols ??= new Set()).add(symbol);
        this.checkedMarks.set(symbol, market.sim.markPrice);
      }
    }
    const changed = state.ledger.takeChangedAccounts();
    if (dirtySymbols === null && changed.size === 0 && !everything && command.type !== 'setLeverage') return;
    // A margin ratio moves with the balance (fills, fees, funding: all through the ledger), and with
    // a leverage change, which re-sizes isolated margins without a record.
    const dirtyAccounts = new Set<Account>();
    if (command.type === 'setLeverage') {
      const account = state.accounts.get(command.uid);
      if (account !== undefined && account.positions.size > 0) dirtyAccounts.add(account);
    }
    for (const account of changed) {
      if (account.positions.size > 0) dirtyAccounts.add(account);
    }
    if (dirtySymbols === null && !everything) {
      // The common case, a trader's fills: only the accounts whose balance moved are looked at.
      if (dirtyAccounts.size > 0) this.checkAccounts(dirtyAccounts, ts);
      return;
    }
    dirtySymbols ??= new Set();

    // A symbol whose mark stays clear of every threshold seen needs no look at its positions, but
    // for the accounts whose threshold depends on other marks too.
    const candidates = new Set<Account>(dirtyAccounts);
    const scanned = new Set<string>();
    for (const market of state.markets.values()) {
      const symbol = market.contract.symbol;
      if (!everything && !dirtySymbols.has(symbol)) continue;
      const bounds = this.bounds.get(symbol);
      if (bounds !== undefined && bounds.pending.size > 0) {
        for (const account of bounds.pending) {
          for (const position of account.positions.values()) {
            if (position.symbol === symbol)
              this.widen(account, position, this.thresholdOf(account, position));
          }
        }
        bounds.pending.clear();
      }
      const mark = market.sim.markPrice;
      if (!everything && bounds !== undefined && mark > bounds.highestLong && mark < bounds.lowestShort) {
        for (const account of bounds.unbounded) candidates.add(account);
        continue;
      }
      scanned.add(symbol);
      this.bounds.set(symbol, {
        highestLong: -Infinity,
        lowestShort: Infinity,
        unbounded: new Set(),
        pending: new Set(),
      });
    }
    for (const position of scanned.size === 0 ? [] : state.positions.values()) {
      if (!scanned.has(position.symbol)) continue;
      const account = state.accounts.get(position.uid);
      if (account === undefined) continue;
      const threshold = this.thresholdOf(account, position);
      this.widen(account, position, threshold);
      if (candidates.has(account) || threshold === null) continue;
      if (threshold !== undefined && !this.reached(position, threshold)) continue;
      candidates.add(account);
    }
    // In account order, so a replay from any snapshot liquidates in the same order.
    const ordered = [...candidates].sort((a, b) => a.owner - b.owner);
    for (const account of ordered) {
      const whole = everything || dirtyAccounts.has(account);
      this.checkAccount(account, whole ? null : dirtySymbols, ts);
    }
    this.widenLater(dirtyAccounts);
  }

  /** Checks accounts whose balance moved, in account order, all their positions. */
  private checkAccounts(accounts: ReadonlySet<Account>, ts: number): void {
    const ordered = accounts.size === 1 ? accounts : [...accounts].sort((a, b) => a.owner - b.owner);
    for (const account of ordered) this.checkAccount(account, null, ts);
    this.widenLater(accounts);
  }

  /** What changed in accounts checked whole widens the bounds of their symbols at the next mark move. */
  private widenLater(accounts: ReadonlySet<Account>): void {
    for (const account of accounts) {
      for (const position of account.positions.values()) {
        this.bounds.get(position.symbol)?.pending.add(account);
      }
    }
  }

  /**
   * The mark at which a position is liquidated (long: at or below; short: at or above), null when
   * never, undefined when it depends on more than its own mark (several crossed positions).
   */
  private thresholdOf(account: Account, position: Position): number | null | undefined {
    if (position.marginMode === 'isolated') return this.isolatedThreshold(position);
    const crossed = this.crossedCache(account, position.marginCoin);
    if (crossed === undefined) return undefined;
    return crossed.crossed === position ? crossed.ticks : null;
  }

  private reached(position: Position, threshold: number): boolean {
    const mark = (this.state.market(position.symbol) as Market).sim.markPrice;
    return position.holdSide === 'long' ? mark <= threshold : mark >= threshold;
  }

  private widen(account: Account, position: Position, threshold: number | null | undefined): void {
    const bounds = this.bounds.get(position.symbol);
    if (bounds === undefined) return;
    if (threshold === undefined) bounds.unbounded.add(account);
    else if (threshold === null) return;
    else if (position.holdSide === 'long') bounds.highestLong = Math.max(bounds.highestLong, threshold);
    else bounds.lowestShort = Math.min(bounds.lowestShort, threshold);
  }

  private checkAccount(account: Account, symbols: Set<string> | null, ts: number): void {
    const coins = new Set<string>();
    const isolated: Position[] = [];
    for (const position of account.positions.values()) {
      if (symbols !== null && !symbols.has(position.symbol)) continue;
      if (position.marginMode === 'crossed') coins.add(position.marginCoin);
      else if (this.isolatedAtRisk(position)) isolated.push(position);
    }
    for (const position of isolated.sort((a, b) => a.id - b.id)) {
      if (position.lots > 0) this.liquidateIsolated(account, position, ts);
    }
    for (const coin of [...coins].sort()) {
      const quick = this.crossedAtRisk(account, coin);
      if (quick === false) continue;
      const crossed = this.risk.crossedAccount(account, coin);
      if (crossed.maintenanceScaled > 0n && crossed.equity * PPM <= crossed.maintenanceScaled) {
        this.liquidateCrossed(account, coin, ts);
      }
    }
  }

  /**
   * The common case by a cached liquidation price: crossed positions of the coin in one direction of
   * one symbol, where only that symbol's mark moves the margin ratio. Undefined: compute in full.
   */
  private crossedAtRisk(account: Account, coin: string): boolean | undefined {
    const cached = this.crossedCache(account, coin);
    if (cached === undefined) return undefined;
    if (cached.ticks === null || cached.crossed === null) return false;
    return this.reached(cached.crossed, cached.ticks);
  }

  /** The crossed threshold of an account's coin, recomputed when its balance or positions changed. */
  private crossedCache(account: Account, coin: string): CrossedThreshold | undefined {
    let byCoin = this.crossedThresholds.get(account);
    if (byCoin === undefined) {
      byCoin = new Map();
      this.crossedThresholds.set(account, byCoin);
    }
    let cached = byCoin.get(coin);
    if (cached === undefined || !this.holdsSame(account, coin, cached.held)) {
      cached = this.crossedThreshold(account, coin);
      if (cached === undefined) {
        byCoin.delete(coin);
        return undefined;
      }
      byCoin.set(coin, cached);
    }
    return cached;
  }

  /** Whether the account's balance and positions of the coin are what `held` recorded. */
  private holdsSame(account: Account, coin: string, held: readonly unknown[]): boolean {
    if (held[0] !== (account.balances.get(coin) ?? 0n)) return false;
    let index = 1;
    for (const position of account.positions.values()) {
      if (position.marginCoin !== coin) continue;
      if (
        held[index] !== position ||
        held[index + 1] !== position.lots ||
        held[index + 2] !== position.openValue ||
        held[index + 3] !== position.margin
      )
        return false;
      index += 4;
    }
    return index === held.length;
  }

  /** The crossed liquidation threshold; undefined when more than one crossed position shares the coin. */
  private crossedThreshold(account: Account, coin: string): CrossedThreshold | undefined {
    let crossed: Position | undefined;
    const held: Array<Position | number | bigint> = [account.balances.get(coin) ?? 0n];
    let isolatedMargins = 0n;
    for (const position of account.positions.values()) {
      if (position.marginCoin !== coin) continue;
      held.push(position, position.lots, position.openValue, position.margin);
      if (position.marginMode === 'isolated') isolatedMargins += position.margin;
      else if (crossed !== undefined) return undefined;
      else crossed = position;
    }
    if (crossed === undefined) return { held, crossed: null, ticks: null };
    const market = this.state.market(crossed.symbol);
    if (market === undefined) return undefined;
    const exposure = { lots: crossed.lots, openValue: crossed.openValue };
    const none = { lots: 0, openValue: 0n };
    const long = crossed.holdSide === 'long';
    const price = liquidationPrice(
      market,
      tierTableOf(market.contract),
      (held[0] as bigint) - isolatedMargins,
      long ? exposure : none,
      long ? none : exposure,
    );
    const ticks =
      price === null || price.num <= 0n ? null : Number(long ? floorTicks(price) : ceilTicks(price));
    return { held, crossed, ticks };
  }

  /** Whether an isolated position's mark reached its liquidation price. */
  private isolatedAtRisk(position: Position): boolean {
    const ticks = this.isolatedThreshold(position);
    return ticks !== null && this.reached(position, ticks);
  }

  /** An isolated position's liquidation threshold, cached while the position is unchanged. */
  private isolatedThreshold(position: Position): number | null {
    const market = this.state.market(position.symbol);
    if (market === undefined || position.lots === 0) return null;
    let threshold = this.thresholds.get(position);
    if (
      threshold === undefined ||
      threshold.lots !== position.lots ||
      threshold.margin !== position.margin ||
      threshold.openValue !== position.openValue
    ) {
      threshold = {
        lots: position.lots,
        margin: position.margin,
        openValue: position.openValue,
        ticks: isolatedThreshold(market, position),
      };
      this.thresholds.set(position, threshold);
    }
    return threshold.ticks;
  }

  private liquidateIsolated(account: Account, position: Position, ts: number): void {
    const market = this.state.market(position.symbol) as Market;
    this.cancelOrders(
      account,
      (symbol, coin) => symbol === position.symbol && coin === position.marginCoin,
      ts,
    );
    const coin = position.marginCoin;
    const before = account.balances.get(coin) ?? 0n;
    // Isolated: the loss stops at the position margin.
    const floor = before - position.margin > 0n ? before - position.margin : 0n;
    this.coverShortfall(account, market, before + this.closingChange(position, market), floor, ts);
    this.close(account, position, market, ts);
    this.forfeitRemainder(account, market, floor, ts);
  }

  private liquidateCrossed(account: Account, coin: string, ts: number): void {
    this.cancelOrders(account, (_symbol, orderCoin) => orderCoin === coin, ts);
    const positions = [...account.positions.values()]
      .filter((position) => position.marginCoin === coin && position.marginMode === 'crossed')
      .sort((a, b) => a.id - b.id);
    const first = positions[0];
    if (first === undefined) return;
    // Crossed: the loss stops at the crossed wallet; isolated margins stay with their positions.
    let floor = 0n;
    for (const position of account.positions.values()) {
      if (position.marginCoin === coin && position.marginMode === 'isolated') floor += position.margin;
    }
    let after = account.balances.get(coin) ?? 0n;
    for (const position of positions) {
      after += this.closingChange(position, this.state.market(position.symbol) as Market);
    }
    this.coverShortfall(account, this.state.market(first.symbol) as Market, after, floor, ts);
    for (const position of positions)
      this.close(account, position, this.state.market(position.symbol) as Market, ts);
    this.forfeitRemainder(account, this.state.market(first.symbol) as Market, floor, ts);
  }

  /** The balance change of closing a whole position at the mark with the taker fee. */
  private closingChange(position: Position, market: Market): bigint {
    const mark = market.sim.markPrice;
    return (
      unrealizedPnl(market, position, mark) -
      market.math.tradeFee(mark, position.lots, market.contract.takerFeePpm)
    );
  }

  private close(account: Account, position: Position, market: Market, ts: number): void {
    const recordType = position.holdSide === 'long' ? 'BURST_LONG_LOSS_QUERY' : 'BURST_SHORT_LOSS_QUERY';
    this.trading.systemClose(
      account,
      position,
      position.lots,
      market.sim.markPrice,
      'liquidation',
      market.contract.takerFeePpm,
      recordType,
      ts,
    );
  }

  /**
   * The insurance fund pays in what the closing would take below `floor`,
   * written before the close so the balance is never shown below it.
   */
  private coverShortfall(
    account: Account,
    market: Market,
    projected: bigint,
    floor: bigint,
    ts: number,
  ): void {
    if (projected < floor) this.insuranceTransfer(account, market, floor - projected, ts);
  }

  /**
   * What a liquidated position leaves above `floor` goes to the insurance fund: "after the
   * liquidation is triggered and completed, if the remaining assets in the account are positive,
   * the risk margin will be injected" (https://bitget.site/support/articles/360058878652). An
   * isolated position thus loses exactly its margin, a crossed account its crossed equity.
   */
  private forfeitRemainder(account: Account, market: Market, floor: bigint, ts: number): void {
    const balance = account.balances.get(market.contract.marginCoin) ?? 0n;
    if (balance > floor) this.insuranceTransfer(account, market, floor - balance, ts);
  }

  /** A movement between the account and the insurance fund (the live bill type, sic). */
  private insuranceTransfer(account: Account, market: Market, amount: bigint, ts: number): void {
    this.state.ledger.applyForContract(
      account,
      market.contract,
      { type: 'RISK_CAPTITAL_USER_TRANSFER', amount, fee: 0n },
      ts,
    );
  }

  private cancelOrders(
    account: Account,
    matches: (symbol: string, coin: string) => boolean,
    ts: number,
  ): void {
    for (const id of [...account.openOrders]) {
      const order = this.state.orders.get(id);
      if (order !== undefined && matches(order.symbol, order.marginCoin)) {
        this.trading.cancel(order, 'liquidation', ts);
      }
    }
  }
}

/** The mark at which an isolated position is liquidated, in whole ticks on the safe side. */
function isolatedThreshold(market: Market, position: Position): number | null {
  const exposure = { lots: position.lots, openValue: position.openValue };
  const none = { lots: 0, openValue: 0n };
  const long = position.holdSide === 'long';
  const price = liquidationPrice(
    market,
    tierTableOf(market.contract),
    position.margin,
    long ? exposure : none,
    long ? none : exposure,
  );
  if (price === null || price.num <= 0n) return null;
  return Number(long ? floorTicks(price) : ceilTicks(price));
}

function floorTicks(price: TickFraction): bigint {
  return price.num / price.den;
}

function ceilTicks(price: TickFraction): bigint {
  const quotient = price.num / price.den;
  return quotient * price.den === price.num ? quotient : quotient + 1n;
}
