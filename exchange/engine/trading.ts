import type {
  HoldSide,
  MarginMode,
  OrderSource,
  OrderType,
  ProductType,
  Side,
  StpMode,
  TimeInForce,
} from '../../shared/api/enums';
import { BUY, SELL, newRestingOrder } from './book/order-book';
import { ticksTimesLots } from './contract-math';
import { EngineError } from './errors';
import { orderIntent, parseOrderLots, parseOrderPrice } from './order-input';
import { divCeil, divRound } from './money';
import { closePosition, openPosition, unrealizedPnl } from './positions';
import { checkDeliveryPhase } from './delivery/delivery-rules';
import { EngineState, MARKET_OWNER, MAX_PUBLIC_FILLS, type Market } from './state';
import type { Account, Order, Position } from './types';
import { checkOrderTier } from './risk/tier-limits';

export const MAX_OPEN_ORDERS = 400;

/** An order as E1 (v2) or E2 (v3) asks for it, after schema validation. */
export interface PlaceOrderInput {
  readonly symbol: string;
  readonly productType: ProductType;
  /** v2 only; v3 uses the contract's margin coin. */
  readonly marginCoin: string | null;
  /** v2 only; v3 uses the symbol's setting. */
  readonly marginMode: MarginMode | null;
  readonly side: Side;
  /** v2 hedge mode. */
  readonly tradeSide: 'open' | 'close' | null;
  /** v3 hedge mode. */
  readonly posSide: HoldSide | null;
  readonly orderType: OrderType;
  readonly force: TimeInForce;
  readonly price: string | null;
  readonly size: string;
  readonly clientOid: string | null;
  readonly reduceOnly: boolean;
  readonly presetStopSurplusPrice: string | null;
  readonly presetStopLossPrice: string | null;
  readonly stpMode: StpMode;
}

type Version = 'v2' | 'v3';

/** An accepted order, and whether it replaced earlier reduce-only orders (E2 rule 4). */
export interface PlacedOrder {
  readonly order: Order;
  readonly replacedEarlier: boolean;
}

/** Lowest and highest trade price of a symbol, ticks. */
export interface TradedRange {
  low: number;
  high: number;
}

/** Order placement, matching and cancellation. */
export class Trading {
  /** Trade prices per symbol since the trigger check last looked, so no crossing goes unseen. */
  private tradedRanges = new Map<string, TradedRange>();
  /** Orders with E1 presets that opened position lots since the trigger check last looked. */
  private presetFills: Order[] = [];

  constructor(private readonly state: EngineState) {}

