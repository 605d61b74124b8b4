import type { EngineState } from '../state';
import type { SpotSymbolSpec } from './spot-symbols';

/**
 * The index price of a spot symbol's base coin, in the spot symbol's ticks. Until there is one
 * index per base coin, it is the fair price of the coin's USDT perpetual; this is the one place
 * to switch.
 */
export function spotIndexTicks(state: EngineState, spec: SpotSymbolSpec): number | undefined {
  const perpetual = state.market(`${spec.baseCoin}USDT`);
  if (perpetual === undefined) return undefined;
  const units = BigInt(perpetual.sim.indexPrice) * BigInt(perpetual.contract.priceEndStep);
  const shift = spec.pricePlace - perpetual.contract.pricePlace;
  const ticks = shift >= 0 ? units * 10n ** BigInt(shift) : units / 10n ** BigInt(-shift);
  return Number(ticks);
}
