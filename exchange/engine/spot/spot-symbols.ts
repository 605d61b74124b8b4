import { MONEY_DECIMALS } from '../money';

/**
 * A spot symbol of the unified account. Prices are integer ticks of 10^-pricePlace of the quote
 * coin, quantities integer lots of 10^-volumePlace of the base coin.
 */
export interface SpotSymbolSpec {
  readonly symbol: string;
  readonly baseCoin: string;
  readonly quoteCoin: string;
  readonly pricePlace: number;
  readonly volumePlace: number;
  /** Smallest order value in the quote coin. */
  readonly minTradeUSDT: string;
  /** Fee rates in millionths (0.1% = 1,000). */
  readonly makerFeePpm: number;
  readonly takerFeePpm: number;
  /** How far from the index a market order may sweep, in millionths (5% = 50,000). */
  readonly priceBandPpm: number;
  /** Largest order, in lots. */
  readonly maxOrderLots: number;
}

// BTCUSDT as in the live spot symbol list (GET /api/v2/spot/public/symbols sample: pricePrecision 2,
// quantityPrecision 6, minTradeUSDT 1, https://www.bitget.com/api-doc/spot/market/Get-Symbols).
// The standard spot fee is 0.1% maker and taker
// (https://www.bitget.com/academy/Fee-Structure-and-Fee-Calculations-on-Bitget).
function spotSymbol(baseCoin: string, pricePlace: number, volumePlace: number, maxOrderLots: number) {
  return {
    symbol: `${baseCoin}USDT`,
    baseCoin,
    quoteCoin: 'USDT',
    pricePlace,
    volumePlace,
    minTradeUSDT: '1',
    makerFeePpm: 1_000,
    takerFeePpm: 1_000,
    priceBandPpm: 50_000,
    maxOrderLots,
  } satisfies SpotSymbolSpec;
}

export const DEFAULT_SPOT_SYMBOLS: readonly SpotSymbolSpec[] = [
  spotSymbol('BTC', 2, 6, 1_000_000_000),
  spotSymbol('ETH', 2, 4, 100_000_000),
  spotSymbol('SOL', 3, 3, 1_000_000_000),
];

/** Money units (1e-8 of the quote coin) of one tick x one lot. */
export function quoteUnitsPerTickLot(spec: SpotSymbolSpec): bigint {
  const exponent = MONEY_DECIMALS - spec.pricePlace - spec.volumePlace;
  if (exponent < 0) throw new Error(`spot symbol ${spec.symbol} is too fine for 8-decimal money`);
  return 10n ** BigInt(exponent);
}

/** Money units (1e-8 of the base coin) of one lot. */
export function baseUnitsPerLot(spec: SpotSymbolSpec): bigint {
  return 10n ** BigInt(MONEY_DECIMALS - spec.volumePlace);
}

export function spotTickSize(spec: SpotSymbolSpec): string {
  return spec.pricePlace === 0 ? '1' : `0.${'1'.padStart(spec.pricePlace, '0')}`;
}

export function spotLotSize(spec: SpotSymbolSpec): string {
  return spec.volumePlace === 0 ? '1' : `0.${'1'.padStart(spec.volumePlace, '0')}`;
}