  /**
   * Validates, reserves margin, matches and rests one order. Throws EngineError before any change.
   * `source` names what placed it when that is the exchange itself (a fired take-profit, ...).
   */
  place(
    account: Account,
    input: PlaceOrderInput,
    version: Version,
    ts: number,
    source?: OrderSource,
  ): PlacedOrder {
    const state = this.state;
    const market = state.market(input.symbol);
    if (market === undefined || market.contract.productType !== input.productType) {
      throw version === 'v2'
        ? EngineError.detailed('symbolNotExistV2', `Parameter symbol ${input.symbol} does not exist`)
        : EngineError.of('symbolNotExistV3', input.symbol);
    }
    const contract = market.contract;
    if (input.marginCoin !== null && input.marginCoin !== contract.marginCoin) {
      throw EngineError.detailed(
        'paramError',
        `Parameter marginCoin error: ${input.symbol} is margined in ${contract.marginCoin}, not ${input.marginCoin}`,
      );
    }
    const lots = parseOrderLots(market, input.size, input.orderType);
    const price = input.orderType === 'limit' ? parseOrderPrice(market, input.price) : 0;
    const referencePrice = price > 0 ? price : market.lastPrice;
    if (!market.math.quoteNotionalAtLeast(referencePrice, lots)) {
      throw EngineError.of('minNotional', contract.minTradeUSDT);
    }
    if (account.openOrders.size >= MAX_OPEN_ORDERS) throw EngineError.of('orderLimit', MAX_OPEN_ORDERS);

    const posMode = account.posModes[contract.productType];
    const { intent, posSide } = orderIntent(input, posMode, version);
    checkDeliveryPhase(state, account, market, input.side, intent, lots);
    const settings = state.settingsFor(account, contract);
    if (input.marginMode !== null && input.marginMode !== settings.marginMode) {
      if (this.hasExposure(account, contract.symbol)) {
        throw EngineError.detailed(
          'paramError',
          `Parameter marginMode error: ${contract.symbol} is in ${settings.marginMode} mode while positions or orders exist; close them or order with marginMode=${settings.marginMode}`,
        );
      }
      settings.marginMode = input.marginMode;
    }
    const holdSide: HoldSide = posSide === 'net' ? (input.side === 'buy' ? 'long' : 'short') : posSide;
    const leverage =
      settings.marginMode === 'crossed'
        ? settings.crossLeverage
        : holdSide === 'long'
          ? settings.longLeverage
          : settings.shortLeverage;

    let replaced: Order[] = [];
    if (intent === 'close') {
      const target = this.closeTargetSide(input.side, posSide);
      const position = state.positions.get(state.positionKeyOf(account.uid, contract.symbol, target));
      if (position === undefined || position.lots === 0) throw EngineError.of('noPositionToClose');
      const locked = this.lockedLots(account, position);
      // E2 rule 4: a one-way reduce-only order for the whole position, or for more than is left,
      // replaces the earlier reduce-only orders of the position.
      const replaces =
        version === 'v3' &&
        posMode === 'one_way_mode' &&
        locked > 0 &&
        lots <= position.lots &&
        (lots === position.lots || lots > position.lots - locked);
      if (replaces) replaced = this.closingOrders(account, position);
      const closable = position.lots - (replaces ? 0 : locked);
      if (lots > closable) {
        throw EngineError.detailed(
          'noPositionToClose',
          `Close size exceeds the available position: ${closable} lots can still be closed`,
        );
      }
    }

    if (input.clientOid !== null && state.idByClientOid(account, input.clientOid) !== undefined) {
      throw EngineError.of(version === 'v2' ? 'duplicateClientOidV2' : 'duplicateClientOidV3');
    }
    const id = state.nextOrderId;
    const clientOid = input.clientOid ?? String(id);

    const order: Order = {
      id,
      clientOid,
      uid: account.uid,
      symbol: contract.symbol,
      productType: contract.productType,
      marginCoin: contract.marginCoin,
      side: input.side,
      posSide,
      intent,
      posMode,
      orderType: input.orderType,
      force: input.orderType === 'market' ? 'ioc' : input.force,
      price,
      lots,
      filledLots: 0,
      filledValue: 0n,
      fee: 0n,
      profit: 0n,
      // reduceOnly is a one-way notion (spec E1); in hedge mode a close order is what reduces.
      reduceOnly: intent === 'close',
      marginMode: settings.marginMode,
      leverage,
      stpMode: input.stpMode,
      status: 'live',
      cancelReason: '',
      source: source ?? (input.orderType === 'market' ? 'market' : 'normal'),
      execType: 'normal',
      apiVersion: version,
      presetTakeProfit: input.presetStopSurplusPrice ?? '',
      presetStopLoss: input.presetStopLossPrice ?? '',
      frozenMargin: 0n,
      openingLots: 0,
      cTime: ts,
      uTime: ts,
      resting: null,
    };
    checkOrderTier(state, account, market, order);
    const required = this.reserveFor(account, market, order);
    if (required > 0n) {
      const available = this.available(account, contract.marginCoin);
      if (required > available) {
        throw version === 'v2' ? EngineError.of('maxOpenSize') : EngineError.of('insufficientMarginV3');
      }
    }

    // Accepted: from here on the order exists.
    for (const earlier of replaced) this.cancel(earlier, 'reduce_only_replaced', ts);
    state.nextOrderId++;
    state.orders.set(id, order);
    // A default clientOid is found through the order itself (idByClientOid), unless an earlier
    // order took the same text as its own: then, as any later order, this one takes it over.
    if (input.clientOid !== null || account.clientOids.has(clientOid))
      state.keepClientOid(account, clientOid, id);
    state.setFrozen(account, order, required);
    this.execute(account, market, order, ts);
    state.version++;
    return { order, replacedEarlier: replaced.length > 0 };
  }

