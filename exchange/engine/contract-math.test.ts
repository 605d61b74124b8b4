import { describe, expect, it } from 'vitest';
import { ContractMath } from './contract-math';
import { DEFAULT_CONTRACTS } from './contracts';
import { formatMoney } from './money';

const contract = (symbol: string) => {
  const found = DEFAULT_CONTRACTS.find((item) => item.symbol === symbol);
  if (found === undefined) throw new Error(symbol);
  return new ContractMath(found);
};

describe('ContractMath', () => {
  it('values a linear BTCUSDT position: 0.5 BTC at 95,000.1 is 47,500.05 USDT', () => {
    const math = contract('BTCUSDT');
    const value = math.value(950_001, 5_000);
    expect(formatMoney(value)).toBe('47500.05');
    expect(formatMoney(math.fee(value, 600))).toBe('28.50003');
    expect(formatMoney(math.initialMargin(value, 20))).toBe('2375.0025');
  });

  it('computes linear PnL for longs and shorts: 0.5 BTC from 95,000.1 to 96,000.1', () => {
    const math = contract('BTCUSDT');
    const entry = 950_001n * 5_000n;
    expect(formatMoney(math.pnl(entry, 5_000, 960_001, 1))).toBe('500');
    expect(formatMoney(math.pnl(entry, 5_000, 960_001, -1))).toBe('-500');
  });

  it('computes inverse PnL in coin: 1 BTC long from 50,000 to 100,000 earns 0.5 BTC', () => {
    const math = contract('BTCUSD');
    const lots = 1_000; // 1 BTC with 3 size decimals
    const entry = 500_000n * BigInt(lots);
    expect(formatMoney(math.pnl(entry, lots, 1_000_000, 1))).toBe('0.5');
    expect(formatMoney(math.pnl(entry, lots, 1_000_000, -1))).toBe('-0.5');
    expect(formatMoney(math.value(1_000_000, lots))).toBe('1');
  });

  it('checks the minimum notional in the quote coin', () => {
    const math = contract('ETHUSDT');
    // 0.01 ETH at 400.00 = 4 USDT < 5; at 500.00 = 5 USDT.
    expect(math.quoteNotionalAtLeast(40_000, 1, 500_000_000n)).toBe(false);
    expect(math.quoteNotionalAtLeast(50_000, 1, 500_000_000n)).toBe(true);
  });
});

describe('ContractMath safe-integer paths', () => {
  const cases: Array<[number, number]> = [
    [950_001, 5_000],
    [1, 1],
    [950_000, 2],
    [999_999_999, 10_000_000],
    [2 ** 40, 2 ** 20],
    [123_457, 9_999_999],
  ];

  it('reserve, fee and margin match the bigint formulas, above 2^53 too', () => {
    for (const symbol of ['BTCUSDT', 'ETHUSDT', 'BTCUSD']) {
      const math = contract(symbol);
      for (const [ticks, lots] of cases) {
        for (const leverage of [1, 3, 7, 20, 125]) {
          const value = math.value(ticks, lots);
          expect(math.openingReserve(ticks, lots, leverage, 600)).toBe(
            math.initialMargin(value, leverage) + math.fee(value, 600),
          );
          expect(math.marginFor(ticks, lots, leverage)).toBe(math.initialMargin(value, leverage));
        }
        for (const ppm of [0, 200, 600, 1_000_000, 333]) {
          expect(math.tradeFee(ticks, lots, ppm)).toBe(math.fee(math.value(ticks, lots), ppm));
        }
      }
    }
  });

  it('rounds a fee of exactly half a unit away from zero and ceils margins', () => {
    const math = contract('BTCUSDT');
    // 0.0001 BTC at 0.5 (5 ticks) is 0.00005 USDT, 5,000 units; 100 ppm of it is half a unit.
    expect(math.tradeFee(5, 1, 100)).toBe(1n);
    expect(math.tradeFee(5, 1, 99)).toBe(0n);
    expect(math.marginFor(5, 1, 3)).toBe(1_667n);
  });

  it('checks the default minimum notional (5 USDT) exactly at the boundary', () => {
    const math = contract('BTCUSDT');
    // 5 USDT = 0.0001 BTC (1 lot) at 50,000.0 (500,000 ticks).
    expect(math.quoteNotionalAtLeast(500_000, 1)).toBe(true);
    expect(math.quoteNotionalAtLeast(499_999, 1)).toBe(false);
    expect(math.quoteNotionalAtLeast(2 ** 40, 2 ** 20)).toBe(true);
  });
});
