import type { HoldSide, OrderSource } from '../../shared/api/enums';
import { EngineError } from './errors';
import { formatScaled, parseScaled } from './money';
import type { EngineState, Market } from './state';
import { isTriggered } from './trigger-plans';
import type { PlaceOrderInput, TradedRange, Trading } from './trading';
import type { Order, PlanKind, TriggerPlan } from './types';

const SOURCE_OF: Record<PlanKind, { market: OrderSource; limit: OrderSource }> = {
  pos_profit: { market: 'pos_profit_market', limit: 'pos_profit_limit' },
  pos_loss: { market: 'pos_loss_market', limit: 'pos_loss_limit' },
  profit_plan: { market: 'profit_market', limit: 'profit_limit' },
  loss_plan: { market: 'loss_market', limit: 'loss_limit' },
};

/**
 * Fires take-profit and stop-loss plans once a command has moved their reference price. It runs
 * after the command's own matching is over, so a fired close order never trades inside another
 * order's match; its own trades may fire further plans, which run in the next round.
 */
export class TpslTriggers {
  /** Mark price per symbol when its plans were last checked. */
  private readonly checkedMarks = new Map<string, number>();

  constructor(
    private readonly state: EngineState,
    private readonly trading: Trading,
  ) {}

  /** Sets presets of filled orders and fires every plan whose trigger was crossed. */
  settle(ts: number): void {
    for (;;) {
      const triggered = this.triggeredPlans(this.trading.takeTradedRanges());
      for (const order of this.trading.takePresetFills()) this.applyPresets(order, ts);
      if (triggered.length === 0) return;
      for (const plan of triggered) this.fire(plan, ts);
    }
  }

  /** Plans whose reference crossed the trigger, in creation order. */
  private triggeredPlans(ranges: Map<string, TradedRange>): TriggerPlan[] {
    const triggered: TriggerPlan[] = [];
    for (const symbol of this.state.plans.symbols()) {
      const market = this.state.market(symbol);
      if (market === undefined) continue;
      const mark = market.sim.markPrice;
      const markMoved = this.checkedMarks.get(symbol) !== mark;
      this.checkedMarks.set(symbol, mark);
      const traded = ranges.get(symbol);
      if (!markMoved && traded === undefined) continue;
      for (const plan of this.state.plans.ofSymbol(symbol)) {
        const fires =
          plan.triggerType === 'mark_price'
            ? isTriggered(plan, mark, mark)
            : traded !== undefined && isTriggered(plan, traded.low, traded.high);
        if (fires) triggered.push(plan);
      }
    }
    return triggered.sort((a, b) => a.id - b.id);
  }

  /** Places the plan's reduce-only close order; a plan whose position is gone or locked just ends. */
  private fire(plan: TriggerPlan, ts: number): void {
    if (!this.state.plans.delete(plan.id)) return;
    const account = this.state.accounts.get(plan.uid);
    const market = this.state.market(plan.symbol);
    if (account === undefined || market === undefined) return;
    const position = this.state.positions.get(this.state.positionKeyOf(plan.uid, plan.symbol, plan.holdSide));
    if (position === undefined) return;
    const closable = position.lots - this.trading.lockedLots(account, position);
    const lots = plan.lots === 0 ? closable : Math.min(plan.lots, closable);
    if (lots <= 0) return;
    const contract = market.contract;
    const hedge = account.posModes[contract.productType] === 'hedge_mode';
    const input: PlaceOrderInput = {
      symbol: contract.symbol,
      productType: contract.productType,
      marginCoin: null,
      marginMode: null,
      side: plan.holdSide === 'long' ? 'sell' : 'buy',
      tradeSide: null,
      // v3 names a hedge-mode close by the position it closes, unlike v2's side convention.
      posSide: hedge ? plan.holdSide : null,
      orderType: plan.executePrice === 0 ? 'market' : 'limit',
      force: 'gtc',
      price: plan.executePrice === 0 ? null : priceText(market, plan.executePrice),
      size: formatScaled(lots, contract.volumePlace),
      clientOid: null,
      reduceOnly: !hedge,
      presetStopSurplusPrice: null,
      presetStopLossPrice: null,
      stpMode: plan.stpMode,
    };
    const source = SOURCE_OF[plan.kind][plan.executePrice === 0 ? 'market' : 'limit'];
    try {
      this.trading.place(account, input, hedge ? 'v3' : 'v2', ts, source);
    } catch (error) {
      // A close the exchange refuses (below the minimum notional, ...) ends the plan unfilled.
      if (!(error instanceof EngineError)) throw error;
    }
  }

  /** An opening order's presets become the position's whole-position take-profit and stop-loss. */
  private applyPresets(order: Order, ts: number): void {
    const account = this.state.accounts.get(order.uid);
    const market = this.state.market(order.symbol);
    if (account === undefined || market === undefined) return;
    const holdSide = this.trading.openTargetSide(order);
    if (!this.state.positions.has(this.state.positionKeyOf(order.uid, order.symbol, holdSide))) return;
    const presets: Array<[PlanKind, string]> = [
      ['pos_profit', order.presetTakeProfit],
      ['pos_loss', order.presetStopLoss],
    ];
    for (const [kind, text] of presets) {
      const trigger = text === '' ? null : ticksOf(market, text);
      // A preset already crossed at the fill price would close the position at once: it is not set.
      if (trigger === null || !onTriggerSide(kind, holdSide, trigger, market.lastPrice)) continue;
      for (const plan of [...this.state.plans.ofSymbol(order.symbol)]) {
        if (plan.uid === order.uid && plan.holdSide === holdSide && plan.kind === kind) {
          this.state.plans.delete(plan.id);
        }
      }
      const id = this.state.nextOrderId++;
      const plan: TriggerPlan = {
        id,
        clientOid: String(id),
        uid: order.uid,
        symbol: order.symbol,
        productType: order.productType,
        holdSide,
        kind,
        triggerPrice: trigger,
        triggerType: 'fill_price',
        executePrice: 0,
        lots: 0,
        stpMode: order.stpMode,
        cTime: ts,
      };
      this.state.plans.set(id, plan);
      account.clientOids.set(plan.clientOid, id);
      this.state.version++;
    }
  }
}

function onTriggerSide(kind: PlanKind, holdSide: HoldSide, trigger: number, reference: number): boolean {
  const above = (kind === 'pos_profit') === (holdSide === 'long');
  return above ? trigger > reference : trigger < reference;
}

function ticksOf(market: Market, text: string): number | null {
  const units = parseScaled(text, market.contract.pricePlace);
  const step = BigInt(market.contract.priceEndStep);
  if (units === null || units <= 0n || units % step !== 0n) return null;
  return Number(units / step);
}

function priceText(market: Market, ticks: number): string {
  return formatScaled(BigInt(ticks) * BigInt(market.contract.priceEndStep), market.contract.pricePlace);
}
