import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTRACTS, type ContractSpec } from '../contracts';
import { formatMoney, MONEY_SCALE } from '../money';
import { tierTableOf, tiersOf } from './position-tiers';

const contract = (symbol: string): ContractSpec => {
  const found = DEFAULT_CONTRACTS.find((item) => item.symbol === symbol);
  if (found === undefined) throw new Error(symbol);
  return found;
};
const usdt = (whole: number) => BigInt(whole) * MONEY_SCALE;

describe('position tiers', () => {
  it('charges each slice its own tier rate plus the taker fee (the published 330,000 USDT example)', () => {
    const table = tierTableOf(contract('BTCUSDT'));
    // 200,000 x (0.40% + 0.06%) + 130,000 x (0.50% + 0.06%) = 920 + 728
    expect(formatMoney(table.maintenance(usdt(330_000)))).toBe('1648');
    // 200,000 x 0.46% = 920, the bound itself still in tier 1
    expect(formatMoney(table.maintenance(usdt(200_000)))).toBe('920');
    expect(table.tier(table.indexOf(usdt(200_000))).level).toBe(1);
    expect(table.tier(table.indexOf(usdt(200_001))).level).toBe(2);
    // offset of tier 2: 200,000 x (0.56% - 0.46%) = 200; MM = 330,000 x 0.56% - 200 = 1,648
    expect(table.offsetScaled(1)).toBe(usdt(200) * 1_000_000n);
  });

  it('limits the position value a leverage may hold', () => {
    const table = tierTableOf(contract('BTCUSDT'));
    expect(table.maxValueFor(125)).toBe(usdt(200_000));
    expect(table.maxValueFor(101)).toBe(usdt(200_000));
    expect(table.maxValueFor(100)).toBe(usdt(1_000_000));
    expect(table.maxValueFor(1)).toBe(usdt(1_200_000_000));
    expect(table.maxValueFor(126)).toBe(-1n);
  });

  it('has a table for every listed contract, coin-margined ones in coin', () => {
    for (const listed of DEFAULT_CONTRACTS) {
      const tiers = tiersOf(listed);
      expect(tiers[0]?.maxLeverage).toBe(listed.maxLever);
      expect(tiers[0]?.lower).toBe(0n);
    }
    expect(tiersOf(contract('ETHUSDT'))[0]).toMatchObject({ upper: usdt(1_000_000), mmrPpm: 5_000 });
    // BTCUSD: BTCUSDT's bounds at 100,000 USD per BTC, so tier 1 ends at 2 BTC.
    expect(tiersOf(contract('BTCUSD'))[0]).toMatchObject({ upper: usdt(2), maxLeverage: 125, mmrPpm: 4_000 });
  });

  it('falls back to the base coin for a contract listed later', () => {
    const dated: ContractSpec = { ...contract('BTCUSDT'), symbol: 'BTCUSDT260327', maxLever: 100 };
    const tiers = tiersOf(dated);
    expect(tiers.map((tier) => tier.mmrPpm)).toEqual(tiersOf(contract('BTCUSDT')).map((tier) => tier.mmrPpm));
    // Capped at the contract's own maximum.
    expect(tiers[0]?.maxLeverage).toBe(100);
    const other: ContractSpec = { ...contract('SOLUSDT'), symbol: 'XRPUSDT', baseCoin: 'XRP' };
    expect(tiersOf(other)[0]).toMatchObject({ upper: usdt(200_000), maxLeverage: 100, mmrPpm: 5_000 });
  });
});
