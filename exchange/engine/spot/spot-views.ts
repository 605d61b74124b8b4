import type { OrderDetail } from '../../../shared/api/endpoints';
import { formatMoney, formatScaled } from '../money';
import type { Engine } from '../engine';
import type { Account } from '../types';
import type { SpotOrder } from './spot-state';
import { quoteUnitsPerTickLot, type SpotSymbolSpec } from './spot-symbols';

/** E18 order detail of a spot or margin order, or undefined when the ids name no such order. */
export function spotOrderInfo(
  engine: Engine,
  account: Account,
  orderId: string | undefined,
  clientOid: string | undefined,
): OrderDetail | undefined {
  const order = engine.spot.findOrder(account, orderId ?? null, clientOid ?? null);
  if (order === undefined) return undefined;
  const market = engine.state.spot.markets.get(order.symbol);
  if (market === undefined) return undefined;
  const spec = market.spec;
  const price = (ticks: number) => formatScaled(ticks, spec.pricePlace);
  const quantity = (lots: number) => formatScaled(lots, spec.volumePlace);
  return {
    orderId: String(order.id),
    clientOid: order.clientOid,
    category: order.category,
    symbol: order.symbol,
    orderType: order.orderType,
    side: order.side,
    price: order.price === 0 ? '' : price(order.price),
    qty: order.lots === 0 ? '' : quantity(order.lots),
    amount: formatMoney(orderAmount(spec, order)),
    cumExecQty: quantity(order.filledLots),
    cumExecValue: formatMoney(order.filledQuote),
    avgPrice: order.filledLots === 0 ? '' : averagePrice(spec, order),
    timeInForce: order.force,
    orderStatus: order.status,
    posSide: '',
    holdMode: '',
    tradeSide: '',
    stpMode: order.stpMode,
    reduceOnly: '',
    feeDetail: [{ feeCoin: order.feeCoin, fee: formatMoney(-order.fee) }],
    cancelReason: order.cancelReason,
    execType: 'normal',
    createdTime: String(order.cTime),
    updatedTime: String(order.uTime),
  };
}

/** The order's amount in the quote coin: a market buy's own amount, else price x quantity. */
function orderAmount(spec: SpotSymbolSpec, order: SpotOrder): bigint {
  if (order.quoteAmount > 0n) return order.quoteAmount;
  if (order.price === 0) return 0n;
  return BigInt(order.price) * BigInt(order.lots) * quoteUnitsPerTickLot(spec);
}

/** Quote spent per base lot, written with the symbol's price decimals (rounded down). */
function averagePrice(spec: SpotSymbolSpec, order: SpotOrder): string {
  const ticks = order.filledQuote / (BigInt(order.filledLots) * quoteUnitsPerTickLot(spec));
  return formatScaled(ticks, spec.pricePlace);
}

/** E14 for a coin of the unified account, with borrowing considered. */
export function maxTransferableView(
  engine: Engine,
  account: Account,
  coin: string,
): { coin: string; maxTransfer: string; borrowMaxTransfer: string } {
  const { maxTransfer, borrowMax } = engine.spot.borrowing.maxTransferable(account, coin, engine.state.clock);
  return { coin, maxTransfer: formatMoney(maxTransfer), borrowMaxTransfer: formatMoney(borrowMax) };
}
