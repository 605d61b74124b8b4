// E3 batch-cancel-orders, E17 orders-pending and E18 order-info against a real paper exchange
// whose simulated market is paused: only the test's accounts trade, at exact prices.
import { describe, expect, it } from 'vitest';
import { batchCancelOrders, batchPlaceOrder, orderInfo, ordersPending } from '../../shared/api/endpoints';
import type { ClientResponse, SignedClient } from '../testing/signed-client';
import { useTraderPool } from '../testing/trader-pool';
import { availableUsdtOf, orderDetail } from '../testing/account-reads';

const DAY_MS = 86_400_000;

const pool = useTraderPool();
const newTrader = pool.newTrader;

interface OrderItem {
  side: string;
  orderType?: string;
  size: string;
  price?: string;
  clientOid?: string;
}

/** Places limit orders (unless said otherwise) and expects all to be accepted; returns their ids. */
async function placeAll(
  client: SignedClient,
  orderList: ReadonlyArray<OrderItem>,
  symbol = 'BTCUSDT',
  productType = 'USDT-FUTURES',
): Promise<string[]> {
  const response = await client.post(batchPlaceOrder.path, {
    symbol,
    productType,
    marginCoin: productType === 'USDC-FUTURES' ? 'USDC' : 'USDT',
    marginMode: 'crossed',
    orderList: orderList.map((item) => ({ orderType: 'limit', ...item })),
  });
  expect(response.body?.code).toBe('00000');
  const result = batchPlaceOrder.response.parse(response.body?.data);
  expect(result.failureList).toEqual([]);
  return result.successList.map((item) => item.orderId);
}

function cancel(client: SignedClient, body: Record<string, unknown>): Promise<ClientResponse> {
  return client.post(batchCancelOrders.path, { productType: 'USDT-FUTURES', ...body });
}

function cancelResult(response: ClientResponse) {
  expect(response.status).toBe(200);
  expect(response.body?.code).toBe('00000');
  return batchCancelOrders.response.parse(response.body?.data);
}

async function pendingPage(client: SignedClient, query: Record<string, string> = {}) {
  const response = await client.get(ordersPending.path, { productType: 'USDT-FUTURES', ...query });
  expect(response.body?.code).toBe('00000');
  return ordersPending.response.parse(response.body?.data);
}

async function pendingIds(client: SignedClient, query: Record<string, string> = {}): Promise<string[]> {
  return ((await pendingPage(client, query)).entrustedList ?? []).map((item) => item.orderId);
}

