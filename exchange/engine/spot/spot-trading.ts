import type { OrderType, Side, StpMode, TimeInForce } from '../../../shared/api/enums';
import { BUY, SELL, newRestingOrder } from '../book/order-book';
import { EngineError } from '../errors';
import { divCeil, divRound, formatMoney, parseScaled } from '../money';
import { MARKET_OWNER, type EngineState } from '../state';
import type { Trading } from '../trading';
import type { Account } from '../types';
import { Borrowing } from './borrowing';
import { spotIndexTicks } from './spot-index';
import { SpotSimulation } from './spot-simulation';
import {
  MAX_FINISHED_SPOT_ORDERS,
  MAX_OPEN_SPOT_ORDERS,
  type SpotCategory,
  type SpotMarket,
  type SpotOrder,
} from './spot-state';
import {
  baseUnitsPerLot,
  DEFAULT_SPOT_SYMBOLS,
  quoteUnitsPerTickLot,
  type SpotSymbolSpec,
} from './spot-symbols';

const PPM = 1_000_000n;

/** A spot or margin order of E2, after schema validation. */
export interface SpotOrderInput {
  readonly symbol: string;
  readonly category: SpotCategory;
  readonly side: Side;
  readonly orderType: OrderType;
  readonly force: TimeInForce;
  readonly price: string | null;
  /** Market buy: quote coin; limit orders and market sells: base coin (spec E2). */
  readonly qty: string;
  readonly clientOid: string | null;
  readonly stpMode: StpMode;
  /** The order asked for isolated margin, which E2 does not support (rule 2). */
  readonly isolated: boolean;
}

/**
 * Spot and margin orders of the unified account: one wallet per coin (`account.balances`, shared
 * with futures), reservations in `account.frozen` so futures and spot never spend the same coin,
 * automatic borrowing for margin orders and automatic repayment when a borrowed coin comes back.
 */
export class SpotTrading {
  readonly borrowing: Borrowing;

  constructor(
    private readonly state: EngineState,
    private readonly trading: Trading,
    seed: number,
    symbols: readonly SpotSymbolSpec[] = DEFAULT_SPOT_SYMBOLS,
  ) {
    this.borrowing = new Borrowing(state, trading);
    for (const spec of symbols) {
      const start = spotIndexTicks(state, spec) ?? 1;
      state.spot.addMarket(spec, SpotSimulation.create(spec, seed, start), start);
    }
  }

  /** Validates, borrows if a margin order needs it, reserves, matches and rests one order. */
  place(account: Account, input: SpotOrderInput, ts: number): SpotOrder {
    const state = this.state;
    const spot = state.spot;
    const market = spot.markets.get(input.symbol);
    if (market === undefined) throw EngineError.of('symbolNotExistV3', input.symbol);
    if (input.category === 'MARGIN' && input.isolated) {
      throw EngineError.detailed(
        'paramVerifyV3',
        'Parameter verification failed marginMode: isolated spot margin is not supported; margin orders trade on the cross margin of the unified account',
      );
    }
    const spec = market.spec;
    const marketBuy = input.orderType === 'market' && input.side === 'buy';
    const price = input.orderType === 'limit' ? parsePrice(spec, input.price) : 0;
    const lots = marketBuy ? 0 : parseLots(spec, input.qty);
    const quoteAmount = marketBuy ? parseQuoteAmount(input.qty) : 0n;
    const factor = quoteUnitsPerTickLot(spec);
    const referencePrice = price > 0 ? price : this.fairTicks(market);
    const value = marketBuy ? quoteAmount : BigInt(referencePrice) * BigInt(lots) * factor;
    if (value < (parseScaled(spec.minTradeUSDT, 8) ?? 0n))
      throw EngineError.of('minNotional', spec.minTradeUSDT);
    const openCount = spot.accounts.get(account.uid)?.openOrders.size ?? 0;
    if (openCount >= MAX_OPEN_SPOT_ORDERS) throw EngineError.of('orderLimit', MAX_OPEN_SPOT_ORDERS);
    if (
      input.clientOid !== null &&
      (state.idByClientOid(account, input.clientOid) !== undefined ||
        this.findOrder(account, null, input.clientOid) !== undefined)
    ) {
      throw EngineError.of('duplicateClientOidV3');
    }
    const buy = input.side === 'buy';
    const frozenCoin = buy ? spec.quoteCoin : spec.baseCoin;
    const required = buy
      ? marketBuy
        ? quoteAmount
        : BigInt(price) * BigInt(lots) * factor
      : BigInt(lots) * baseUnitsPerLot(spec);
    const available = this.trading.available(account, frozenCoin);
    const shortfall = required - (available > 0n ? available : 0n);
    if (shortfall > 0n) {
      if (input.category === 'SPOT') {
        throw EngineError.detailed(
          'insufficientMarginV3',
          `Insufficient balance: the order needs ${formatMoney(required)} ${frozenCoin}, ${formatMoney(available > 0n ? available : 0n)} is available`,
        );
      }
      this.borrowing.checkBorrow(account, frozenCoin, shortfall, ts);
    }

    // Accepted: from here on the order exists.
    const id = state.nextOrderId++;
    const order: SpotOrder = {
      id,
      clientOid: input.clientOid ?? String(id),
      uid: account.uid,
      symbol: spec.symbol,
      category: input.category,
      side: input.side,
      orderType: input.orderType,
      force: input.orderType === 'market' ? 'ioc' : input.force,
      price,
      lots,
      quoteAmount,
      filledLots: 0,
      filledQuote: 0n,
      fee: 0n,
      feeCoin: buy ? spec.baseCoin : spec.quoteCoin,
      stpMode: input.stpMode,
      status: 'live',
      cancelReason: '',
      frozenCoin,
      frozen: 0n,
      cTime: ts,
      uTime: ts,
      resting: null,
    };
    if (shortfall > 0n) this.borrowing.borrow(account, frozenCoin, shortfall, spec.symbol, ts);
    spot.orders.set(id, order);
    if (input.clientOid !== null) account.clientOids.set(input.clientOid, id);
    this.setFrozen(account, order, required);
    spot.accountOf(account.uid).openOrders.add(id);
    this.execute(account, market, order, ts);
    state.version++;
    return order;
  }

