// What the order ticket and the TP/SL panel send to main. Close to the exchange's own requests
// (E1/E2, E8/E9) but one shape for v2 and v3; main turns it into the endpoint's body.
import { z } from 'zod';
import {
  HOLD_SIDES,
  MARGIN_MODES,
  ORDER_TYPES,
  PRODUCT_TYPES,
  SIDES,
  TIME_IN_FORCE,
  TRADE_SIDES,
  TRIGGER_TYPES,
  V3_TRIGGER_BY,
} from '../api/enums';

/** A positive decimal as text, never a float. */
export const decimalText = z
  .string()
  .regex(/^(0|[1-9]\d{0,15})(\.\d{1,12})?$/, 'must be a decimal number written as text, e.g. "0.01"')
  .refine((text) => /[1-9]/.test(text), 'must be greater than 0');

const symbol = z.string().regex(/^[A-Za-z0-9]{2,30}$/, 'must be a symbol such as BTCUSDT');
const coin = z.string().regex(/^[A-Za-z0-9]{2,12}$/, 'must be a coin such as USDT');

/** The most orders one ticket may send: the smaller of E1's and E2's batch limits. */
export const TICKET_MAX_ORDERS = 20;

export const orderLegSchema = z.strictObject({
  side: z.enum(SIDES),
  /** Hedge mode: open or close; left out in one-way mode. */
  tradeSide: z.enum(TRADE_SIDES).optional(),
  /** v3 hedge mode: the position the order opens or closes. */
  posSide: z.enum(HOLD_SIDES).optional(),
  orderType: z.enum(ORDER_TYPES),
  price: decimalText.optional(),
  size: decimalText,
  force: z.enum(TIME_IN_FORCE).optional(),
  reduceOnly: z.boolean().optional(),
  presetTakeProfitPrice: decimalText.optional(),
  presetStopLossPrice: decimalText.optional(),
});

export const orderTicketSchema = z
  .strictObject({
    version: z.enum(['v2', 'v3']),
    symbol,
    productType: z.enum(PRODUCT_TYPES),
    marginMode: z.enum(MARGIN_MODES),
    marginCoin: coin,
    orders: z.array(orderLegSchema).min(1).max(TICKET_MAX_ORDERS),
  })
  .superRefine((ticket, ctx) => {
    ticket.orders.forEach((leg, index) => {
      if (leg.orderType === 'limit' && leg.price === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['orders', index, 'price'],
          message: 'a limit order needs a price',
        });
      }
      const preset = leg.presetTakeProfitPrice !== undefined || leg.presetStopLossPrice !== undefined;
      if (ticket.version === 'v3' && preset) {
        ctx.addIssue({
          code: 'custom',
          path: ['orders', index, 'presetTakeProfitPrice'],
          message: 'v3 orders carry no preset TP/SL; place it with tpsl.place once the position is open',
        });
      }
    });
  });
export type OrderTicket = z.output<typeof orderTicketSchema>;
export type OrderLeg = z.output<typeof orderLegSchema>;

export const cancelOrdersSchema = z
  .strictObject({
    productType: z.enum(PRODUCT_TYPES),
    symbol,
    orders: z
      .array(
        z.strictObject({
          orderId: z
            .string()
            .regex(/^\d{1,20}$/)
            .optional(),
          clientOid: z.string().min(1).max(64).optional(),
        }),
      )
      .min(1)
      .max(50),
  })
  .superRefine((request, ctx) => {
    request.orders.forEach((order, index) => {
      if (order.orderId === undefined && order.clientOid === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['orders', index],
          message: 'give the orderId or the clientOid',
        });
      }
    });
  });
export type CancelOrdersRequest = z.output<typeof cancelOrdersSchema>;

const v2TriggerLeg = z.strictObject({
  triggerPrice: decimalText,
  triggerType: z.enum(TRIGGER_TYPES).optional(),
  /** Left out: market execution. */
  executePrice: decimalText.optional(),
  /** Left out: the whole position. */
  size: decimalText.optional(),
});

const v3TriggerLeg = z.strictObject({
  triggerPrice: decimalText,
  triggerBy: z.enum(V3_TRIGGER_BY).optional(),
  /** Left out: market execution. */
  limitPrice: decimalText.optional(),
});

const tpslV2 = z.strictObject({
  version: z.literal('v2'),
  symbol,
  productType: z.enum(PRODUCT_TYPES),
  marginCoin: coin,
  holdSide: z.enum(['long', 'short', 'buy', 'sell']),
  takeProfit: v2TriggerLeg.optional(),
  stopLoss: v2TriggerLeg.optional(),
});

const tpslV3 = z.strictObject({
  version: z.literal('v3'),
  symbol,
  productType: z.enum(PRODUCT_TYPES),
  posSide: z.enum(HOLD_SIDES),
  /** Left out: the whole position. */
  size: decimalText.optional(),
  takeProfit: v3TriggerLeg.optional(),
  stopLoss: v3TriggerLeg.optional(),
});

export const tpslTicketSchema = z
  .discriminatedUnion('version', [tpslV2, tpslV3])
  .refine((ticket) => ticket.takeProfit !== undefined || ticket.stopLoss !== undefined, {
    message: 'give a take-profit, a stop-loss or both',
    path: ['takeProfit'],
  });
export type TpslTicket = z.output<typeof tpslTicketSchema>;
