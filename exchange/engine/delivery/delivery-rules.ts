import type { Side } from '../../../shared/api/enums';
import type { ContractSpec } from '../contracts';
import { deliveryPhase } from './delivery-schedule';
import { EngineError } from '../errors';
import type { EngineState, Market } from '../state';
import type { Account, OrderIntent } from '../types';

/**
 * Refuses an order the delivery status of a dated contract forbids (trading-api.md "Delivery
 * status"): nothing before launch or after delivery, no opening in delivery_before, nothing at
 * all in delivery_period. Perpetuals pass.
 */
export function checkDeliveryPhase(
  state: EngineState,
  account: Account,
  market: Market,
  side: Side,
  intent: OrderIntent,
  lots: number,
): void {
  const contract = market.contract;
  const schedule = contract.delivery;
  if (schedule === undefined) return;
  const phase = deliveryPhase(schedule, state.clock);
  switch (phase) {
    case 'delivery_normal':
      return;
    case 'delivery_config_period':
      throw EngineError.detailed(
        'symbolOpeningSoon',
        `The current trading pair is opening soon: ${contract.symbol} trades from ${schedule.launchTime}`,
      );
    case 'delivered':
      throw EngineError.detailed(
        'contractRemoved',
        `The contract has been removed: ${contract.symbol} was delivered at ${schedule.deliveryTime}`,
      );
    case 'delivery_period':
      throw inDelivery(contract);
    case 'delivery_before':
      if (opensPosition(state, account, contract, side, intent, lots)) {
        throw EngineError.detailed(
          'symbolMaintained',
          `${contract.symbol} delivers at ${schedule.deliveryStartTime}: opening positions is refused from ${schedule.limitOpenTime}; closing is still allowed`,
        );
      }
  }
}

/** Cancelling is refused while a dated contract is in delivery_period; null when it is allowed. */
export function cancelRefusal(contract: ContractSpec, clock: number): EngineError | null {
  if (contract.delivery === undefined) return null;
  return deliveryPhase(contract.delivery, clock) === 'delivery_period' ? inDelivery(contract) : null;
}

function inDelivery(contract: ContractSpec): EngineError {
  return EngineError.detailed(
    'symbolMaintained',
    `${contract.symbol} is in delivery until ${contract.delivery?.deliveryTime ?? ''}: opening, closing and cancelling orders are refused`,
  );
}

/** Whether the order may open a position: an opening order, or a one-way order beyond the opposite position. */
function opensPosition(
  state: EngineState,
  account: Account,
  contract: ContractSpec,
  side: Side,
  intent: OrderIntent,
  lots: number,
): boolean {
  if (intent !== 'net') return intent === 'open';
  const opposite = state.positions.get(
    state.positionKeyOf(account.uid, contract.symbol, side === 'buy' ? 'short' : 'long'),
  );
  return lots > (opposite?.lots ?? 0);
}