  /** Cancels an open order at the trader's request; its reservation is released. */
  cancel(order: SpotOrder, ts: number): void {
    this.finish(order, 'cancelled', 'normal_cancel', ts);
  }

  /** An account's spot order by id (which prevails) or clientOid. */
  findOrder(account: Account, orderId: string | null, clientOid: string | null): SpotOrder | undefined {
    const orders = this.state.spot.orders;
    if (orderId !== null) {
      const order = orders.get(Number(orderId));
      return order?.uid === account.uid ? order : undefined;
    }
    if (clientOid === null) return undefined;
    const named = account.clientOids.get(clientOid);
    const order = orders.get(named ?? Number(clientOid));
    if (order === undefined || order.uid !== account.uid) return undefined;
    return named !== undefined || order.clientOid === clientOid ? order : undefined;
  }

  /** One step of the simulated spot markets; each follows its base coin's index. */
  tick(ts: number): void {
    for (const market of this.state.spot.markets.values()) {
      market.sim.tick(
        market,
        this.fairTicks(market),
        this.state.marketPaused,
        ts,
        (m, side, lots, limit, at) => this.takeLiquidity(m, side, limit, null, lots, at),
      );
    }
    this.state.version++;
  }

  /** Takes every simulated quote off the spot books (the market is paused). */
  withdrawAll(): void {
    for (const market of this.state.spot.markets.values()) market.sim.withdraw(market);
  }

  /** The index of the symbol's base coin in its ticks, or the last trade when it has none. */
  fairTicks(market: SpotMarket): number {
    return spotIndexTicks(this.state, market.spec) ?? market.lastPrice;
  }

  private execute(account: Account, market: SpotMarket, order: SpotOrder, ts: number): void {
    const book = market.book;
    const buy = order.side === 'buy';
    const opposite = buy ? SELL : BUY;
    const limit = order.orderType === 'market' ? this.bandPrice(market, order.side) : order.price;
    const best = book.bestPrice(opposite);
    const crosses = best !== undefined && (buy ? best <= limit : best >= limit);
    if (order.force === 'post_only' && crosses) {
      this.finish(order, 'cancelled', 'post_only_would_take', ts);
      return;
    }
    if (order.force === 'fok' && order.lots > 0) {
      const excluded = order.stpMode === 'none' ? null : account.owner;
      if (book.lotsUpTo(opposite, limit, excluded) < order.lots) {
        this.finish(order, 'cancelled', 'fok_not_filled', ts);
        return;
      }
    }
    if (crosses) this.takeLiquidity(market, order.side, limit, { order, account }, 0, ts);
    if (order.status === 'cancelled') return;
    if (this.complete(market, order)) {
      this.finish(order, 'filled', '', ts);
      return;
    }
    if (order.orderType === 'market' || order.force === 'ioc' || order.force === 'fok') {
      this.finish(
        order,
        'cancelled',
        order.orderType === 'market' ? 'market_no_liquidity' : 'ioc_remainder',
        ts,
      );
      return;
    }
    const resting = newRestingOrder(
      order.id,
      buy ? BUY : SELL,
      order.price,
      order.lots - order.filledLots,
      account.owner,
    );
    order.resting = resting;
    book.add(resting);
  }