  /** The trade price ranges per symbol since the last call. */
  takeTradedRanges(): Map<string, TradedRange> {
    const ranges = this.tradedRanges;
    this.tradedRanges = new Map();
    return ranges;
  }

  /** Orders with presets that opened position lots since the last call, first fill first. */
  takePresetFills(): Order[] {
    const orders = this.presetFills;
    this.presetFills = [];
    return orders;
  }

  /** Cancels an open order. */
  cancel(order: Order, reason: string, ts: number): void {
    if (order.status === 'filled' || order.status === 'cancelled') return;
    const market = this.state.market(order.symbol);
    if (order.resting !== null && market !== undefined) market.book.remove(order.resting);
    order.resting = null;
    order.cancelReason = reason;
    this.end(order, 'cancelled', ts);
    this.state.version++;
  }

  /**
   * The exchange itself closes `lots` of a position at `price` ticks (liquidation, delivery): an
   * order record filled at once outside the book, paying `feePpm`, whose closing writes a financial
   * record of `recordType`. Returns the order; its `profit` is the realized PnL.
   */
  systemClose(
    account: Account,
    position: Position,
    lots: number,
    price: number,
    execType: 'liquidation' | 'delivery',
    feePpm: number,
    recordType: string,
    ts: number,
  ): Order {
    const state = this.state;
    const market = state.market(position.symbol);
    if (market === undefined) throw new Error(`no market ${position.symbol}`);
    const id = state.nextOrderId++;
    const long = position.holdSide === 'long';
    const fee = market.math.tradeFee(price, lots, feePpm);
    const order: Order = {
      id,
      clientOid: String(id),
      uid: account.uid,
      symbol: position.symbol,
      productType: position.productType,
      marginCoin: position.marginCoin,
      side: long ? 'sell' : 'buy',
      posSide: position.posMode === 'hedge_mode' ? position.holdSide : 'net',
      intent: 'close',
      posMode: position.posMode,
      orderType: 'market',
      force: 'ioc',
      price: 0,
      lots,
      filledLots: lots,
      filledValue: ticksTimesLots(price, lots),
      fee,
      profit: 0n,
      reduceOnly: true,
      marginMode: position.marginMode,
      leverage: position.leverage,
      stpMode: 'none',
      status: 'filled',
      cancelReason: '',
      source:
        execType === 'liquidation' ? 'liquidation' : long ? 'delivery_close_long' : 'delivery_close_short',
      execType,
      apiVersion: 'v2',
      presetTakeProfit: '',
      presetStopLoss: '',
      frozenMargin: 0n,
      openingLots: 0,
      cTime: ts,
      uTime: ts,
      resting: null,
    };
    state.orders.set(id, order);
    order.profit = closePosition(state, account, market, position, lots, price, fee, ts, recordType);
    if (position.lots === 0) this.cancelOrphanedCloses(account, position, order, ts);
    state.finishOrder(order);
    state.version++;
    return order;
  }

  /** Lots a system participant takes from the book (simulated taker flow); returns lots filled. */
  systemTake(market: Market, side: Side, lots: number, limit: number, ts: number): number {
    return this.matchTaker(market, side, lots, limit, MARKET_OWNER, 'none', null, null, ts);
  }

