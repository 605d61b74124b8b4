import type { DeliveryStatus, ProductType } from '../../shared/api/enums';
import { BUY, SELL } from './book/order-book';
import { lotSize, tickSize } from './contracts';
import { EngineError } from './errors';
import { formatScaled } from './money';
import { lotsText, priceText } from './positions';
import type { Engine } from './engine';
import type { EngineState, Market } from './state';
import { depthScales, mergeLevels, resolveDepthRequest } from '../market/merge-depth';
import { settledRatePpm } from './pricing/funding-rate';
import { deliveryFields, isDelivered, symbolStatusOf } from './delivery/delivery-schedule';
import { timeWindow } from './time-window';

const DAY_MS = 86_400_000;

/** The public market answers (contracts, tickers, depth, fills) built from the engine's state. */
export class MarketViews {
  private tickerCache = new Map<ProductType, { version: number; clock: number; data: TickerView[] }>();

  constructor(private readonly engine: Engine) {}

  private get state(): EngineState {
    return this.engine.state;
  }

  private marketsOf(productType: ProductType): Market[] {
    // A delivered contract is off: gone from contracts and tickers, as on the live exchange.
    return [...this.state.markets.values()].filter(
      (market) =>
        market.contract.productType === productType && !isDelivered(market.contract, this.state.clock),
    );
  }

  contracts(productType: ProductType, symbol: string | undefined): ContractView[] {
    const markets = this.marketsOf(productType).filter(
      (market) => symbol === undefined || market.contract.symbol === symbol,
    );
    if (symbol !== undefined && markets.length === 0) {
      throw EngineError.detailed(
        'symbolNotExistV2',
        `Parameter symbol ${symbol} does not exist in ${productType}`,
      );
    }
    return markets.map(({ contract }) => ({
      symbol: contract.symbol,
      productType: contract.productType,
      baseCoin: contract.baseCoin,
      quoteCoin: contract.quoteCoin,
      supportMarginCoins: [contract.marginCoin],
      pricePlace: String(contract.pricePlace),
      priceEndStep: String(contract.priceEndStep),
      volumePlace: String(contract.volumePlace),
      sizeMultiplier: lotSize(contract),
      minTradeNum: formatScaled(contract.minTradeLots, contract.volumePlace),
      minTradeUSDT: contract.minTradeUSDT,
      maxLever: String(contract.maxLever),
      minLever: String(contract.minLever),
      makerFeeRate: formatScaled(contract.makerFeePpm, 6),
      takerFeeRate: formatScaled(contract.takerFeePpm, 6),
      fundInterval: String(contract.fundIntervalHours),
      symbolStatus: symbolStatusOf(contract, this.state.clock),
      symbolType: contract.symbolType,
      maxMarketOrderQty: formatScaled(contract.maxMarketOrderLots, contract.volumePlace),
      maxOrderQty: formatScaled(contract.maxOrderLots, contract.volumePlace),
      buyLimitPriceRatio: formatScaled(contract.priceBandPpm, 6),
      sellLimitPriceRatio: formatScaled(contract.priceBandPpm, 6),
      priceMultiplier: tickSize(contract),
      ...deliveryFields(contract, this.state.clock, ''),
    }));
  }

  tickers(productType: ProductType): TickerView[] {
    const cached = this.tickerCache.get(productType);
    if (cached !== undefined && cached.version === this.state.version && cached.clock === this.state.clock) {
      return cached.data;
    }
    const data = this.marketsOf(productType).map((market) => this.ticker(market));
    this.tickerCache.set(productType, { version: this.state.version, clock: this.state.clock, data });
    return data;
  }

  private ticker(market: Market): TickerView {
    const { book, sim, contract } = market;
    const stats = sim.stats.view(this.state.clock);
    const bestBid = book.best(BUY);
    const bestAsk = book.best(SELL);
    const price = (ticks: number) => priceText(market, ticks);
    const last = market.lastPrice;
    const open24h = stats.open24h;
    const openUtc = stats.openUtc;
    // Open interest counts each contract once: the longs held, or the shorts when the simulated
    // market (which holds no positions) is the other side of more of them.
    let longLots = 0;
    let shortLots = 0;
    for (const position of this.state.positions.values()) {
      if (position.symbol !== contract.symbol) continue;
      if (position.holdSide === 'long') longLots += position.lots;
      else shortLots += position.lots;
    }
    const holding = Math.max(longLots, shortLots);
    const quoteVolume = formatScaled(
      stats.quoteVolumeUnits * BigInt(contract.priceEndStep),
      contract.pricePlace + contract.volumePlace,
    );
    return {
      symbol: contract.symbol,
      lastPr: price(last),
      askPr: bestAsk === undefined ? '' : price(bestAsk.price),
      bidPr: bestBid === undefined ? '' : price(bestBid.price),
      bidSz: bestBid === undefined ? '0' : lotsText(market, bestBid.totalLots),
      askSz: bestAsk === undefined ? '0' : lotsText(market, bestAsk.totalLots),
      high24h: price(stats.high24h),
      low24h: price(stats.low24h),
      ts: String(this.state.clock),
      change24h: ratio(last - open24h, open24h),
      baseVolume: lotsText(market, stats.baseVolumeLots),
      quoteVolume,
      usdtVolume: contract.kind === 'inverse' ? quoteVolume : quoteVolume,
      openUtc: price(openUtc),
      changeUtc24h: ratio(last - openUtc, openUtc),
      indexPrice: price(sim.indexPrice),
      fundingRate: formatScaled(settledRatePpm(sim.fundingRate(market)), 6),
      holdingAmount: lotsText(market, holding),
      open24h: price(open24h),
      ...deliveryFields(contract, this.state.clock, null),
      markPrice: price(sim.markPrice),
    };
  }

