import type { ProductType, RecordCategory } from '../../shared/api/enums';
import { EngineError } from './errors';
import { formatMoney, formatScaled } from './money';
import { averagePrice, lotsText, priceText, unrealizedPnl } from './positions';
import type { Engine } from './engine';
import { EngineState, type Market } from './state';
import type { Account, FinancialRecord, Order, Position, TriggerPlan } from './types';
import type {
  CurrentPosition,
  FinancialRecordsPage,
  HistoryPositionPage,
  OrderDetail,
  PendingOrder,
  SubaccountFutureAsset,
} from '../../shared/api/endpoints';
import { maxTransferableView, spotOrderInfo } from './spot/spot-views';
import { breakEvenTicksLots, RiskCalculator, ticksText } from './risk/position-risk';
import { timeWindow } from './time-window';

const DAY_MS = 86_400_000;

/** The account answers of the API (positions, orders, records, assets), from the engine's state. */
export class Views {
  private readonly risk: RiskCalculator;

  constructor(private readonly engine: Engine) {
    this.risk = new RiskCalculator(engine.state);
  }

  private get state(): EngineState {
    return this.engine.state;
  }

  allPositions(account: Account, productType: ProductType, marginCoin: string | undefined): PositionView[] {
    return this.state
      .positionsOf(account.uid)
      .filter((position) => position.productType === productType)
      .filter((position) => marginCoin === undefined || position.marginCoin === marginCoin)
      .map((position) => this.position(account, position));
  }

  private position(account: Account, position: Position): PositionView {
    const market = this.state.market(position.symbol) as Market;
    const mark = market.sim.markPrice;
    const pnl = unrealizedPnl(market, position, mark);
    const locked = this.engine.trading.lockedLots(account, position);
    let openDelegate = 0;
    for (const id of account.openOrders) {
      const order = this.state.orders.get(id);
      if (order === undefined || order.symbol !== position.symbol || order.intent === 'close') continue;
      const opens = order.posSide === 'net' ? (order.side === 'buy' ? 'long' : 'short') : order.posSide;
      if (opens === position.holdSide) openDelegate += order.lots - order.filledLots;
    }
    const takeProfit = this.planOf(position, 'pos_profit');
    const stopLoss = this.planOf(position, 'pos_loss');
    const risk = this.risk.positionRisk(account, position);
    return {
      symbol: position.symbol,
      marginCoin: position.marginCoin,
      holdSide: position.holdSide,
      openDelegateSize: lotsText(market, openDelegate),
      marginSize: formatMoney(position.margin),
      available: lotsText(market, position.lots - locked),
      locked: lotsText(market, locked),
      total: lotsText(market, position.lots),
      leverage: String(position.leverage),
      achievedProfits: formatMoney(position.achievedProfits),
      openPriceAvg: averagePrice(market, position.openValue, position.lots),
      marginMode: position.marginMode,
      posMode: position.posMode,
      unrealizedPL: formatMoney(pnl),
      liquidationPrice: ticksText(market, risk.liquidationTicks),
      keepMarginRate: formatScaled(risk.keepMarginRatePpm, 6),
      markPrice: priceText(market, mark),
      marginRatio: risk.marginRatio,
      breakEvenPrice: averagePrice(market, breakEvenTicksLots(market, position), position.lots),
      totalFee: position.fundingFee === null ? '' : formatMoney(position.fundingFee),
      deductedFee: formatMoney(position.deductedFee),
      takeProfit: takeProfit === undefined ? '' : priceText(market, takeProfit.triggerPrice),
      stopLoss: stopLoss === undefined ? '' : priceText(market, stopLoss.triggerPrice),
      takeProfitId: takeProfit === undefined ? '' : String(takeProfit.id),
      stopLossId: stopLoss === undefined ? '' : String(stopLoss.id),
      assetMode: 'single',
      cTime: String(position.cTime),
      uTime: String(position.uTime),
    };
  }