  /** Available balance of a coin: wallet minus margins and reservations, less crossed losses. */
  available(account: Account, coin: string): bigint {
    let available = (account.balances.get(coin) ?? 0n) - (account.frozen.get(coin) ?? 0n);
    let crossedPnl = 0n;
    for (const position of account.positions.values()) {
      if (position.marginCoin !== coin) continue;
      available -= position.margin;
      if (position.marginMode === 'crossed') {
        const market = this.state.market(position.symbol);
        if (market !== undefined) crossedPnl += unrealizedPnl(market, position, market.sim.markPrice);
      }
    }
    return crossedPnl < 0n ? available + crossedPnl : available;
  }

  /** Lots of a position already promised to open closing orders. */
  lockedLots(account: Account, position: Position): number {
    let locked = 0;
    for (const order of this.closingOrders(account, position)) locked += order.lots - order.filledLots;
    return locked;
  }

  /** The open orders that close (part of) a position. */
  private closingOrders(account: Account, position: Position): Order[] {
    const orders: Order[] = [];
    for (const id of account.openOrders) {
      const order = this.state.orders.get(id);
      if (order === undefined || order.symbol !== position.symbol || order.intent !== 'close') continue;
      if (this.closeTargetSide(order.side, order.posSide) === position.holdSide) orders.push(order);
    }
    return orders;
  }

  private hasExposure(account: Account, symbol: string): boolean {
    for (const id of account.openOrders) if (this.state.orders.get(id)?.symbol === symbol) return true;
    for (const side of ['long', 'short'] as const) {
      if (this.state.positions.has(EngineState.positionKey(account.uid, symbol, side))) return true;
    }
    return false;
  }

  /** The position a closing order reduces. */
  private closeTargetSide(side: Side, posSide: HoldSide | 'net'): HoldSide {
    if (posSide !== 'net') return posSide;
    return side === 'buy' ? 'short' : 'long';
  }

  /**
   * The side an order takes on the book. A hedge-mode close trades against its position: v2 names
   * the position by side (E1 rule 3: close long is side=buy), so the side alone does not say it.
   */
  private bookSide(order: Order): Side {
    if (order.intent !== 'close' || order.posSide === 'net') return order.side;
    return order.posSide === 'long' ? 'sell' : 'buy';
  }

  openTargetSide(order: Order): HoldSide {
    if (order.posSide !== 'net') return order.posSide;
    return order.side === 'buy' ? 'long' : 'short';
  }

  /** Margin and fee reserved for the part of an order that may still open a position. */
  private reserveFor(account: Account, market: Market, order: Order): bigint {
    if (order.intent === 'close') return 0n;
    let openable = order.lots - order.filledLots;
    if (order.intent === 'net') {
      const opposite = this.state.positions.get(
        this.state.positionKeyOf(account.uid, order.symbol, order.side === 'buy' ? 'short' : 'long'),
      );
      openable -= opposite?.lots ?? 0;
    }
    if (openable <= 0) return 0n;
    const price = order.price > 0 ? order.price : this.bandPrice(market, order.side);
    return market.math.openingReserve(price, openable, order.leverage, market.contract.takerFeePpm);
  }

  /** The worst price a market order may reach: the fair price +/- the contract's band. */
  private bandPrice(market: Market, side: Side): number {
    const fair = BigInt(market.sim.fairPrice);
    const band = BigInt(market.contract.priceBandPpm);
    const price =
      side === 'buy'
        ? divCeil(fair * (1_000_000n + band), 1_000_000n)
        : (fair * (1_000_000n - band)) / 1_000_000n;
    return Math.max(1, Number(price));
  }

