import type { TriggerPlan } from './types';

/**
 * The waiting take-profit and stop-loss plans by id, indexed by symbol so a price change looks
 * only at its own symbol's plans. Both the map and the index keep creation order.
 */
export class TriggerPlanStore extends Map<number, TriggerPlan> {
  private readonly bySymbol = new Map<string, Map<number, TriggerPlan>>();

  override set(id: number, plan: TriggerPlan): this {
    const previous = super.get(id);
    if (previous !== undefined) this.unindex(previous);
    super.set(id, plan);
    let plans = this.bySymbol.get(plan.symbol);
    if (plans === undefined) {
      plans = new Map();
      this.bySymbol.set(plan.symbol, plans);
    }
    plans.set(id, plan);
    return this;
  }

  override delete(id: number): boolean {
    const plan = super.get(id);
    if (plan === undefined) return false;
    this.unindex(plan);
    return super.delete(id);
  }

  override clear(): void {
    this.bySymbol.clear();
    super.clear();
  }

  /** The symbol's plans in creation order. */
  ofSymbol(symbol: string): Iterable<TriggerPlan> {
    return this.bySymbol.get(symbol)?.values() ?? [];
  }

  /** Symbols with at least one plan. */
  symbols(): Iterable<string> {
    return this.bySymbol.keys();
  }

  private unindex(plan: TriggerPlan): void {
    const plans = this.bySymbol.get(plan.symbol);
    if (plans === undefined) return;
    plans.delete(plan.id);
    if (plans.size === 0) this.bySymbol.delete(plan.symbol);
  }
}

/** Whether a plan fires with its reference price anywhere between `low` and `high` (ticks). */
export function isTriggered(plan: TriggerPlan, low: number, high: number): boolean {
  const firesAbove =
    (plan.kind === 'pos_profit' || plan.kind === 'profit_plan') === (plan.holdSide === 'long');
  return firesAbove ? high >= plan.triggerPrice : low <= plan.triggerPrice;
}