  private planOf(position: Position, kind: TriggerPlan['kind']): TriggerPlan | undefined {
    for (const plan of this.state.plans.ofSymbol(position.symbol)) {
      if (plan.uid === position.uid && plan.holdSide === position.holdSide && plan.kind === kind) {
        return plan;
      }
    }
    return undefined;
  }

  historyPositions(
    account: Account,
    query: {
      symbol?: string | undefined;
      productType: ProductType;
      idLessThan?: string | undefined;
      startTime?: number | undefined;
      endTime?: number | undefined;
      limit: number;
    },
  ): HistoryPositionPage {
    const { start, end } = timeWindow(query.startTime, query.endTime, 90 * DAY_MS, this.state.clock);
    const before = query.idLessThan === undefined ? Number.POSITIVE_INFINITY : Number(query.idLessThan);
    const list: HistoryPositionPage['list'] = [];
    const history = account.historyPositions;
    for (let index = history.length - 1; index >= 0 && list.length < query.limit; index--) {
      const item = history[index];
      if (item === undefined) break;
      if (query.symbol !== undefined ? item.symbol !== query.symbol : item.productType !== query.productType)
        continue;
      if (Number(item.positionId) >= before || item.uTime > end || item.uTime < start) continue;
      const { productType: _productType, cTime, uTime, ...rest } = item;
      list.push({ ...rest, cTime: String(cTime), uTime: String(uTime) });
    }
    const last = list[list.length - 1];
    return { list, endId: last === undefined ? '' : last.positionId };
  }

  pendingOrders(
    account: Account,
    query: {
      productType: ProductType;
      orderId?: string | undefined;
      clientOid?: string | undefined;
      symbol?: string | undefined;
      status?: 'live' | 'partially_filled' | undefined;
      idLessThan?: string | undefined;
      startTime?: number | undefined;
      endTime?: number | undefined;
      limit: number;
    },
  ): { entrustedList: PendingOrderView[] | null; endId: string } {
    const status = query.status ?? 'live';
    const { start, end } = timeWindow(query.startTime, query.endTime, 90 * DAY_MS, this.state.clock);
    const before = query.idLessThan === undefined ? Number.POSITIVE_INFINITY : Number(query.idLessThan);
    let wanted: number | undefined;
    if (query.orderId !== undefined) wanted = Number(query.orderId);
    else if (query.clientOid !== undefined) wanted = this.state.idByClientOid(account, query.clientOid) ?? -1;
    const orders = [...account.openOrders]
      .map((id) => this.state.orders.get(id))
      .filter((order): order is Order => order !== undefined)
      .filter((order) => order.productType === query.productType && order.status === status)
      .filter((order) => query.symbol === undefined || order.symbol === query.symbol)
      .filter((order) => wanted === undefined || order.id === wanted)
      .filter((order) => order.id < before && order.cTime >= start && order.cTime <= end)
      .sort((a, b) => b.id - a.id)
      .slice(0, query.limit);
    const list = orders.map((order) => this.pendingOrder(order));
    const last = orders[orders.length - 1];
    return {
      entrustedList: list.length === 0 ? null : list,
      endId: last === undefined ? '' : String(last.id),
    };
  }

