import type { DeliveryStatus } from '../../../shared/api/enums';
import type { ContractSpec, DeliverySchedule } from '../contracts';

/** Opening is refused this long before delivery starts (trading-api.md "Delivery status"). */
export const OPENING_STOP_MS = 10 * 60_000;
/**
 * The delivery price is the arithmetic average of the index over the hour before delivery
 * (https://www.bitget.com/en/support/articles/12511874540313-Bitget-Futures%3ADelivery-Futures).
 */
export const DELIVERY_PRICE_WINDOW_MS = 60 * 60_000;
/** Quarterly contracts deliver at 08:00 UTC (4:00 pm UTC+8), same article. */
const DELIVERY_HOUR_UTC = 8;

/** Where a dated contract stands at `clock`; `delivered` once it has been settled and is off. */
export type DeliveryPhase = DeliveryStatus | 'delivered';

export function deliveryPhase(schedule: DeliverySchedule, clock: number): DeliveryPhase {
  if (clock >= schedule.deliveryTime) return 'delivered';
  if (clock >= schedule.deliveryStartTime) return 'delivery_period';
  if (clock >= schedule.limitOpenTime) return 'delivery_before';
  if (clock >= schedule.launchTime) return 'delivery_normal';
  return 'delivery_config_period';
}

/**
 * The live contract config's `symbolStatus` for each phase: listed (not yet trading), normal,
 * limit_open (opening restricted), maintain (trading suspended), off (delivered).
 */
export function symbolStatusOf(contract: ContractSpec, clock: number): string {
  if (contract.delivery === undefined) return 'normal';
  const phase = deliveryPhase(contract.delivery, clock);
  switch (phase) {
    case 'delivery_config_period':
      return 'listed';
    case 'delivery_normal':
      return 'normal';
    case 'delivery_before':
      return 'limit_open';
    case 'delivery_period':
      return 'maintain';
    case 'delivered':
      return 'off';
  }
}

/**
 * 08:00 UTC of the last Friday of the quarter month (March, June, September, December) that comes
 * strictly after `ts`: when the current quarterly contract delivers (same article as above).
 */
export function nextQuarterlyDelivery(ts: number): number {
  const date = new Date(ts);
  let year = date.getUTCFullYear();
  let month = date.getUTCMonth() - (date.getUTCMonth() % 3) + 2;
  for (;;) {
    const candidate = lastFridayAt(year, month);
    if (candidate > ts) return candidate;
    month += 3;
    if (month > 11) {
      month -= 12;
      year += 1;
    }
  }
}

function lastFridayAt(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one.
  const last = new Date(Date.UTC(year, month + 1, 0, DELIVERY_HOUR_UTC));
  const back = (last.getUTCDay() - 5 + 7) % 7;
  return last.getTime() - back * 86_400_000;
}

/**
 * A dated contract's symbol: the perpetual's base and quote coins and the delivery day as MMDD,
 * as the live exchange writes BTCUSD1226. USDC-margined BTCPERP becomes BTCUSDC plus the date.
 */
export function datedSymbol(perpetual: ContractSpec, deliveryTime: number): string {
  const date = new Date(deliveryTime);
  const month = String(date.getUTCMonth() + 1).padStart(2, '0');
  const day = String(date.getUTCDate()).padStart(2, '0');
  return `${perpetual.baseCoin}${perpetual.quoteCoin}${month}${day}`;
}

/** Whether a dated contract has been delivered by `clock`. */
export function isDelivered(contract: ContractSpec, clock: number): boolean {
  return contract.delivery !== undefined && clock >= contract.delivery.deliveryTime;
}

/**
 * The delivery fields of the contracts and tickers answers: times as strings and the status for a
 * dated contract; `empty` times and '' for a perpetual (the contracts answer has '', tickers null).
 */
export function deliveryFields<E extends '' | null>(
  contract: ContractSpec,
  clock: number,
  empty: E,
): { deliveryStartTime: string | E; deliveryTime: string | E; deliveryStatus: DeliveryStatus | '' } {
  const schedule = contract.delivery;
  if (schedule === undefined) return { deliveryStartTime: empty, deliveryTime: empty, deliveryStatus: '' };
  const phase = deliveryPhase(schedule, clock);
  return {
    deliveryStartTime: String(schedule.deliveryStartTime),
    deliveryTime: String(schedule.deliveryTime),
    // Delivered contracts are off and no longer shown; until then the spec's four states.
    deliveryStatus: phase === 'delivered' ? 'delivery_period' : phase,
  };
}
