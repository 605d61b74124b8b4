import type { ProductType } from '../../shared/api/enums';
import { MONEY_DECIMALS } from './money';

/**
 * A futures contract as the engine sees it. Prices are integers of ticks
 * (tick = priceEndStep x 10^-pricePlace), sizes integers of lots (lot = 10^-volumePlace).
 */
export interface ContractSpec {
  readonly symbol: string;
  readonly productType: ProductType;
  readonly baseCoin: string;
  readonly quoteCoin: string;
  readonly marginCoin: string;
  /** linear: margin and PnL in the quote coin; inverse: in the base coin. */
  readonly kind: 'linear' | 'inverse';
  readonly pricePlace: number;
  readonly priceEndStep: number;
  readonly volumePlace: number;
  /** Minimum order size, in lots. */
  readonly minTradeLots: number;
  /** Minimum order value in the quote coin (minTradeUSDT). */
  readonly minTradeUSDT: string;
  readonly minLever: number;
  readonly maxLever: number;
  /** Fee rates in millionths (0.0002 = 200). */
  readonly makerFeePpm: number;
  readonly takerFeePpm: number;
  readonly fundIntervalHours: number;
  readonly maxMarketOrderLots: number;
  readonly maxOrderLots: number;
  /** How far from the fair price a market order may sweep, in millionths (5% = 50,000). */
  readonly priceBandPpm: number;
  /** A perpetual, or a dated contract that is delivered at `delivery.deliveryTime`. */
  readonly symbolType: 'perpetual' | 'delivery';
  /** Dated contracts only. */
  readonly delivery?: DeliverySchedule;
}

/** The timetable of a dated contract, ms. Each time is at or after the one before it. */
export interface DeliverySchedule {
  /** The end of delivery_config_period: trading starts. */
  readonly launchTime: number;
  /** delivery_before starts: opening positions is refused from here on. */
  readonly limitOpenTime: number;
  /** delivery_period starts: opening, closing and cancelling are refused. */
  readonly deliveryStartTime: number;
  /** Positions are settled at the delivery price and the contract is off. */
  readonly deliveryTime: number;
  /** The perpetual whose index the contract follows and delivers at. */
  readonly underlying: string;
}

function usdtPerp(
  symbol: string,
  baseCoin: string,
  pricePlace: number,
  volumePlace: number,
  maxLever: number,
  maxMarketOrderLots: number,
): ContractSpec {
  return {
    symbol,
    productType: 'USDT-FUTURES',
    baseCoin,
    quoteCoin: 'USDT',
    marginCoin: 'USDT',
    kind: 'linear',
    pricePlace,
    priceEndStep: 1,
    volumePlace,
    minTradeLots: 1,
    minTradeUSDT: '5',
    minLever: 1,
    maxLever,
    makerFeePpm: 200,
    takerFeePpm: 600,
    fundIntervalHours: 8,
    maxMarketOrderLots,
    maxOrderLots: maxMarketOrderLots * 5,
    priceBandPpm: 50_000,
    symbolType: 'perpetual',
  };
}

/** The contracts the paper exchange lists (values of exchange-facts.md where it gives them). */
export const DEFAULT_CONTRACTS: readonly ContractSpec[] = [
  usdtPerp('BTCUSDT', 'BTC', 1, 4, 125, 2_000_000),
  usdtPerp('ETHUSDT', 'ETH', 2, 2, 100, 500_000),
  usdtPerp('SOLUSDT', 'SOL', 3, 1, 100, 1_000_000),
  {
    ...usdtPerp('BTCUSD', 'BTC', 1, 3, 125, 200_000),
    productType: 'COIN-FUTURES',
    quoteCoin: 'USD',
    marginCoin: 'BTC',
    kind: 'inverse',
  },
  {
    ...usdtPerp('BTCPERP', 'BTC', 1, 4, 125, 2_000_000),
    productType: 'USDC-FUTURES',
    quoteCoin: 'USDC',
    marginCoin: 'USDC',
  },
];

/** Decimal places of a price written out (tick x ticks). */
export function priceDecimals(contract: ContractSpec): number {
  return contract.pricePlace;
}

/**
 * Factor that turns ticks x lots into money units (1e-8 of the coin) for a linear contract:
 * priceEndStep x 10^(8 - pricePlace - volumePlace). Contracts are defined so that it is an integer.
 */
export function linearMoneyFactor(contract: ContractSpec): bigint {
  const exponent = MONEY_DECIMALS - contract.pricePlace - contract.volumePlace;
  if (exponent < 0) throw new Error(`contract ${contract.symbol} is too fine for 8-decimal money`);
  return BigInt(contract.priceEndStep) * 10n ** BigInt(exponent);
}

/** Money units (1e-8 coin) of one lot of the base coin, for inverse contracts. */
export function lotMoneyUnits(contract: ContractSpec): bigint {
  return 10n ** BigInt(MONEY_DECIMALS - contract.volumePlace);
}

/** Ticks per whole price unit x priceEndStep: a tick is priceEndStep / 10^pricePlace. */
export function tickSize(contract: ContractSpec): string {
  const ticks = contract.priceEndStep;
  const digits = String(ticks).padStart(contract.pricePlace + 1, '0');
  const whole = digits.slice(0, digits.length - contract.pricePlace);
  const fraction = digits.slice(digits.length - contract.pricePlace);
  return contract.pricePlace === 0 ? whole : `${whole}.${fraction}`;
}

export function lotSize(contract: ContractSpec): string {
  return contract.volumePlace === 0 ? '1' : `0.${'1'.padStart(contract.volumePlace, '0')}`;
}