  private pendingOrder(order: Order): PendingOrderView {
    const market = this.state.market(order.symbol) as Market;
    const live = order.status === 'live';
    return {
      symbol: order.symbol,
      size: lotsText(market, order.lots),
      orderId: String(order.id),
      clientOid: order.clientOid,
      baseVolume: lotsText(market, order.filledLots),
      fee: formatMoney(-order.fee),
      price: order.price === 0 ? '' : priceText(market, order.price),
      priceAvg: live ? '' : averagePrice(market, order.filledValue, order.filledLots),
      status: order.status === 'partially_filled' ? 'partially_filled' : 'live',
      side: order.side,
      force: order.force,
      totalProfits: live ? '' : formatMoney(order.profit),
      posSide: order.posSide,
      marginCoin: order.marginCoin,
      quoteVolume: formatScaled(
        order.filledValue * BigInt(market.contract.priceEndStep),
        market.contract.pricePlace + market.contract.volumePlace,
      ),
      leverage: String(order.leverage),
      marginMode: order.marginMode,
      reduceOnly: order.reduceOnly ? 'YES' : 'NO',
      enterPointSource: order.execType === 'normal' ? 'API' : 'SYS',
      tradeSide: reportedTradeSide(order),
      posMode: order.posMode,
      orderType: order.orderType,
      orderSource: order.source,
      cTime: String(order.cTime),
      uTime: String(order.uTime),
      presetStopSurplusPrice: order.presetTakeProfit,
      presetStopSurplusType: order.presetTakeProfit === '' ? '' : 'fill_price',
      presetStopSurplusExecutePrice: '',
      presetStopLossPrice: order.presetStopLoss,
      presetStopLossType: order.presetStopLoss === '' ? '' : 'fill_price',
      presetStopLossExecutePrice: '',
    };
  }

  orderInfo(account: Account, orderId: string | undefined, clientOid: string | undefined): OrderInfoView {
    const spotOrder = spotOrderInfo(this.engine, account, orderId, clientOid);
    if (spotOrder !== undefined) return spotOrder;
    const order = this.engine.findOrder(account, orderId ?? null, clientOid ?? null);
    if (order === undefined) throw EngineError.of('orderNotExistV3');
    const market = this.state.market(order.symbol) as Market;
    return {
      orderId: String(order.id),
      clientOid: order.clientOid,
      category: order.productType,
      symbol: order.symbol,
      orderType: order.orderType,
      side: order.side,
      price: order.price === 0 ? '' : priceText(market, order.price),
      qty: lotsText(market, order.lots),
      amount:
        order.price === 0
          ? ''
          : formatScaled(
              BigInt(order.price) * BigInt(order.lots) * BigInt(market.contract.priceEndStep),
              market.contract.pricePlace + market.contract.volumePlace,
            ),
      cumExecQty: lotsText(market, order.filledLots),
      cumExecValue: formatScaled(
        order.filledValue * BigInt(market.contract.priceEndStep),
        market.contract.pricePlace + market.contract.volumePlace,
      ),
      avgPrice: order.filledLots === 0 ? '' : averagePrice(market, order.filledValue, order.filledLots),
      timeInForce: order.force,
      orderStatus: order.status,
      posSide: order.posSide === 'net' ? '' : order.posSide,
      holdMode: order.posMode,
      tradeSide: order.intent === 'close' ? 'close' : 'open',
      stpMode: order.stpMode,
      reduceOnly: order.reduceOnly ? 'YES' : 'NO',
      feeDetail: [{ feeCoin: order.marginCoin, fee: formatMoney(-order.fee) }],
      cancelReason: order.cancelReason,
      execType: order.execType,
      createdTime: String(order.cTime),
      updatedTime: String(order.uTime),
    };
  }

  financialRecords(
    account: Account,
    query: {
      category: RecordCategory;
      coin?: string | undefined;
      type?: string | undefined;
      startTime?: number | undefined;
      endTime?: number | undefined;
      limit: number;
      cursor?: string | undefined;
    },
  ): FinancialRecordsPage {
    const { start, end } = timeWindow(query.startTime, query.endTime, 30 * DAY_MS, this.state.clock);
    const before = query.cursor === undefined ? Number.POSITIVE_INFINITY : Number(query.cursor);
    const list: FinancialRecord[] = [];
    const records = account.records;
    for (let index = records.length - 1; index >= 0 && list.length < query.limit; index--) {
      const record = records[index];
      if (record === undefined) break;
      if (record.id >= before || record.ts > end) continue;
      if (record.ts < start) break;
      if (record.category !== query.category) continue;
      if (query.coin !== undefined && record.coin !== query.coin) continue;
      if (query.type !== undefined && record.type !== query.type) continue;
      list.push(record);
    }
    const last = list[list.length - 1];
    return {
      list: list.map((record) => ({
        category: record.category,
        id: String(record.id),
        symbol: record.symbol,
        coin: record.coin,
        type: record.type,
        amount: formatMoney(record.amount),
        fee: formatMoney(record.fee),
        balance: formatMoney(record.balance),
        ts: String(record.ts),
      })),
      cursor: last === undefined ? '' : String(last.id),
    };
  }

