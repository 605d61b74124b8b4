import { divRound } from '../money';
import type { EngineState } from '../state';
import type { SpotSymbolSpec } from './spot-symbols';

/** The index of a spot symbol's base coin (the one every contract of the coin follows), in its ticks. */
export function spotIndexTicks(state: EngineState, spec: SpotSymbolSpec): number | undefined {
  const index = state.indices.get(spec.baseCoin);
  if (index === undefined) return undefined;
  const { units, decimals } = index.price;
  // units x 10^-decimals of the quote coin, written in ticks of 10^-pricePlace.
  const shift = spec.pricePlace - decimals;
  const ticks =
    shift >= 0 ? BigInt(units) * 10n ** BigInt(shift) : divRound(BigInt(units), 10n ** BigInt(-shift));
  return Number(ticks);
}