  mergeDepth(
    symbol: string,
    productType: ProductType,
    precision: 'scale0' | 'scale1' | 'scale2' | 'scale3',
    limit: '1' | '5' | '15' | '50' | 'max' | undefined,
  ): MergeDepthView {
    const market = this.engine.marketFor(symbol, productType);
    const { contract, book } = market;
    const scales = depthScales(contract.pricePlace, contract.priceEndStep);
    const request = resolveDepthRequest(precision, limit, scales.length);
    const mergeTicks = 10 ** request.scaleIndex;
    const side = (bookSide: typeof BUY | typeof SELL, name: 'bids' | 'asks') => {
      const levels: Array<[number, number]> = [];
      for (const level of book.levels(bookSide)) levels.push([level.price, level.totalLots]);
      return mergeLevels(levels, name, mergeTicks, request.maxLevels).map(
        ([price, lots]) =>
          [Number(priceText(market, price)), Number(lotsText(market, lots))] as [number, number],
      );
    };
    return {
      asks: side(SELL, 'asks'),
      bids: side(BUY, 'bids'),
      precision,
      scale: scales[request.scaleIndex] ?? tickSize(contract),
      isMaxPrecision: request.isMaxPrecision,
      ts: String(this.state.clock),
    };
  }

  fillsHistory(
    symbol: string,
    productType: ProductType,
    query: {
      limit: number;
      idLessThan?: string | undefined;
      startTime?: number | undefined;
      endTime?: number | undefined;
    },
  ): FillView[] {
    const market = this.engine.marketFor(symbol, productType);
    const before = query.idLessThan === undefined ? Number.POSITIVE_INFINITY : Number(query.idLessThan);
    const { start, end } = timeWindow(query.startTime, query.endTime, 7 * DAY_MS, this.state.clock);
    const result: FillView[] = [];
    for (let index = market.fills.length - 1; index >= 0 && result.length < query.limit; index--) {
      const fill = market.fills[index];
      if (fill === undefined) break;
      if (fill.tradeId >= before || fill.ts > end) continue;
      if (fill.ts < start) break;
      result.push({
        tradeId: String(fill.tradeId),
        price: priceText(market, fill.price),
        size: lotsText(market, fill.lots),
        side: fill.side === 'buy' ? 'Buy' : 'Sell',
        ts: String(fill.ts),
        symbol: market.contract.symbol,
      });
    }
    return result;
  }
}

function ratio(numerator: number, denominator: number): string {
  if (denominator === 0) return '0';
  return (Math.round((numerator / denominator) * 1e6) / 1e6).toString();
}

export interface ContractView {
  symbol: string;
  productType: ProductType;
  baseCoin: string;
  quoteCoin: string;
  supportMarginCoins: string[];
  pricePlace: string;
  priceEndStep: string;
  volumePlace: string;
  sizeMultiplier: string;
  minTradeNum: string;
  minTradeUSDT: string;
  maxLever: string;
  minLever: string;
  makerFeeRate: string;
  takerFeeRate: string;
  fundInterval: string;
  symbolStatus: string;
  symbolType: 'perpetual' | 'delivery';
  maxMarketOrderQty: string;
  maxOrderQty: string;
  buyLimitPriceRatio: string;
  sellLimitPriceRatio: string;
  priceMultiplier: string;
  deliveryTime: string;
  deliveryStartTime: string;
  deliveryStatus: DeliveryStatus | '';
}

export interface TickerView {
  symbol: string;
  lastPr: string;
  askPr: string;
  bidPr: string;
  bidSz: string;
  askSz: string;
  high24h: string;
  low24h: string;
  ts: string;
  change24h: string;
  baseVolume: string;
  quoteVolume: string;
  usdtVolume: string;
  openUtc: string;
  changeUtc24h: string;
  indexPrice: string;
  fundingRate: string;
  holdingAmount: string;
  open24h: string;
  deliveryStartTime: string | null;
  deliveryTime: string | null;
  deliveryStatus: DeliveryStatus | '';
  markPrice: string;
}

export interface MergeDepthView {
  asks: Array<[number, number]>;
  bids: Array<[number, number]>;
  precision: string;
  scale: string;
  isMaxPrecision: 'YES' | 'NO';
  ts: string;
}

export interface FillView {
  tradeId: string;
  price: string;
  size: string;
  side: string;
  ts: string;
  symbol: string;
}
