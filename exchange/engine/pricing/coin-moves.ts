import type { Engine } from '../engine';
import { unitsPerTick } from './price-index';
import type { Market } from '../state';

/**
 * An administrator's price move of one symbol moves its whole coin: the coin's index goes to that
 * price, the symbol's index, fair and mark prices to exactly `ticks`, and every other market of
 * the coin to the new index in its own ticks.
 */
export function moveCoinTo(engine: Engine, market: Market, ticks: number, ts: number): void {
  const index = engine.state.indices.get(market.contract.baseCoin);
  if (index === undefined) {
    market.sim.moveTo(engine, market, ticks, ts);
    return;
  }
  index.moveTo(ticks * unitsPerTick(market.contract));
  for (const other of engine.state.markets.values()) {
    if (other.contract.baseCoin !== market.contract.baseCoin) continue;
    other.sim.moveTo(engine, other, other === market ? ticks : index.ticksFor(other.contract), ts);
  }
}
