import { describe, expect, it } from 'vitest';
import { newRestingOrder, BUY, SELL, OrderBook, type BookSide } from '../book/order-book';
import { DEFAULT_CONTRACTS, type ContractSpec } from '../contracts';
import { FundingMeter, fundingRateOf, premiumIndex, settledRatePpm } from './funding-rate';

const BTCUSDT = DEFAULT_CONTRACTS.find((contract) => contract.symbol === 'BTCUSDT') as ContractSpec;

function book(levels: Array<[BookSide, number, number]>): OrderBook {
  const result = new OrderBook();
  levels.forEach(([side, price, lots], id) => result.add(newRestingOrder(id + 1, side, price, lots, 1)));
  return result;
}

describe('fundingRateOf: F = clamp{[P + clamp(I - P, -0.05%, 0.05%)] / (8 / N), cap}', () => {
  it.each([
    // [average premium, interval hours, rate], all in 1e-8.
    [0, 8, 10_000], // 0 + clamp(0.01%) = 0.01%
    [30_000, 8, 10_000], // 0.03% + clamp(-0.02%) = 0.01%
    [80_000, 8, 30_000], // 0.08% + clamp(-0.07% -> -0.05%) = 0.03%
    [-100_000, 8, -50_000], // -0.1% + clamp(0.11% -> 0.05%) = -0.05%
    [80_000, 4, 15_000], // 0.03% / (8 / 4)
    [-1_000_000, 8, -660_000], // -1% + 0.05% = -0.95%, capped at -0.66%
    [2_000_000, 8, 660_000],
  ])('P = %i over %i h gives %i', (premium, hours, rate) => {
    expect(fundingRateOf(premium, hours)).toBe(rate);
  });

  it('is zero for a contract without funding intervals', () => {
    expect(fundingRateOf(80_000, 0)).toBe(0);
  });

  it('settles and shows 6 decimals', () => {
    expect(settledRatePpm(10_000)).toBe(100);
    expect(settledRatePpm(-83_333)).toBe(-833);
  });
});

describe('premiumIndex: [max(0, impact bid - index) - max(0, index - impact ask)] / index', () => {
  // BTCUSDT ticks are 0.1 and lots 0.0001 BTC; the impact notional is 1,000 USDT.
  it('is zero when the book straddles the index', () => {
    expect(
      premiumIndex(
        book([
          [BUY, 999_900, 10_000],
          [SELL, 1_000_100, 10_000],
        ]),
        BTCUSDT,
        1_000_000,
      ),
    ).toBe(0);
  });

  it('is positive when the bids stand above the index', () => {
    // Impact bid 100,100 over index 100,000: +0.1% = 100,000 in 1e-8.
    expect(premiumIndex(book([[BUY, 1_001_000, 10_000]]), BTCUSDT, 1_000_000)).toBe(100_000);
  });

  it('averages the depth an impact order takes', () => {
    // 1,000 USDT sells 0.002 BTC at 101,000 (202 USDT), then the lots that cover the other 798 USDT
    // at 100,500: ceil(798 / 100.5 / 0.0001) = 80 lots, 0.008 BTC (804 USDT). Impact bid =
    // (202 + 804) / 0.01 = 100,600: +0.6% over the index, 600,000 in 1e-8.
    const depth = book([
      [BUY, 1_010_000, 20],
      [BUY, 1_005_000, 10_000],
    ]);
    expect(premiumIndex(depth, BTCUSDT, 1_000_000)).toBe(600_000);
  });

  it('is negative when the asks stand under the index', () => {
    expect(premiumIndex(book([[SELL, 998_000, 10_000]]), BTCUSDT, 1_000_000)).toBe(-200_000);
  });
});

describe('FundingMeter', () => {
  it('samples once a minute and averages the interval', () => {
    const meter = new FundingMeter();
    expect(meter.averagePremium(() => 7)).toBe(7);
    meter.sample(60_000, -200_000);
    expect(meter.due(119_999)).toBe(false);
    expect(meter.due(120_000)).toBe(true);
    meter.sample(120_000, 0);
    expect(meter.averagePremium(() => 7)).toBe(-100_000);
    meter.reset();
    expect(meter.averagePremium(() => 7)).toBe(7);
  });
});
