// The default simulated market of each listed symbol, written in human units (prices in the quote
// coin, sizes in the base coin) and turned into the contract's ticks and lots on request.
import Big from 'big.js';
import type { PricePathParams } from './price-path';
import type { QuoteLadderParams } from './liquidity';
import type { TakerFlowParams } from './taker-flow';

export interface MarketSetup {
  readonly symbol: string;
  readonly startFairTicks: number;
  /** Anchored at the starting fair price. */
  readonly pricePath: PricePathParams;
  readonly ladder: QuoteLadderParams;
  readonly takerFlow: TakerFlowParams;
}

/** The contract's price tick and size lot as decimal strings, e.g. { tick: '0.1', lot: '0.0001' }. */
export interface ContractGrid {
  readonly tick: string;
  readonly lot: string;
}

interface MarketProfile {
  /** Starting fair price in the quote coin. */
  readonly fairPrice: string;
  readonly annualVolatility: number;
  readonly burstsPerDay: number;
  readonly burstVolatility: number;
  /** Typical gap between the first two quote levels, in the quote coin. */
  readonly firstGap: string;
  /** Typical size at the touch, in the base coin. */
  readonly touchSize: string;
  readonly takerOrdersPerSecond: number;
  /** Smallest (and most common) market order, in the base coin. */
  readonly takerMinSize: string;
  /** Largest market order, in the base coin. */
  readonly takerMaxSize: string;
}

/** A gap to the anchor halves in two weeks: free-looking over a day, bounded over months. */
const REVERSION_HALF_LIFE_DAYS = 14;

const PROFILES = {
  BTCUSDT: {
    fairPrice: '95000',
    annualVolatility: 0.5,
    burstsPerDay: 3,
    burstVolatility: 0.004,
    firstGap: '0.2',
    touchSize: '0.2',
    takerOrdersPerSecond: 4,
    takerMinSize: '0.001',
    takerMaxSize: '3',
  },
  ETHUSDT: {
    fairPrice: '3400',
    annualVolatility: 0.65,
    burstsPerDay: 3,
    burstVolatility: 0.005,
    firstGap: '0.01',
    touchSize: '3',
    takerOrdersPerSecond: 3,
    takerMinSize: '0.02',
    takerMaxSize: '80',
  },
  SOLUSDT: {
    fairPrice: '180',
    annualVolatility: 0.85,
    burstsPerDay: 4,
    burstVolatility: 0.007,
    firstGap: '0.001',
    touchSize: '40',
    takerOrdersPerSecond: 2,
    takerMinSize: '0.3',
    takerMaxSize: '1500',
  },
  BTCUSD: {
    fairPrice: '95000',
    annualVolatility: 0.5,
    burstsPerDay: 3,
    burstVolatility: 0.004,
    firstGap: '0.2',
    touchSize: '0.1',
    takerOrdersPerSecond: 1,
    takerMinSize: '0.001',
    takerMaxSize: '2',
  },
  BTCPERP: {
    fairPrice: '95000',
    annualVolatility: 0.5,
    burstsPerDay: 3,
    burstVolatility: 0.004,
    firstGap: '0.2',
    touchSize: '0.05',
    takerOrdersPerSecond: 0.6,
    takerMinSize: '0.001',
    takerMaxSize: '1',
  },
} as const satisfies Record<string, MarketProfile>;

export type MarketSymbol = keyof typeof PROFILES;

export const MARKET_SYMBOLS = Object.keys(PROFILES) as MarketSymbol[];

export function hasDefaultMarket(symbol: string): symbol is MarketSymbol {
  return Object.hasOwn(PROFILES, symbol);
}

/** The default market of `symbol` in the ticks and lots of a contract with the given grid. */
export function defaultMarketSetup(symbol: string, grid: ContractGrid): MarketSetup {
  if (!hasDefaultMarket(symbol)) {
    throw new RangeError(`no default market for ${symbol}; known: ${MARKET_SYMBOLS.join(', ')}`);
  }
  const profile: MarketProfile = PROFILES[symbol];
  const tick = positiveDecimal(grid.tick, 'tick');
  const lot = positiveDecimal(grid.lot, 'lot');
  const startFairTicks = unitsOf(profile.fairPrice, tick);
  const takerMinLots = unitsOf(profile.takerMinSize, lot);
  return {
    symbol,
    startFairTicks,
    pricePath: {
      anchorTicks: startFairTicks,
      annualVolatility: profile.annualVolatility,
      reversionHalfLifeDays: REVERSION_HALF_LIFE_DAYS,
      burstsPerDay: profile.burstsPerDay,
      burstVolatility: profile.burstVolatility,
    },
    ladder: {
      levelsPerSide: 60,
      minSpreadTicks: 1,
      maxSpreadTicks: 3,
      firstGapTicks: unitsOf(profile.firstGap, tick),
      gapGrowth: 1.08,
      touchLots: unitsOf(profile.touchSize, lot),
      sizeGrowthPerLevel: 0.05,
      sizeDispersion: 0.6,
      wallChance: 0.03,
      wallMultiplier: 6,
    },
    takerFlow: {
      ordersPerSecond: profile.takerOrdersPerSecond,
      minLots: takerMinLots,
      tailIndex: 1.3,
      maxLots: Math.max(takerMinLots, unitsOf(profile.takerMaxSize, lot)),
      momentum: 0.05,
      maxOrdersPerStep: 200,
    },
  };
}

function positiveDecimal(text: string, what: string): Big {
  if (!/^\d+(\.\d+)?$/.test(text) || new Big(text).lte(0)) {
    throw new RangeError(`${what} must be a positive decimal, got "${text}"`);
  }
  return new Big(text);
}

/** How many whole steps make up `amount`, rounded to the nearest and never below one. */
function unitsOf(amount: string, step: Big): number {
  const units = new Big(amount).div(step).round(0, Big.roundHalfUp).toNumber();
  return Math.max(1, units);
}