  /** Whether nothing of the order is left: all its lots, or a market buy's amount down to less than a lot. */
  private complete(market: SpotMarket, order: SpotOrder): boolean {
    if (order.lots > 0) return order.filledLots === order.lots;
    const left = order.quoteAmount - order.filledQuote;
    return order.filledLots > 0 && left < BigInt(market.lastPrice) * quoteUnitsPerTickLot(market.spec);
  }

  /**
   * Takes liquidity from the opposite side up to `limit` in price-time priority, for an account's
   * order or (taker null) for the simulated crowd wanting `lots`. Returns the lots filled.
   */
  private takeLiquidity(
    market: SpotMarket,
    side: Side,
    limit: number,
    taker: { order: SpotOrder; account: Account } | null,
    lots: number,
    ts: number,
  ): number {
    const book = market.book;
    const opposite = side === 'buy' ? SELL : BUY;
    const factor = quoteUnitsPerTickLot(market.spec);
    const order = taker?.order ?? null;
    const owner = taker?.account.owner ?? MARKET_OWNER;
    let remaining =
      order === null ? lots : order.lots > 0 ? order.lots - order.filledLots : Number.MAX_SAFE_INTEGER;
    let filled = 0;
    while (remaining > 0) {
      const level = book.best(opposite);
      if (level === undefined || (side === 'buy' ? level.price > limit : level.price < limit)) break;
      const maker = level.head;
      if (maker === null) break;
      const makerOrder = maker.owner === MARKET_OWNER ? undefined : this.state.spot.orders.get(maker.id);
      if (order !== null && maker.owner === owner && order.stpMode !== 'none') {
        if (order.stpMode === 'cancel_maker' || order.stpMode === 'cancel_both') {
          if (makerOrder !== undefined) this.finish(makerOrder, 'cancelled', 'stp_cancel_maker', ts);
          else book.remove(maker);
        }
        if (order.stpMode === 'cancel_taker' || order.stpMode === 'cancel_both') {
          this.finish(order, 'cancelled', 'stp_cancel_taker', ts);
          break;
        }
        continue;
      }
      let quantity = Math.min(remaining, maker.remaining);
      if (order !== null && order.lots === 0) {
        const affordable = (order.quoteAmount - order.filledQuote) / (BigInt(level.price) * factor);
        if (BigInt(quantity) > affordable) quantity = Number(affordable);
        if (quantity === 0) break;
      }
      const price = maker.price;
      book.fill(maker, quantity);
      if (makerOrder !== undefined) {
        const makerAccount = this.state.accounts.get(makerOrder.uid);
        if (makerAccount !== undefined)
          this.applyFill(makerAccount, market, makerOrder, quantity, price, true, ts);
        if (maker.remaining === 0) {
          makerOrder.resting = null;
          this.finish(makerOrder, 'filled', '', ts);
        }
      }
      if (taker !== null) this.applyFill(taker.account, market, taker.order, quantity, price, false, ts);
      market.lastPrice = price;
      remaining -= quantity;
      filled += quantity;
    }
    return filled;
  }

  /** Moves the coins of one fill: quote -> base for a buy, base -> quote for a sell, fee in the coin received. */
  private applyFill(
    account: Account,
    market: SpotMarket,
    order: SpotOrder,
    lots: number,
    price: number,
    maker: boolean,
    ts: number,
  ): void {
    const spec = market.spec;
    const factor = quoteUnitsPerTickLot(spec);
    const value = BigInt(price) * BigInt(lots) * factor;
    const base = BigInt(lots) * baseUnitsPerLot(spec);
    const ratePpm = BigInt(maker ? spec.makerFeePpm : spec.takerFeePpm);
    const buy = order.side === 'buy';
    // The reservation of the filled part goes; a buy filled below its limit frees the difference.
    const release = buy ? (order.price > 0 ? BigInt(order.price) * BigInt(lots) * factor : value) : base;
    this.setFrozen(account, order, order.frozen > release ? order.frozen - release : 0n);
    order.filledLots += lots;
    order.filledQuote += value;
    order.uTime = ts;
    const ledger = this.state.ledger;
    const category = order.category;
    const symbol = spec.symbol;
    if (buy) {
      const fee = divRound(base * ratePpm, PPM);
      order.fee += fee;
      ledger.apply(
        account,
        { category, symbol, coin: spec.quoteCoin, type: 'ORDER_DEALT_OUT', amount: -value, fee: 0n },
        ts,
      );
      ledger.apply(
        account,
        { category, symbol, coin: spec.baseCoin, type: 'ORDER_DEALT_IN', amount: base, fee },
        ts,
      );
    } else {
      const fee = divRound(value * ratePpm, PPM);
      order.fee += fee;
      ledger.apply(
        account,
        { category, symbol, coin: spec.baseCoin, type: 'ORDER_DEALT_OUT', amount: -base, fee: 0n },
        ts,
      );
      ledger.apply(
        account,
        { category, symbol, coin: spec.quoteCoin, type: 'ORDER_DEALT_IN', amount: value, fee },
        ts,
      );
    }
    if (order.status === 'live') order.status = 'partially_filled';
    this.borrowing.autoRepay(account, order.feeCoin, symbol, ts);
    this.state.version++;
  }

