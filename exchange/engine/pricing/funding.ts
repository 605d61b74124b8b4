import { lotMoneyUnits } from '../contracts';
import { EngineError } from '../errors';
import { settledRatePpm } from './funding-rate';
import { divRound } from '../money';
import { direction } from '../positions';
import type { EngineState, Market } from '../state';

export interface FundingSettlement {
  symbol: string;
  /** The settled rate in millionths (0.0001 = 100). */
  ratePpm: number;
  /** Positions that paid or received. */
  positions: number;
}

/** Bill types of the v3 financial records for funding received and paid. */
export const FUNDING_IN = 'CONTRACT_MAIN_SETTLE_FEE_USER_IN';
export const FUNDING_OUT = 'CONTRACT_MAIN_SETTLE_FEE_USER_OUT';

const HOUR_MS = 3_600_000;

/** Whether a contract settles funding (dated delivery contracts do not). */
export function hasFunding(market: Market): boolean {
  return market.contract.fundIntervalHours > 0;
}

/**
 * Settles every market whose funding time (UTC multiples of its interval: 00:00, 08:00, 16:00 for
 * 8 hours) falls after the previous tick and at or before this one. The first tick only starts
 * the clock; an exchange that was stopped over several funding times settles once.
 */
export function settleDueFunding(state: EngineState, ts: number): FundingSettlement[] {
  const previous = state.fundingCheckedTs;
  state.fundingCheckedTs = ts;
  if (previous === 0) return [];
  const settled: FundingSettlement[] = [];
  for (const market of state.markets.values()) {
    if (!hasFunding(market)) continue;
    const interval = market.contract.fundIntervalHours * HOUR_MS;
    if (Math.floor(ts / interval) > Math.floor(previous / interval)) {
      settled.push(settleMarket(state, market, ts));
    }
  }
  return settled;
}

/** Settles one symbol, or every perpetual one, now at its displayed rate (the admin interface). */
export function settleFundingNow(state: EngineState, symbol: string | null, ts: number): FundingSettlement[] {
  let markets: Market[];
  if (symbol === null) markets = [...state.markets.values()].filter(hasFunding);
  else {
    const market = state.market(symbol);
    if (market === undefined)
      throw EngineError.detailed('symbolNotExistV2', `Parameter symbol ${symbol} does not exist`);
    if (!hasFunding(market))
      throw EngineError.detailed('paramError', `Parameter symbol error: ${symbol} settles no funding`);
    markets = [market];
  }
  return markets.map((market) => settleMarket(state, market, ts));
}

/**
 * Every open position of the symbol pays or receives rate x position value at the mark price;
 * a positive rate means longs pay shorts
 * (https://bitget.zendesk.com/hc/en-us/articles/360053300511 "Bitget Contract Fund Fee":
 * fund fee = fund rate x position value; USDT-margined value = contracts x mark, inverse value =
 * face value x contracts / mark). Isolated positions pay from their margin, and never more than it
 * holds (https://www.bitget.com/en/support/articles/360059301491 "Bitget Coin-M Futures: Funding
 * Fee": "deducted from the fixed margin of the user's position ... the excess will not be
 * charged"); crossed positions pay from the balance.
 */
function settleMarket(state: EngineState, market: Market, ts: number): FundingSettlement {
  const ratePpm = settledRatePpm(market.sim.fundingRate(market));
  const contract = market.contract;
  const mark = market.sim.markPrice;
  let positions = 0;
  for (const position of state.positions.values()) {
    if (position.symbol !== contract.symbol || position.lots === 0) continue;
    // Inverse: the position's face value in the quote currency (entry ticks x lots) over the mark.
    const value =
      contract.kind === 'inverse'
        ? divRound(position.openValue * lotMoneyUnits(contract), BigInt(mark))
        : market.math.value(mark, position.lots);
    let change = -BigInt(direction(position.holdSide)) * divRound(value * BigInt(ratePpm), 1_000_000n);
    if (position.marginMode === 'isolated' && -change > position.margin) change = -position.margin;
    const account = state.accounts.get(position.uid);
    if (change === 0n || account === undefined) continue;
    if (position.marginMode === 'isolated') position.margin += change;
    position.fundingFee = (position.fundingFee ?? 0n) + change;
    state.ledger.applyForContract(
      account,
      contract,
      { type: change > 0n ? FUNDING_IN : FUNDING_OUT, amount: change, fee: 0n },
      ts,
    );
    positions++;
  }
  market.sim.funding.reset();
  state.version++;
  return { symbol: contract.symbol, ratePpm, positions };
}