describe('E3 batch-cancel-orders', () => {
  it('cancels orders by orderId, releases their margin and leaves the others', async () => {
    const trader = await newTrader();
    const [first, second, kept] = await placeAll(trader, [
      { side: 'buy', price: '94000', size: '0.01', clientOid: 'c-1' },
      { side: 'buy', price: '93000', size: '0.01', clientOid: 'c-2' },
      { side: 'buy', price: '92000', size: '0.01', clientOid: 'c-3' },
    ]);
    const result = cancelResult(
      await cancel(trader, { symbol: 'BTCUSDT', orderIdList: [{ orderId: first }, { orderId: second }] }),
    );
    expect(result).toEqual({
      successList: [
        { orderId: first, clientOid: 'c-1' },
        { orderId: second, clientOid: 'c-2' },
      ],
      failureList: [],
    });
    expect(await pendingIds(trader)).toEqual([kept]);
    expect(await orderDetail(trader, { orderId: first ?? '' })).toMatchObject({
      orderStatus: 'cancelled',
      cancelReason: 'normal_cancel',
    });
    // Only the order at 92000 stays reserved: 920/20 + 0.552.
    expect(await availableUsdtOf(trader)).toBe('99953.448');
  });

  it('cancels by clientOid, answering with the orderId too', async () => {
    const trader = await newTrader();
    const [id] = await placeAll(trader, [{ side: 'buy', price: '94000', size: '0.01', clientOid: 'by-oid' }]);
    const result = cancelResult(
      await cancel(trader, { symbol: 'btcusdt', marginCoin: 'USDT', orderIdList: [{ clientOid: 'by-oid' }] }),
    );
    expect(result.successList).toEqual([{ orderId: id, clientOid: 'by-oid' }]);
    expect(await pendingIds(trader)).toEqual([]);
  });

  it('follows the orderId when an item names one order by id and another by clientOid', async () => {
    const trader = await newTrader();
    const [byId, byOid] = await placeAll(trader, [
      { side: 'buy', price: '94000', size: '0.01', clientOid: 'named-by-id' },
      { side: 'buy', price: '93000', size: '0.01', clientOid: 'named-by-oid' },
    ]);
    const result = cancelResult(
      await cancel(trader, {
        symbol: 'BTCUSDT',
        orderIdList: [{ orderId: byId, clientOid: 'named-by-oid' }],
      }),
    );
    expect(result.successList).toEqual([{ orderId: byId, clientOid: 'named-by-id' }]);
    expect(await pendingIds(trader)).toEqual([byOid]);
  });

  it('lists unknown, finished and foreign orders in failureList with 40768 and cancels the rest', async () => {
    const trader = await newTrader();
    const stranger = await newTrader();
    const [foreign] = await placeAll(stranger, [{ side: 'buy', price: '94000', size: '0.01' }]);
    const [live, cancelled] = await placeAll(trader, [
      { side: 'buy', price: '94000', size: '0.01', clientOid: 'live' },
      { side: 'buy', price: '93000', size: '0.01', clientOid: 'cancelled' },
    ]);
    cancelResult(await cancel(trader, { symbol: 'BTCUSDT', orderIdList: [{ orderId: cancelled }] }));

    const result = cancelResult(
      await cancel(trader, {
        symbol: 'BTCUSDT',
        orderIdList: [
          { orderId: '999999999999' },
          { clientOid: 'never-placed' },
          { orderId: cancelled },
          { orderId: foreign },
          { orderId: live },
        ],
      }),
    );
    expect(result.successList).toEqual([{ orderId: live, clientOid: 'live' }]);
    expect(
      result.failureList.map(({ orderId, clientOid, errorCode }) => [orderId, clientOid, errorCode]),
    ).toEqual([
      ['999999999999', '', '40768'],
      ['', 'never-placed', '40768'],
      [cancelled, '', '40768'],
      [foreign, '', '40768'],
    ]);
    expect(result.failureList[0]?.errorMsg).toBe('Order does not exist');
    expect(await pendingIds(stranger)).toEqual([foreign]);
  });

  it('refuses an order of another symbol than the one named (40768)', async () => {
    const trader = await newTrader();
    const [btcOrder] = await placeAll(trader, [{ side: 'buy', price: '94000', size: '0.01' }]);
    const result = cancelResult(
      await cancel(trader, { symbol: 'ETHUSDT', orderIdList: [{ orderId: btcOrder }] }),
    );
    expect(result.failureList).toMatchObject([{ orderId: btcOrder, errorCode: '40768' }]);
    expect(await pendingIds(trader)).toEqual([btcOrder]);
  });

  it('cancels a partially filled order and keeps what it filled', async () => {
    const trader = await newTrader();
    const taker = await newTrader();
    const [resting] = await placeAll(trader, [{ side: 'sell', price: '95000', size: '0.01' }]);
    await placeAll(taker, [{ side: 'buy', orderType: 'market', size: '0.004' }]);
    const result = cancelResult(
      await cancel(trader, { symbol: 'BTCUSDT', orderIdList: [{ orderId: resting }] }),
    );
    expect(result.successList).toHaveLength(1);
    expect(await orderDetail(trader, { orderId: resting ?? '' })).toMatchObject({
      orderStatus: 'cancelled',
      cumExecQty: '0.004',
      avgPrice: '95000',
    });
  });

  it('needs symbol with orderIdList and an id or clientOid in every item (40019)', async () => {
    const trader = await newTrader();
    const [id] = await placeAll(trader, [{ side: 'buy', price: '94000', size: '0.01' }]);
    const noSymbol = await cancel(trader, { orderIdList: [{ orderId: id }] });
    expect(noSymbol.status).toBe(400);
    expect(noSymbol.body).toMatchObject({ code: '40019', data: null });
    expect(noSymbol.body?.msg).toContain('symbol');
    const noIds = await cancel(trader, { symbol: 'BTCUSDT', orderIdList: [{ orderId: id }, {}] });
    expect(noIds.body?.code).toBe('40019');
    const noProductType = await trader.post(batchCancelOrders.path, { symbol: 'BTCUSDT' });
    expect(noProductType.body?.code).toBe('40019');
    expect(await pendingIds(trader)).toEqual([id]);
  });

  it('refuses 51 items, an empty list and an unknown symbol as a whole', async () => {
    const trader = await newTrader();
    const [id] = await placeAll(trader, [{ side: 'buy', price: '94000', size: '0.01' }]);
    const many = Array.from({ length: 51 }, () => ({ orderId: id }));
    const tooMany = await cancel(trader, { symbol: 'BTCUSDT', orderIdList: many });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body?.code).toBe('40020');
    const empty = await cancel(trader, { symbol: 'BTCUSDT', orderIdList: [] });
    expect(empty.body?.code).toBe('40020');
    const unknown = await cancel(trader, { symbol: 'DOGEUSDT', orderIdList: [{ orderId: id }] });
    expect(unknown.body?.code).toBe('40034');
    expect(await pendingIds(trader)).toEqual([id]);

    // 50 is the limit, not beyond it: the first cancels the order, the others find it gone.
    const fifty = cancelResult(await cancel(trader, { symbol: 'BTCUSDT', orderIdList: many.slice(0, 50) }));
    expect(fifty.successList).toHaveLength(1);
    expect(fifty.failureList).toHaveLength(49);
  });

  it('without orderIdList cancels every open order of the symbol, or of the product type', async () => {
    const trader = await newTrader();
    const btcOrders = await placeAll(trader, [
      { side: 'buy', price: '94000', size: '0.01' },
      { side: 'sell', price: '96000', size: '0.01' },
    ]);
    const [ethOrder] = await placeAll(trader, [{ side: 'buy', price: '3000', size: '0.1' }], 'ETHUSDT');
    const [usdcOrder] = await placeAll(
      trader,
      [{ side: 'buy', price: '94000', size: '0.01' }],
      'BTCPERP',
      'USDC-FUTURES',
    );

    const bySymbol = cancelResult(await cancel(trader, { symbol: 'BTCUSDT' }));
    expect(bySymbol.successList.map((item) => item.orderId).sort()).toEqual([...btcOrders].sort());
    expect(await pendingIds(trader)).toEqual([ethOrder]);

    const byProduct = cancelResult(await cancel(trader, {}));
    expect(byProduct.successList.map((item) => item.orderId)).toEqual([ethOrder]);
    expect(await pendingIds(trader)).toEqual([]);
    expect(await pendingIds(trader, { productType: 'USDC-FUTURES' })).toEqual([usdcOrder]);
    expect(await availableUsdtOf(trader)).toBe('100000');
  });
});