  /** Ends an order: off the book, reservation released, freed coin repaying what is owed. */
  private finish(order: SpotOrder, status: 'filled' | 'cancelled', reason: string, ts: number): void {
    if (order.status === 'filled' || order.status === 'cancelled') return;
    const market = this.state.spot.markets.get(order.symbol);
    if (order.resting !== null && market !== undefined) market.book.remove(order.resting);
    order.resting = null;
    order.status = status;
    order.cancelReason = reason;
    order.uTime = ts;
    const account = this.state.accounts.get(order.uid);
    this.state.spot.accounts.get(order.uid)?.openOrders.delete(order.id);
    if (account !== undefined) {
      this.setFrozen(account, order, 0n);
      this.borrowing.autoRepay(account, order.frozenCoin, order.symbol, ts);
    }
    this.remember(order);
    this.state.version++;
  }

  private setFrozen(account: Account, order: SpotOrder, amount: bigint): void {
    if (amount === order.frozen) return;
    const coin = order.frozenCoin;
    account.frozen.set(coin, (account.frozen.get(coin) ?? 0n) + amount - order.frozen);
    order.frozen = amount;
  }

  /** Keeps finished orders for look-up, forgetting the oldest beyond the bound. */
  private remember(order: SpotOrder): void {
    const spot = this.state.spot;
    spot.finished.push(order.id);
    if (spot.finished.length <= MAX_FINISHED_SPOT_ORDERS + 1_000) return;
    for (const id of spot.finished.splice(0, spot.finished.length - MAX_FINISHED_SPOT_ORDERS)) {
      const old = spot.orders.get(id);
      spot.orders.delete(id);
      if (old === undefined) continue;
      const account = this.state.accounts.get(old.uid);
      if (account?.clientOids.get(old.clientOid) === id) account.clientOids.delete(old.clientOid);
    }
  }

  /** The worst price a market order may reach: the index +/- the symbol's band. */
  private bandPrice(market: SpotMarket, side: Side): number {
    const fair = BigInt(this.fairTicks(market));
    const band = BigInt(market.spec.priceBandPpm);
    const price = side === 'buy' ? divCeil(fair * (PPM + band), PPM) : (fair * (PPM - band)) / PPM;
    return Math.max(1, Number(price));
  }
}

function scaleError(value: string, scale: number): EngineError {
  return EngineError.of('scaleError', `checkBDScale error value=${value} checkScale=${scale}`);
}

function parsePrice(spec: SpotSymbolSpec, text: string | null): number {
  if (text === null) throw EngineError.of('paramEmpty', 'price');
  const ticks = parseScaled(text, spec.pricePlace);
  if (ticks === null) throw scaleError(text, spec.pricePlace);
  if (ticks <= 0n || ticks > BigInt(Number.MAX_SAFE_INTEGER)) throw EngineError.of('paramError', 'price');
  return Number(ticks);
}

function parseLots(spec: SpotSymbolSpec, text: string): number {
  const lots = parseScaled(text, spec.volumePlace);
  if (lots === null) throw scaleError(text, spec.volumePlace);
  if (lots <= 0n) throw EngineError.of('minSize');
  if (lots > BigInt(spec.maxOrderLots)) {
    throw EngineError.detailed(
      'maxOpenSize',
      `The order size is greater than the max order size of ${spec.symbol}`,
    );
  }
  return Number(lots);
}

/** A market buy's amount in the quote coin, 8 decimals at most. */
function parseQuoteAmount(text: string): bigint {
  const amount = parseScaled(text, 8);
  if (amount === null) throw scaleError(text, 8);
  if (amount <= 0n) throw EngineError.of('minSize');
  return amount;
}
