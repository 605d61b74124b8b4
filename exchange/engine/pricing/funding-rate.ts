// The funding rate of a perpetual contract, from its book against the index, as the live exchange
// publishes it. Rates and premiums are integers of 1e-8 ("rate units") until the settled rate,
// which is written with 6 decimals as the API shows it.
import { BUY, SELL, type OrderBook } from '../book/order-book';
import { linearMoneyFactor, type ContractSpec } from '../contracts';
import { parseMoney } from '../money';

export const RATE_SCALE = 100_000_000;
/** Interest rate I: 0.01% per 8 hours. */
export const INTEREST_RATE = 10_000;
/** The inner clamp of the formula: +-0.05%. */
export const INTEREST_CLAMP = 50_000;
/**
 * Outer cap of the rate. The live caps are per symbol and not listed for every one; the published
 * example (TONUSDT, 4-hour interval) caps at +-0.66%, which the paper exchange applies to all.
 */
export const FUNDING_RATE_CAP = 660_000;
/**
 * Impact notional: the depth-weighted bid and ask prices are the average fills of an order of this
 * value (in the quote coin) against each side of the book.
 */
export const IMPACT_NOTIONAL = parseMoney('1000') as bigint;

const MINUTE_MS = 60_000;

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/**
 * Premium index P, in rate units, sampled once a minute:
 *   P = [max(0, impact bid - index) - max(0, index - impact ask)] / index
 * (https://www.bitget.com/support/articles/12560603824512 "What Are Funding Rates in Bitget Futures
 * Trading?", and https://bitget.zendesk.com/hc/en-us/articles/360053300511 "Bitget Contract Fund
 * Fee": depth-weighted bid and ask prices). An empty side contributes nothing.
 */
export function premiumIndex(book: OrderBook, contract: ContractSpec, indexTicks: number): number {
  const index = BigInt(indexTicks);
  const scale = BigInt(RATE_SCALE);
  let premium = 0n;
  const bid = impactPrice(book, contract, BUY);
  if (bid !== null && bid.ticksLots > index * bid.lots) {
    premium += ((bid.ticksLots - index * bid.lots) * scale) / (bid.lots * index);
  }
  const ask = impactPrice(book, contract, SELL);
  if (ask !== null && ask.ticksLots < index * ask.lots) {
    premium -= ((index * ask.lots - ask.ticksLots) * scale) / (ask.lots * index);
  }
  return Number(premium);
}

/** The average price (ticks x lots over lots) of filling the impact notional against one side. */
function impactPrice(
  book: OrderBook,
  contract: ContractSpec,
  side: typeof BUY | typeof SELL,
): { ticksLots: bigint; lots: bigint } | null {
  // ticks x lots x factor is the quote value in 1e-8 units, for linear and inverse contracts alike.
  const factor = linearMoneyFactor(contract);
  const target = (IMPACT_NOTIONAL + factor - 1n) / factor;
  let ticksLots = 0n;
  let lots = 0n;
  for (const level of book.levels(side)) {
    const price = BigInt(level.price);
    const needed = (target - ticksLots + price - 1n) / price;
    const take = needed < BigInt(level.totalLots) ? needed : BigInt(level.totalLots);
    ticksLots += price * take;
    lots += take;
    if (ticksLots >= target) break;
  }
  return lots === 0n ? null : { ticksLots, lots };
}

/**
 * Funding rate F in rate units, from the average premium index P of the interval:
 *   F = clamp{[P + clamp(I - P, -0.05%, 0.05%)] / (8 / N), min, max}, I = 0.01%, N = interval hours
 * (https://www.bitget.com/support/articles/12560603838070 "Important update on Bitget futures
 * funding rate formula").
 */
export function fundingRateOf(averagePremium: number, intervalHours: number): number {
  if (intervalHours <= 0) return 0;
  const base = averagePremium + clamp(INTEREST_RATE - averagePremium, -INTEREST_CLAMP, INTEREST_CLAMP);
  return clamp(Math.round((base * intervalHours) / 8), -FUNDING_RATE_CAP, FUNDING_RATE_CAP);
}

/** The settled and displayed rate: rate units rounded to the API's 6 decimals (millionths). */
export function settledRatePpm(rate: number): number {
  return Math.round(rate / 100);
}

export interface FundingMeterSnapshot {
  premiumSum: number;
  samples: number;
  lastMinute: number;
}

/** The premium samples of the current funding interval, one a minute, for their average. */
export class FundingMeter {
  constructor(
    private premiumSum = 0,
    private samples = 0,
    private lastMinute = -1,
  ) {}

  static fromSnapshot(snapshot: FundingMeterSnapshot | undefined): FundingMeter {
    return snapshot === undefined
      ? new FundingMeter()
      : new FundingMeter(snapshot.premiumSum, snapshot.samples, snapshot.lastMinute);
  }

  toSnapshot(): FundingMeterSnapshot {
    return { premiumSum: this.premiumSum, samples: this.samples, lastMinute: this.lastMinute };
  }

  /** Whether a sample is due at `ts` (the first tick of each minute). */
  due(ts: number): boolean {
    return Math.floor(ts / MINUTE_MS) > this.lastMinute;
  }

  sample(ts: number, premium: number): void {
    this.lastMinute = Math.floor(ts / MINUTE_MS);
    this.premiumSum += premium;
    this.samples++;
  }

  /** The average premium of the interval; `current` stands in while it holds no sample yet. */
  averagePremium(current: () => number): number {
    return this.samples === 0 ? current() : Math.round(this.premiumSum / this.samples);
  }

  /** A settlement closes the interval. */
  reset(): void {
    this.premiumSum = 0;
    this.samples = 0;
  }
}