describe('E17 orders-pending', () => {
  it('lists live orders by default and partially filled ones on request, newest first', async () => {
    const trader = await newTrader();
    const taker = await newTrader();
    const [partial, live] = await placeAll(trader, [
      { side: 'sell', price: '95000', size: '0.01', clientOid: 'partial' },
      { side: 'sell', price: '96000', size: '0.01', clientOid: 'live' },
    ]);
    await placeAll(taker, [{ side: 'buy', orderType: 'market', size: '0.004' }]);

    const byDefault = await pendingPage(trader);
    expect(byDefault.entrustedList).toMatchObject([
      { orderId: live, status: 'live', baseVolume: '0', priceAvg: '', totalProfits: '', fee: '0' },
    ]);
    expect(await pendingIds(trader, { status: 'live' })).toEqual([live]);
    const partials = await pendingPage(trader, { status: 'partially_filled' });
    expect(partials.entrustedList).toMatchObject([
      {
        orderId: partial,
        clientOid: 'partial',
        status: 'partially_filled',
        size: '0.01',
        baseVolume: '0.004',
        priceAvg: '95000',
        quoteVolume: '380',
        // Maker 0.02% of 380.
        fee: '-0.076',
        totalProfits: '0',
      },
    ]);
    const wrongStatus = await trader.get(ordersPending.path, {
      productType: 'USDT-FUTURES',
      status: 'filled',
    });
    expect(wrongStatus.body?.code).toBe('40020');
  });

  it('finds one order by orderId or clientOid, the orderId prevailing', async () => {
    const trader = await newTrader();
    const [first, second] = await placeAll(trader, [
      { side: 'buy', price: '94000', size: '0.01', clientOid: 'find-first' },
      { side: 'buy', price: '93000', size: '0.01', clientOid: 'find-second' },
    ]);
    expect(await pendingIds(trader, { orderId: first ?? '' })).toEqual([first]);
    expect(await pendingIds(trader, { clientOid: 'find-second' })).toEqual([second]);
    expect(await pendingIds(trader, { orderId: first ?? '', clientOid: 'find-second' })).toEqual([first]);
    // As live, an empty page carries a null list.
    const none = await trader.get(ordersPending.path, {
      productType: 'USDT-FUTURES',
      orderId: '999999999999',
    });
    expect(none.body?.data).toEqual({ entrustedList: null, endId: '' });
    expect(await pendingIds(trader, { clientOid: 'nobody' })).toEqual([]);
  });

  it('shows only the account own orders, of the product type and symbol asked', async () => {
    const trader = await newTrader();
    const stranger = await newTrader();
    await placeAll(stranger, [{ side: 'buy', price: '94000', size: '0.01' }]);
    const [btcOrder] = await placeAll(trader, [{ side: 'buy', price: '94000', size: '0.01' }]);
    const [ethOrder] = await placeAll(trader, [{ side: 'buy', price: '3000', size: '0.1' }], 'ETHUSDT');
    const [usdcOrder] = await placeAll(
      trader,
      [{ side: 'buy', price: '94000', size: '0.01' }],
      'BTCPERP',
      'USDC-FUTURES',
    );
    expect(await pendingIds(trader)).toEqual([ethOrder, btcOrder]);
    expect(await pendingIds(trader, { symbol: 'ethusdt' })).toEqual([ethOrder]);
    expect(await pendingIds(trader, { productType: 'usdc-futures' })).toEqual([usdcOrder]);
    const noProductType = await trader.get(ordersPending.path, {});
    expect(noProductType.body?.code).toBe('40019');
  });

  it('pages with limit and idLessThan = endId of the previous page', async () => {
    const trader = await newTrader();
    const ids = await placeAll(
      trader,
      ['94000', '93000', '92000', '91000', '90000'].map((price) => ({ side: 'buy', price, size: '0.001' })),
    );
    const newestFirst = [...ids].reverse();

    const pages: string[][] = [];
    let idLessThan: string | undefined;
    for (let page = 0; page < 5; page++) {
      const result = await pendingPage(trader, {
        limit: '2',
        ...(idLessThan === undefined ? {} : { idLessThan }),
      });
      const pageIds = (result.entrustedList ?? []).map((item) => item.orderId);
      if (pageIds.length === 0) {
        expect(result.endId).toBe('');
        break;
      }
      expect(result.endId).toBe(pageIds.at(-1));
      pages.push(pageIds);
      idLessThan = result.endId ?? '';
    }
    expect(pages).toEqual([newestFirst.slice(0, 2), newestFirst.slice(2, 4), newestFirst.slice(4)]);

    expect(await pendingIds(trader)).toEqual(newestFirst);
    for (const limit of ['0', '101', 'ten']) {
      const refused = await trader.get(ordersPending.path, { productType: 'USDT-FUTURES', limit });
      expect(refused.body?.code).toBe('40020');
    }
    expect(await pendingIds(trader, { limit: '100' })).toHaveLength(5);
  });

  it('keeps to the time window and refuses a reversed one or one wider than 3 months', async () => {
    const trader = await newTrader();
    const [id] = await placeAll(trader, [{ side: 'buy', price: '94000', size: '0.01' }]);
    const created = Number((await pendingPage(trader)).entrustedList?.[0]?.cTime);
    expect(created).toBeGreaterThan(0);
    const at = (ms: number) => String(ms);

    expect(await pendingIds(trader, { startTime: at(created), endTime: at(created) })).toEqual([id]);
    expect(await pendingIds(trader, { startTime: at(created + 1), endTime: at(created + DAY_MS) })).toEqual(
      [],
    );
    expect(await pendingIds(trader, { startTime: at(created - DAY_MS), endTime: at(created - 1) })).toEqual(
      [],
    );
    // One end alone: the other lies 3 months away.
    expect(await pendingIds(trader, { startTime: at(created - DAY_MS) })).toEqual([id]);
    expect(await pendingIds(trader, { startTime: at(created - 91 * DAY_MS) })).toEqual([]);
    expect(await pendingIds(trader, { endTime: at(created + DAY_MS) })).toEqual([id]);
    expect(await pendingIds(trader, { endTime: at(created - 1) })).toEqual([]);

    const reversed = await trader.get(ordersPending.path, {
      productType: 'USDT-FUTURES',
      startTime: at(created),
      endTime: at(created - 1),
    });
    expect(reversed.status).toBe(400);
    expect(reversed.body?.code).toBe('40020');
    const tooWide = await trader.get(ordersPending.path, {
      productType: 'USDT-FUTURES',
      startTime: at(created - 91 * DAY_MS),
      endTime: at(created),
    });
    expect(tooWide.body?.code).toBe('40020');
    expect(tooWide.body?.msg).toContain('3 months');
  });
});

