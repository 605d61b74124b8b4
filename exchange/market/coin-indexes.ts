// The simulated spot index of each base coin, in the quote currency (USD, USDT and USDC are taken at
// par): every contract and spot book of a coin follows its index, so BTCUSDT, BTCUSD and BTCPERP
// move together as on the live exchange, where they all reference one BTC index.
import type { PricePathParams } from './price-path';

export interface CoinIndexProfile {
  /** Starting price in the quote currency. */
  readonly price: string;
  readonly annualVolatility: number;
  readonly burstsPerDay: number;
  readonly burstVolatility: number;
}

/** A gap to the anchor halves in two weeks, as the contracts' own walks did. */
export const INDEX_REVERSION_HALF_LIFE_DAYS = 14;

const PROFILES: Readonly<Record<string, CoinIndexProfile>> = {
  BTC: { price: '95000', annualVolatility: 0.5, burstsPerDay: 3, burstVolatility: 0.004 },
  ETH: { price: '3400', annualVolatility: 0.65, burstsPerDay: 3, burstVolatility: 0.005 },
  SOL: { price: '180', annualVolatility: 0.85, burstsPerDay: 4, burstVolatility: 0.007 },
};

export const INDEX_COINS = Object.keys(PROFILES);

export function coinIndexProfile(coin: string): CoinIndexProfile {
  const profile = PROFILES[coin];
  if (profile === undefined) {
    throw new RangeError(`no simulated index for ${coin}; known: ${INDEX_COINS.join(', ')}`);
  }
  return profile;
}

/** The walk of an index whose price is `anchorUnits` (integer units of 10^-decimals). */
export function indexPath(profile: CoinIndexProfile, anchorUnits: number): PricePathParams {
  return {
    anchorTicks: anchorUnits,
    annualVolatility: profile.annualVolatility,
    reversionHalfLifeDays: INDEX_REVERSION_HALF_LIFE_DAYS,
    burstsPerDay: profile.burstsPerDay,
    burstVolatility: profile.burstVolatility,
  };
}
