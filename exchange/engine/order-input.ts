// What an order asks for, checked against its contract before the engine accepts it: its size in
// lots, its price in ticks, and what it does to the position (open, close, or net in one-way mode).
import type { HoldSide, OrderType } from '../../shared/api/enums';
import { tickSize } from './contracts';
import { EngineError } from './errors';
import { parseScaled, parseScaledSafe } from './money';
import type { Market } from './state';
import type { PlaceOrderInput } from './trading';
import type { Order, OrderIntent } from './types';

/** The order's size in lots: a multiple of the lot, within the contract's minimum and maximum. */
export function parseOrderLots(market: Market, size: string, orderType: OrderType): number {
  const contract = market.contract;
  const safeLots = parseScaledSafe(size, contract.volumePlace);
  if (typeof safeLots === 'number') {
    const maximum = orderType === 'market' ? contract.maxMarketOrderLots : contract.maxOrderLots;
    if (safeLots >= contract.minTradeLots && safeLots <= maximum) return safeLots;
  }
  const lots = parseScaled(size, contract.volumePlace);
  if (lots === null) {
    // A size under the minimum is told so, even when it also has too many decimals.
    if (belowMinimumSize(size, contract.minTradeLots, contract.volumePlace)) throw EngineError.of('minSize');
    throw EngineError.of('scaleError', `checkBDScale error value=${size} checkScale=${contract.volumePlace}`);
  }
  if (lots < BigInt(contract.minTradeLots)) throw EngineError.of('minSize');
  const maximum = orderType === 'market' ? contract.maxMarketOrderLots : contract.maxOrderLots;
  if (lots > BigInt(maximum)) {
    throw EngineError.detailed(
      'maxOpenSize',
      `The order size is greater than the max ${orderType} order size of ${contract.symbol}`,
    );
  }
  return Number(lots);
}

/** A limit price in ticks: positive, a multiple of the tick. */
export function parseOrderPrice(market: Market, text: string | null): number {
  const contract = market.contract;
  if (text === null) throw EngineError.of('paramEmpty', 'price');
  const safeUnits = parseScaledSafe(text, contract.pricePlace);
  if (typeof safeUnits === 'number' && safeUnits > 0 && safeUnits % contract.priceEndStep === 0) {
    return safeUnits / contract.priceEndStep;
  }
  const units = parseScaled(text, contract.pricePlace);
  if (units === null || units % BigInt(contract.priceEndStep) !== 0n)
    throw EngineError.of('priceTick', tickSize(contract));
  if (units <= 0n) throw EngineError.of('paramError', 'price');
  return Number(units / BigInt(contract.priceEndStep));
}

/** Whether the order opens, closes or (one-way) nets, and the position side it names (E1, E2 rules). */
export function orderIntent(
  input: PlaceOrderInput,
  posMode: Order['posMode'],
  version: 'v2' | 'v3',
): { intent: OrderIntent; posSide: HoldSide | 'net' } {
  if (posMode === 'one_way_mode') {
    if (version === 'v3' && input.posSide !== null) {
      throw EngineError.detailed(
        'positionModeMismatch',
        'order type for unilateral position must also be unilateral: omit posSide in one-way mode',
      );
    }
    return { intent: input.reduceOnly ? 'close' : 'net', posSide: 'net' };
  }
  if (version === 'v2') {
    if (input.tradeSide === null) {
      throw EngineError.detailed(
        'positionModeMismatch',
        'hedge mode needs tradeSide open or close on every order',
      );
    }
    // E1 rule 3: close long is side=buy with tradeSide=close, close short is side=sell.
    const posSide: HoldSide = input.side === 'buy' ? 'long' : 'short';
    return { intent: input.tradeSide, posSide };
  }
  if (input.posSide === null) {
    throw EngineError.detailed(
      'positionModeMismatch',
      'hedge mode needs posSide long or short on every order',
    );
  }
  // E2 rule 6: buy+long opens long, sell+long closes it; sell+short opens short, buy+short closes it.
  const opens = (input.side === 'buy') === (input.posSide === 'long');
  return { intent: opens ? 'open' : 'close', posSide: input.posSide };
}

/** Whether a decimal size (up to 20 decimals, as the schemas allow) is below `minLots` lots. */
function belowMinimumSize(size: string, minLots: number, volumePlace: number): boolean {
  const fine = parseScaled(size, 20);
  return fine !== null && fine < BigInt(minLots) * 10n ** BigInt(20 - volumePlace);
}