describe('E18 order-info', () => {
  it('finds an order by orderId and by clientOid alike, the orderId prevailing', async () => {
    const trader = await newTrader();
    const [id, other] = await placeAll(trader, [
      { side: 'buy', price: '94000', size: '0.01', clientOid: 'info-1' },
      { side: 'buy', price: '93000', size: '0.01', clientOid: 'info-2' },
    ]);
    const byId = await orderDetail(trader, { orderId: id ?? '' });
    expect(byId).toMatchObject({
      orderId: id,
      clientOid: 'info-1',
      orderStatus: 'live',
      cumExecQty: '0',
      cumExecValue: '0',
      avgPrice: '',
      cancelReason: '',
      feeDetail: [{ feeCoin: 'USDT', fee: '0' }],
    });
    expect(Number(byId.createdTime)).toBeGreaterThan(0);
    expect(await orderDetail(trader, { clientOid: 'info-1' })).toEqual(byId);
    expect(await orderDetail(trader, { orderId: id ?? '', clientOid: 'info-2' })).toEqual(byId);
    expect((await orderDetail(trader, { clientOid: 'info-2' })).orderId).toBe(other);
  });

  it('reports filled orders of taker and maker with quantity, average price and fees', async () => {
    const maker = await newTrader();
    const taker = await newTrader();
    const [makerFirst, makerSecond] = await placeAll(maker, [
      { side: 'sell', price: '95000', size: '0.01' },
      { side: 'sell', price: '95100', size: '0.01' },
    ]);
    const [takerId] = await placeAll(taker, [
      { side: 'buy', price: '95100', size: '0.015', clientOid: 'taker' },
    ]);
    expect(await orderDetail(taker, { clientOid: 'taker' })).toMatchObject({
      orderId: takerId,
      orderStatus: 'filled',
      side: 'buy',
      price: '95100',
      qty: '0.015',
      cumExecQty: '0.015',
      // 0.01 at 95000 and 0.005 at 95100.
      cumExecValue: '1425.5',
      avgPrice: '95033.333',
      // Taker 0.06% of 950 and of 475.5.
      feeDetail: [{ feeCoin: 'USDT', fee: '-0.8553' }],
    });
    expect(await orderDetail(maker, { orderId: makerFirst ?? '' })).toMatchObject({
      orderStatus: 'filled',
      cumExecQty: '0.01',
      avgPrice: '95000',
      feeDetail: [{ feeCoin: 'USDT', fee: '-0.19' }],
    });
    expect(await orderDetail(maker, { orderId: makerSecond ?? '' })).toMatchObject({
      orderStatus: 'partially_filled',
      cumExecQty: '0.005',
      cumExecValue: '475.5',
      avgPrice: '95100',
      feeDetail: [{ feeCoin: 'USDT', fee: '-0.0951' }],
    });
  });

  it('reports a cancelled order with its reason', async () => {
    const trader = await newTrader();
    const [id] = await placeAll(trader, [{ side: 'buy', price: '94000', size: '0.01' }]);
    cancelResult(await cancel(trader, { symbol: 'BTCUSDT', orderIdList: [{ orderId: id }] }));
    const cancelled = await orderDetail(trader, { orderId: id ?? '' });
    expect(cancelled).toMatchObject({
      orderStatus: 'cancelled',
      cancelReason: 'normal_cancel',
      cumExecQty: '0',
    });
    expect(Number(cancelled.updatedTime)).toBeGreaterThanOrEqual(Number(cancelled.createdTime));
  });

  it('answers 25204 for an unknown order or another account order, and 400172 without ids', async () => {
    const trader = await newTrader();
    const stranger = await newTrader();
    const [foreign] = await placeAll(stranger, [
      { side: 'buy', price: '94000', size: '0.01', clientOid: 'mine' },
    ]);
    const queries: Array<Record<string, string>> = [
      { orderId: '999999999999' },
      { clientOid: 'unknown' },
      { orderId: foreign ?? '' },
    ];
    for (const query of queries) {
      const response = await trader.get(orderInfo.path, query);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: '25204', msg: 'Order does not exist', data: null });
    }
    expect((await trader.get(orderInfo.path, { clientOid: 'mine' })).body?.code).toBe('25204');
    const neither = await trader.get(orderInfo.path, {});
    expect(neither.body?.code).toBe('400172');
    const malformed = await trader.get(orderInfo.path, { orderId: 'abc' });
    expect(malformed.body?.code).toBe('400172');
  });
});
