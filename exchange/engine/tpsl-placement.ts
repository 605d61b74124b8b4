import type { PlaceTpslCommand } from './commands';
import type { Engine, TpslResult } from './engine';
import { EngineError } from './errors';
import { parseScaled } from './money';
import { EngineState, type Market } from './state';
import type { PlanKind, TriggerPlan } from './types';

/**
 * E8 and E9: take-profit and stop-loss plans on a position. A trigger on the wrong side of the
 * reference price is refused (40917); a whole-position plan replaces the previous one of its kind.
 */
export function placeTpslPlans(engine: Engine, command: PlaceTpslCommand): TpslResult[] {
  const state = engine.state;
  const account = engine.account(command.uid);
  const market = engine.marketFor(command.symbol, command.productType);
  if (command.marginCoin !== null) engine.checkMarginCoin(market, command.marginCoin);
  const position = state.positions.get(
    EngineState.positionKey(account.uid, market.contract.symbol, command.holdSide),
  );
  if (position === undefined) throw EngineError.of('noPositionToClose');
  const plans: TriggerPlan[] = [];
  const seen = new Set<string>();
  for (const leg of command.legs) {
    const trigger = ticksOf(market, leg.triggerPrice, 'triggerPrice');
    const executePrice =
      leg.executePrice === '' || /^0*(\.0*)?$/.test(leg.executePrice)
        ? 0
        : ticksOf(market, leg.executePrice, 'executePrice');
    const lots = leg.size === '' ? 0 : Number(parseScaled(leg.size, market.contract.volumePlace) ?? -1n);
    if (lots < 0) {
      throw EngineError.of(
        'scaleError',
        `checkBDScale error value=${leg.size} checkScale=${market.contract.volumePlace}`,
      );
    }
    if (lots > position.lots) {
      throw EngineError.detailed(
        'noPositionToClose',
        `TP/SL size exceeds the position: ${position.lots} lots held`,
      );
    }
    const reference = leg.triggerType === 'mark_price' ? market.sim.markPrice : market.lastPrice;
    const above = (leg.kind === 'profit') === (command.holdSide === 'long');
    if (above ? trigger <= reference : trigger >= reference) {
      throw EngineError.of('triggerWrongSide', above ? 'above' : 'below');
    }
    const id = state.nextOrderId + plans.length;
    const clientOid = leg.clientOid ?? String(id);
    if (state.idByClientOid(account, clientOid) !== undefined || seen.has(clientOid)) {
      throw EngineError.of(command.version === 'v2' ? 'duplicateClientOidV2' : 'duplicateClientOidV3');
    }
    seen.add(clientOid);
    const whole = lots === 0;
    const kind: PlanKind =
      leg.kind === 'profit' ? (whole ? 'pos_profit' : 'profit_plan') : whole ? 'pos_loss' : 'loss_plan';
    plans.push({
      id,
      clientOid,
      uid: account.uid,
      symbol: market.contract.symbol,
      productType: market.contract.productType,
      holdSide: command.holdSide,
      kind,
      triggerPrice: trigger,
      triggerType: leg.triggerType,
      executePrice,
      lots,
      stpMode: command.stpMode,
      cTime: command.ts,
    });
  }
  // A whole-position TP or SL replaces the previous one of its kind, as on the live exchange.
  for (const plan of plans) {
    if (plan.kind !== 'pos_profit' && plan.kind !== 'pos_loss') continue;
    for (const existing of [...state.plans.ofSymbol(plan.symbol)]) {
      if (existing.uid === plan.uid && existing.holdSide === plan.holdSide && existing.kind === plan.kind) {
        state.plans.delete(existing.id);
      }
    }
  }
  for (const plan of plans) {
    state.plans.set(plan.id, plan);
    account.clientOids.set(plan.clientOid, plan.id);
  }
  state.nextOrderId += plans.length;
  state.version++;
  return plans.map((plan) => ({ id: plan.id, clientOid: plan.clientOid, kind: plan.kind }));
}

function ticksOf(market: Market, text: string, name: string): number {
  const units = parseScaled(text, market.contract.pricePlace);
  const step = BigInt(market.contract.priceEndStep);
  if (units === null || units % step !== 0n) {
    throw EngineError.of(
      'priceTick',
      (market.contract.priceEndStep / 10 ** market.contract.pricePlace).toString(),
    );
  }
  if (units <= 0n) throw EngineError.of('paramError', name);
  return Number(units / step);
}