  maxTransferable(
    account: Account,
    coin: string,
  ): { coin: string; maxTransfer: string; borrowMaxTransfer: string } {
    return maxTransferableView(this.engine, account, coin);
  }

  futureAssets(account: Account, productType: ProductType): FutureAssetView[] {
    const coins =
      productType === 'USDT-FUTURES' ? ['USDT'] : productType === 'USDC-FUTURES' ? ['USDC'] : ['BTC', 'ETH'];
    return coins
      .filter((coin) => productType !== 'COIN-FUTURES' || coin === 'BTC' || account.balances.has(coin))
      .map((coin) => {
        const balance = account.balances.get(coin) ?? 0n;
        let pnl = 0n;
        let margin = 0n;
        for (const position of account.positions.values()) {
          if (position.marginCoin !== coin) continue;
          const market = this.state.market(position.symbol) as Market;
          pnl += unrealizedPnl(market, position, market.sim.markPrice);
          margin += position.margin;
        }
        const available = this.engine.trading.available(account, coin);
        // The wallet splits into available, locked (position margin) and frozen (open orders);
        // an unrealized loss lowers what can be moved, never what is frozen.
        const frozen = account.frozen.get(coin) ?? 0n;
        const equity = balance + pnl;
        const usdt = coin === 'USDT' || coin === 'USDC' ? equity : this.toUsdt(coin, equity);
        return {
          marginCoin: coin,
          available: formatMoney(balance - margin - frozen),
          frozen: formatMoney(frozen),
          locked: formatMoney(margin),
          crossedMaxAvailable: formatMoney(available > 0n ? available : 0n),
          isolatedMaxAvailable: formatMoney(available > 0n ? available : 0n),
          maxTransferOut: formatMoney(available > 0n ? available : 0n),
          accountEquity: formatMoney(equity),
          usdtEquity: formatMoney(usdt),
          btcEquity: formatMoney(this.toBtc(usdt)),
          unrealizedPL: formatMoney(pnl),
          uTime: String(this.state.clock),
        };
      });
  }

  private btcPriceMoney(): bigint {
    const market = this.state.market('BTCUSDT');
    if (market === undefined) return 0n;
    // Price of 1 BTC in 1e-8 USDT.
    return (
      BigInt(market.sim.markPrice * market.contract.priceEndStep) *
      10n ** BigInt(8 - market.contract.pricePlace)
    );
  }

  private toUsdt(coin: string, amount: bigint): bigint {
    if (coin !== 'BTC') return 0n;
    return (amount * this.btcPriceMoney()) / 100_000_000n;
  }

  private toBtc(usdt: bigint): bigint {
    const price = this.btcPriceMoney();
    return price === 0n ? 0n : (usdt * 100_000_000n) / price;
  }

  positionKey(uid: string, symbol: string, holdSide: string): string {
    return EngineState.positionKey(uid, symbol, holdSide);
  }
}

function reportedTradeSide(order: Order): string {
  if (order.execType !== 'normal') {
    // The spec's trade sides of exchange-made closes: burst_* for liquidation, delivery_* for delivery.
    const prefix = order.execType === 'liquidation' ? 'burst' : 'delivery';
    if (order.posMode === 'one_way_mode') return `${prefix}_${order.side}_single`;
    return `${prefix}_close_${order.side === 'sell' ? 'long' : 'short'}`;
  }
  if (order.posMode === 'one_way_mode') return order.side === 'buy' ? 'buy_single' : 'sell_single';
  return order.intent === 'close' ? 'close' : 'open';
}

export type PositionView = CurrentPosition;
export type PendingOrderView = PendingOrder;
export type OrderInfoView = OrderDetail;
export type FutureAssetView = SubaccountFutureAsset;
