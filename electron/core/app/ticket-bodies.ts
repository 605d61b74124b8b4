// Turns the renderer's order and TP/SL tickets into the bodies of E1/E2 and E8/E9. The ticket is
// one shape for v2 and v3; the names and the rules each version uses differ, so they meet here.
import type { OrderTicket, TpslTicket } from '../../../shared/ipc/order-ticket';
import { IpcRefusal } from '../ipc/ipc-router';
import type { OrderOutbox } from '../outbox/order-outbox';

export type V2OrdersBody = Parameters<OrderOutbox['placeOrders']>[0];
export type V3OrderItems = Parameters<OrderOutbox['placeOrdersV3']>[0];
export type PositionTpslBody = Parameters<OrderOutbox['placePositionTpsl']>[0];
export type StrategyOrderBody = Parameters<OrderOutbox['placeStrategyOrder']>[0];

export const TICKET_REFUSED_CODE = 'TICKET_REFUSED';

type YesNo = 'YES' | 'NO';

function yesNo(flag: boolean | undefined): YesNo | undefined {
  return flag === undefined ? undefined : flag ? 'YES' : 'NO';
}

/** E1: the v2 batch. Hedge mode names the position with tradeSide, so a posSide is refused. */
export function v2OrdersBody(ticket: OrderTicket): V2OrdersBody {
  return {
    symbol: ticket.symbol,
    productType: ticket.productType,
    marginCoin: ticket.marginCoin,
    marginMode: ticket.marginMode,
    orderList: ticket.orders.map((leg, index) => {
      if (leg.posSide !== undefined) {
        throw new IpcRefusal(
          TICKET_REFUSED_CODE,
          `Order ${index + 1}: v2 orders name the position with tradeSide (open/close), not posSide.`,
        );
      }
      return {
        side: leg.side,
        tradeSide: leg.tradeSide,
        orderType: leg.orderType,
        price: leg.price,
        size: leg.size,
        force: leg.force,
        reduceOnly: yesNo(leg.reduceOnly),
        presetStopSurplusPrice: leg.presetTakeProfitPrice,
        presetStopLossPrice: leg.presetStopLossPrice,
      };
    }),
  };
}

/** E2: the v3 batch, a list of orders each carrying its category (the product type). */
export function v3OrderItems(ticket: OrderTicket): V3OrderItems {
  return ticket.orders.map((leg, index) => {
    if (leg.tradeSide !== undefined) {
      throw new IpcRefusal(
        TICKET_REFUSED_CODE,
        `Order ${index + 1}: v3 orders name the position with posSide (long/short), not tradeSide.`,
      );
    }
    return {
      category: ticket.productType,
      symbol: ticket.symbol,
      side: leg.side,
      posSide: leg.posSide,
      orderType: leg.orderType,
      price: leg.price,
      qty: leg.size,
      timeInForce: leg.force,
      reduceOnly: yesNo(leg.reduceOnly),
    };
  });
}

/** E8: position TP/SL; an execute price left out means market execution. */
export function positionTpslBody(ticket: Extract<TpslTicket, { version: 'v2' }>): PositionTpslBody {
  const { takeProfit, stopLoss } = ticket;
  return {
    marginCoin: ticket.marginCoin,
    productType: ticket.productType,
    symbol: ticket.symbol,
    holdSide: ticket.holdSide,
    stopSurplusTriggerPrice: takeProfit?.triggerPrice,
    stopSurplusSize: takeProfit?.size,
    stopSurplusTriggerType: takeProfit?.triggerType,
    stopSurplusExecutePrice: takeProfit?.executePrice,
    stopLossTriggerPrice: stopLoss?.triggerPrice,
    stopLossSize: stopLoss?.size,
    stopLossTriggerType: stopLoss?.triggerType,
    stopLossExecutePrice: stopLoss?.executePrice,
  };
}

/** E9: one strategy order; a size makes it partial, a limit price makes a leg a limit order. */
export function strategyOrderBody(ticket: Extract<TpslTicket, { version: 'v3' }>): StrategyOrderBody {
  const { takeProfit, stopLoss } = ticket;
  return {
    category: ticket.productType,
    symbol: ticket.symbol,
    posSide: ticket.posSide,
    tpslMode: ticket.size === undefined ? 'full' : 'partial',
    qty: ticket.size,
    takeProfit: takeProfit?.triggerPrice,
    tpTriggerBy: takeProfit?.triggerBy,
    tpOrderType: takeProfit?.limitPrice === undefined ? 'market' : 'limit',
    tpLimitPrice: takeProfit?.limitPrice,
    stopLoss: stopLoss?.triggerPrice,
    slTriggerBy: stopLoss?.triggerBy,
    slOrderType: stopLoss?.limitPrice === undefined ? 'market' : 'limit',
    slLimitPrice: stopLoss?.limitPrice,
  };
}