  /** Matches a new order, then rests or cancels what is left according to its time in force. */
  private execute(account: Account, market: Market, order: Order, ts: number): void {
    const book = market.book;
    const side = this.bookSide(order);
    const opposite = side === 'buy' ? SELL : BUY;
    const limit = order.orderType === 'market' ? this.bandPrice(market, side) : order.price;
    const bestOpposite = book.bestPrice(opposite);
    const crosses =
      bestOpposite !== undefined && (side === 'buy' ? bestOpposite <= limit : bestOpposite >= limit);

    if (order.force === 'post_only' && crosses) {
      account.openOrders.add(order.id);
      this.cancel(order, 'post_only_would_take', ts);
      return;
    }
    if (order.force === 'fok') {
      const excluded = order.stpMode === 'none' ? null : account.owner;
      if (book.lotsUpTo(opposite, limit, excluded) < order.lots) {
        account.openOrders.add(order.id);
        this.cancel(order, 'fok_not_filled', ts);
        return;
      }
    }
    account.openOrders.add(order.id);
    if (crosses) {
      this.matchTaker(market, side, order.lots, limit, account.owner, order.stpMode, order, account, ts);
    }
    if (order.status === 'cancelled') return;
    const remaining = order.lots - order.filledLots;
    if (remaining === 0) {
      this.end(order, 'filled', ts);
      return;
    }
    if (order.orderType === 'market' || order.force === 'ioc' || order.force === 'fok') {
      this.cancel(order, order.orderType === 'market' ? 'market_no_liquidity' : 'ioc_remainder', ts);
      return;
    }
    const resting = newRestingOrder(
      order.id,
      side === 'buy' ? BUY : SELL,
      order.price,
      remaining,
      account.owner,
    );
    order.resting = resting;
    book.add(resting);
    // Untouched by matching, the order still needs exactly what place() reserved.
    if (order.filledLots > 0) this.state.setFrozen(account, order, this.reserveFor(account, market, order));
  }

  /**
   * Takes liquidity from the opposite side up to `limit`, in price-time priority. `order` and
   * `account` are null for the simulated market. Returns the lots filled.
   */
  private matchTaker(
    market: Market,
    side: Side,
    lots: number,
    limit: number,
    owner: number,
    stpMode: StpMode,
    order: Order | null,
    account: Account | null,
    ts: number,
  ): number {
    const book = market.book;
    const opposite = side === 'buy' ? SELL : BUY;
    let remaining = lots;
    while (remaining > 0) {
      const level = book.best(opposite);
      if (level === undefined || (side === 'buy' ? level.price > limit : level.price < limit)) break;
      const maker = level.head;
      if (maker === null) break;
      const makerOrder = maker.owner === MARKET_OWNER ? undefined : this.state.orders.get(maker.id);
      if (owner !== MARKET_OWNER && maker.owner === owner && stpMode !== 'none') {
        if (stpMode === 'cancel_maker' || stpMode === 'cancel_both') {
          if (makerOrder !== undefined) this.cancel(makerOrder, 'stp_cancel_maker', ts);
          else book.remove(maker);
        }
        if ((stpMode === 'cancel_taker' || stpMode === 'cancel_both') && order !== null) {
          this.cancel(order, 'stp_cancel_taker', ts);
          return lots - remaining;
        }
        continue;
      }
      let quantity = Math.min(remaining, maker.remaining);
      if (order !== null && order.intent === 'close')
        quantity = Math.min(quantity, this.closeCapacity(order));
      if (quantity === 0) {
        if (order !== null) this.cancel(order, 'position_closed', ts);
        return lots - remaining;
      }
      const makerAccount = makerOrder === undefined ? undefined : this.state.accounts.get(makerOrder.uid);
      if (makerOrder !== undefined && makerOrder.intent === 'close') {
        const capacity = this.closeCapacity(makerOrder);
        if (capacity === 0) {
          this.cancel(makerOrder, 'position_closed', ts);
          continue;
        }
        quantity = Math.min(quantity, capacity);
      }
      const price = maker.price;
      book.fill(maker, quantity);
      if (makerOrder !== undefined && makerAccount !== undefined) {
        this.applyFill(makerAccount, market, makerOrder, quantity, price, true, ts);
        if (maker.remaining === 0) {
          makerOrder.resting = null;
          this.end(makerOrder, 'filled', ts);
        }
      }
      if (order !== null && account !== null)
        this.applyFill(account, market, order, quantity, price, false, ts);
      this.recordPublicFill(market, price, quantity, side, ts);
      remaining -= quantity;
    }
    return lots - remaining;
  }

  private closeCapacity(order: Order): number {
    const target = this.closeTargetSide(order.side, order.posSide);
    const position = this.state.positions.get(this.state.positionKeyOf(order.uid, order.symbol, target));
    return Math.min(order.lots - order.filledLots, position?.lots ?? 0);
  }

  private applyFill(
    account: Account,
    market: Market,
    order: Order,
    lots: number,
    price: number,
    maker: boolean,
    ts: number,
  ): void {
    const state = this.state;
    const math = market.math;
    const fee = math.tradeFee(price, lots, maker ? market.contract.makerFeePpm : market.contract.takerFeePpm);
    order.filledLots += lots;
    order.filledValue += ticksTimesLots(price, lots);
    order.fee += fee;
    order.uTime = ts;
    order.status = order.filledLots === order.lots ? 'filled' : 'partially_filled';

    let closeLots = 0;
    let position: Position | undefined;
    if (order.intent !== 'open') {
      const target = this.closeTargetSide(order.side, order.posSide);
      position = state.positions.get(state.positionKeyOf(account.uid, order.symbol, target));
      closeLots = Math.min(lots, position?.lots ?? 0);
    }
    const openLots = order.intent === 'close' ? 0 : lots - closeLots;
    const closeFee = closeLots === lots ? fee : divRound(fee * BigInt(closeLots), BigInt(lots));
    if (closeLots > 0 && position !== undefined) {
      order.profit += closePosition(state, account, market, position, closeLots, price, closeFee, ts);
      if (position.lots === 0) this.cancelOrphanedCloses(account, position, order, ts);
    }
    if (openLots > 0) {
      if ((order.presetTakeProfit !== '' || order.presetStopLoss !== '') && !this.presetFills.includes(order))
        this.presetFills.push(order);
      openPosition(
        state,
        account,
        market,
        order,
        this.openTargetSide(order),
        openLots,
        price,
        fee - closeFee,
        ts,
      );
    }
    const stillOpen = order.filledLots < order.lots;
    state.setFrozen(account, order, stillOpen ? this.reserveFor(account, market, order) : 0n);
    state.version++;
  }

  /** Closing orders of a position that no longer exists are cancelled, never left to open one. */
  private cancelOrphanedCloses(account: Account, position: Position, current: Order, ts: number): void {
    for (const id of [...account.openOrders]) {
      const order = this.state.orders.get(id);
      if (
        order === undefined ||
        order === current ||
        order.symbol !== position.symbol ||
        order.intent !== 'close'
      ) {
        continue;
      }
      if (this.closeTargetSide(order.side, order.posSide) === position.holdSide) {
        this.cancel(order, 'position_closed', ts);
      }
    }
  }

  /** An order leaves the open orders: its reservation is released and it is kept for look-up. */
  private end(order: Order, status: 'filled' | 'cancelled', ts: number): void {
    order.status = status;
    order.uTime = ts;
    const account = this.state.accounts.get(order.uid);
    if (account !== undefined) {
      this.state.setFrozen(account, order, 0n);
      account.openOrders.delete(order.id);
    }
    this.state.finishOrder(order);
  }

  private recordPublicFill(market: Market, price: number, lots: number, side: Side, ts: number): void {
    market.fills.push({ tradeId: this.state.nextTradeId++, price, lots, side, ts });
    // Trim in chunks so the hot path does not shift the whole array on every fill.
    if (market.fills.length > MAX_PUBLIC_FILLS + 1_000)
      market.fills.splice(0, market.fills.length - MAX_PUBLIC_FILLS);
    market.lastPrice = price;
    market.sim.recordTrade(ts, price, lots);
    const range = this.tradedRanges.get(market.contract.symbol);
    if (range === undefined) this.tradedRanges.set(market.contract.symbol, { low: price, high: price });
    else {
      range.low = Math.min(range.low, price);
      range.high = Math.max(range.high, price);
    }
  }
}
