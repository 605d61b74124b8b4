// E2 place-batch and E9 place-strategy-order (the unified-account v3 API) against a real paper
// exchange whose simulated market is paused: only the test's accounts trade, at exact prices.
import { describe, expect, it } from 'vitest';
import { orderInfo, placeBatchV3, placeStrategyOrder } from '../../shared/api/endpoints';
import type { ClientResponse, SignedClient } from '../testing/signed-client';
import { useTraderPool } from '../testing/trader-pool';
import { orderDetail, positionsOf, tradeRecordsOf } from '../testing/account-reads';

const pool = useTraderPool();
const newTrader = pool.newTrader;

interface V3Order {
  category?: string;
  symbol?: string;
  side?: string;
  orderType?: string;
  qty?: string;
  price?: string;
  timeInForce?: string;
  posSide?: string;
  clientOid?: string;
  reduceOnly?: string;
}

const btc = (order: V3Order): V3Order => ({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', ...order });

function placeBatch(client: SignedClient, orders: ReadonlyArray<V3Order>): Promise<ClientResponse> {
  return client.post(placeBatchV3.path, orders);
}

function batchResult(response: ClientResponse) {
  expect(response.status).toBe(200);
  expect(response.body?.code).toBe('00000');
  return placeBatchV3.response.parse(response.body?.data);
}

/** Places the orders, expects each to be accepted, and returns their ids. */
async function placeAll(client: SignedClient, orders: ReadonlyArray<V3Order>): Promise<string[]> {
  const items = batchResult(await placeBatch(client, orders));
  expect(items.map((item) => item.code)).toEqual(orders.map(() => '00000'));
  return items.map((item) => item.orderId ?? '');
}

/** A resting order of a fresh account at `price`, for the test's orders to trade against. */
async function restingOrder(side: 'buy' | 'sell', price: string, qty: string): Promise<void> {
  const maker = await newTrader();
  await placeAll(maker, [btc({ side, orderType: 'limit', price, qty })]);
}

describe('E2 place-batch', () => {
  it('answers every order with its own code 00000, msg success, orderId and clientOid', async () => {
    const trader = await newTrader();
    const items = batchResult(
      await placeBatch(trader, [
        btc({ side: 'buy', orderType: 'limit', price: '94000', qty: '0.01', clientOid: 'v3-bid' }),
        btc({ side: 'sell', orderType: 'limit', price: '96000', qty: '0.02', clientOid: 'v3.ask:1/x_y-z' }),
      ]),
    );
    expect(items.map(({ clientOid, code, msg }) => ({ clientOid, code, msg }))).toEqual([
      { clientOid: 'v3-bid', code: '00000', msg: 'success' },
      { clientOid: 'v3.ask:1/x_y-z', code: '00000', msg: 'success' },
    ]);
    const [bidId, askId] = items.map((item) => item.orderId ?? '');
    expect(bidId).toMatch(/^\d+$/);
    expect(await orderDetail(trader, { orderId: bidId ?? '' })).toMatchObject({
      clientOid: 'v3-bid',
      category: 'USDT-FUTURES',
      symbol: 'BTCUSDT',
      side: 'buy',
      orderType: 'limit',
      price: '94000',
      qty: '0.01',
      amount: '940',
      cumExecQty: '0',
      timeInForce: 'gtc',
      orderStatus: 'live',
      posSide: '',
      holdMode: 'one_way_mode',
      tradeSide: 'open',
      reduceOnly: 'NO',
    });
    expect(await orderDetail(trader, { orderId: askId ?? '' })).toMatchObject({
      side: 'sell',
      qty: '0.02',
      price: '96000',
    });
  });

  it('accepts category and symbol in lower case', async () => {
    const trader = await newTrader();
    const [id] = await placeAll(trader, [
      {
        category: 'usdt-futures',
        symbol: 'btcusdt',
        side: 'Buy',
        orderType: 'LIMIT',
        price: '94000',
        qty: '0.01',
      },
    ]);
    expect(await orderDetail(trader, { orderId: id ?? '' })).toMatchObject({
      category: 'USDT-FUTURES',
      symbol: 'BTCUSDT',
    });
  });

  it('answers each bad order with its own code while the good ones are placed', async () => {
    const trader = await newTrader();
    const items = batchResult(
      await placeBatch(trader, [
        btc({ side: 'buy', orderType: 'limit', price: '90000', qty: '0.001', clientOid: 'good-1' }),
        btc({ side: 'buy', orderType: 'limit', price: '90000', qty: '0.001', clientOid: 'bad oid!' }),
        btc({ side: 'buy', orderType: 'limit', price: '90000', qty: '0.001', clientOid: 'x'.repeat(33) }),
        btc({ side: 'buy', orderType: 'limit', price: '90000', qty: '0.001', clientOid: 'good-1' }),
        btc({ side: 'buy', orderType: 'limit', qty: '0.001', clientOid: 'no-price' }),
        btc({
          symbol: 'DOGEUSDT',
          side: 'buy',
          orderType: 'limit',
          price: '1',
          qty: '10',
          clientOid: 'doge',
        }),
        btc({ side: 'buy', orderType: 'limit', price: '90000.05', qty: '0.001', clientOid: 'tick' }),
        btc({ side: 'buy', orderType: 'limit', price: '90000', qty: '0.00015', clientOid: 'step' }),
        btc({ side: 'buy', orderType: 'limit', price: '90000', qty: '0.001', clientOid: 'good-2' }),
      ]),
    );
    expect(items.map(({ clientOid, code }) => [clientOid, code])).toEqual([
      ['good-1', '00000'],
      ['bad oid!', '400172'],
      ['x'.repeat(33), '400172'],
      ['good-1', '25212'],
      ['no-price', '400172'],
      ['doge', '25100'],
      ['tick', '45115'],
      ['step', '40808'],
      ['good-2', '00000'],
    ]);
    expect(items.filter((item) => item.code !== '00000').every((item) => item.orderId === null)).toBe(true);
    expect(items[1]?.msg).toContain('clientOid');
    expect(items[3]?.msg).toBe('Duplicate clientOid');
    expect(items[4]?.msg).toContain('price cannot be empty');
    expect(items[5]?.msg).toContain('DOGEUSDT');

    // A clientOid of an earlier batch is a duplicate too.
    const again = batchResult(
      await placeBatch(trader, [
        btc({ side: 'buy', orderType: 'limit', price: '90000', qty: '0.001', clientOid: 'good-2' }),
      ]),
    );
    expect(again).toMatchObject([{ clientOid: 'good-2', code: '25212', orderId: null }]);
  });

  it('refuses a batch of 21 orders as a whole, and an empty or non-array body', async () => {
    const trader = await newTrader();
    const orders = Array.from({ length: 21 }, (_, index) =>
      btc({ side: 'buy', orderType: 'limit', price: '90000', qty: '0.001', clientOid: `many-${index}` }),
    );
    const tooMany = await placeBatch(trader, orders);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ code: '400172', data: null });
    const placed = await trader.get(orderInfo.path, { clientOid: 'many-0' });
    expect(placed.body?.code).toBe('25204');

    const empty = await placeBatch(trader, []);
    expect(empty.body?.code).toBe('400172');
    const wrapped = await trader.post(placeBatchV3.path, { orderList: orders.slice(0, 1) });
    expect(wrapped.body?.code).toBe('400172');

    // 20 is the limit, not beyond it.
    expect(await placeAll(trader, orders.slice(0, 20))).toHaveLength(20);
  });

  it('refuses an order whose category differs from the first order of the batch', async () => {
    const trader = await newTrader();
    const items = batchResult(
      await placeBatch(trader, [
        btc({ side: 'buy', orderType: 'limit', price: '90000', qty: '0.001', clientOid: 'usdt' }),
        {
          category: 'USDC-FUTURES',
          symbol: 'BTCPERP',
          side: 'buy',
          orderType: 'limit',
          price: '90000',
          qty: '0.001',
          clientOid: 'usdc',
        },
      ]),
    );
    expect(items.map(({ clientOid, code }) => [clientOid, code])).toEqual([
      ['usdt', '00000'],
      ['usdc', '400172'],
    ]);
    expect(items[1]?.msg).toContain('category');
    expect(await positionsOf(trader, 'USDC-FUTURES')).toEqual([]);
  });

  it('refuses SPOT and MARGIN orders on a pair that is not listed (25100)', async () => {
    const trader = await newTrader();
    for (const category of ['SPOT', 'MARGIN']) {
      const items = batchResult(
        await placeBatch(trader, [
          { category, symbol: 'DOGEUSDT', side: 'buy', orderType: 'limit', price: '0.1', qty: '100' },
        ]),
      );
      expect(items).toMatchObject([{ code: '25100', orderId: null }]);
    }
  });

  it('refuses with 25203 an order the margin cannot carry', async () => {
    const trader = await newTrader({ balances: { USDT: '10' } });
    const items = batchResult(
      await placeBatch(trader, [
        // 95/20 + 0.057 = 4.807 fits in 10 USDT; twice that and more does not.
        btc({ side: 'buy', orderType: 'limit', price: '95000', qty: '0.001', clientOid: 'fits' }),
        btc({ side: 'buy', orderType: 'limit', price: '95000', qty: '0.0011', clientOid: 'too-much' }),
      ]),
    );
    expect(items.map(({ clientOid, code }) => [clientOid, code])).toEqual([
      ['fits', '00000'],
      ['too-much', '25203'],
    ]);
    expect(items[1]?.msg).toBe('Insufficient margin');
  });

  it('refuses posSide in one-way mode (40774)', async () => {
    const trader = await newTrader();
    const items = batchResult(
      await placeBatch(trader, [
        btc({ side: 'buy', orderType: 'limit', price: '90000', qty: '0.001', posSide: 'long' }),
      ]),
    );
    expect(items).toMatchObject([{ code: '40774', orderId: null }]);
  });

  it('needs posSide in hedge mode (40774)', async () => {
    const trader = await newTrader({ posMode: 'hedge_mode' });
    const items = batchResult(
      await placeBatch(trader, [
        btc({ side: 'buy', orderType: 'limit', price: '90000', qty: '0.001', clientOid: 'bare' }),
        btc({
          side: 'buy',
          orderType: 'limit',
          price: '90000',
          qty: '0.001',
          posSide: 'long',
          clientOid: 'ok',
        }),
      ]),
    );
    expect(items.map(({ clientOid, code }) => [clientOid, code])).toEqual([
      ['bare', '40774'],
      ['ok', '00000'],
    ]);
  });

  it('hedge mode: buy+long opens a long and sell+long closes it (rule 6)', async () => {
    const trader = await newTrader({ posMode: 'hedge_mode' });
    await restingOrder('sell', '95000', '0.01');
    const [openId] = await placeAll(trader, [
      btc({ side: 'buy', posSide: 'long', orderType: 'market', qty: '0.01' }),
    ]);
    expect(await orderDetail(trader, { orderId: openId ?? '' })).toMatchObject({
      orderStatus: 'filled',
      posSide: 'long',
      holdMode: 'hedge_mode',
      tradeSide: 'open',
      avgPrice: '95000',
    });
    expect(await positionsOf(trader)).toMatchObject([
      { holdSide: 'long', total: '0.01', openPriceAvg: '95000' },
    ]);

    await restingOrder('buy', '96000', '0.01');
    const [closeId] = await placeAll(trader, [
      btc({ side: 'sell', posSide: 'long', orderType: 'market', qty: '0.01' }),
    ]);
    expect(await orderDetail(trader, { orderId: closeId ?? '' })).toMatchObject({
      orderStatus: 'filled',
      tradeSide: 'close',
      avgPrice: '96000',
      feeDetail: [{ feeCoin: 'USDT', fee: '-0.576' }],
    });
    expect(await positionsOf(trader)).toEqual([]);
    expect(await tradeRecordsOf(trader)).toEqual([
      { type: 'OPEN_LONG', amount: '0', fee: '-0.57', balance: '99999.43' },
      { type: 'CLOSE_LONG', amount: '10', fee: '-0.576', balance: '100008.854' },
    ]);
  });

  it('hedge mode: sell+short opens a short and buy+short closes it (rule 6)', async () => {
    const trader = await newTrader({ posMode: 'hedge_mode' });
    await restingOrder('buy', '95000', '0.01');
    await placeAll(trader, [btc({ side: 'sell', posSide: 'short', orderType: 'market', qty: '0.01' })]);
    expect(await positionsOf(trader)).toMatchObject([{ holdSide: 'short', total: '0.01' }]);

    await restingOrder('sell', '94000', '0.01');
    const [closeId] = await placeAll(trader, [
      btc({ side: 'buy', posSide: 'short', orderType: 'limit', price: '94000', qty: '0.01' }),
    ]);
    expect(await orderDetail(trader, { orderId: closeId ?? '' })).toMatchObject({
      orderStatus: 'filled',
      tradeSide: 'close',
    });
    expect(await positionsOf(trader)).toEqual([]);
    expect(await tradeRecordsOf(trader)).toEqual([
      { type: 'OPEN_SHORT', amount: '0', fee: '-0.57', balance: '99999.43' },
      { type: 'CLOSE_SHORT', amount: '10', fee: '-0.564', balance: '100008.866' },
    ]);
  });

  it('hedge mode: a close without a position is refused (22002)', async () => {
    const trader = await newTrader({ posMode: 'hedge_mode' });
    const items = batchResult(
      await placeBatch(trader, [btc({ side: 'sell', posSide: 'long', orderType: 'market', qty: '0.01' })]),
    );
    expect(items).toMatchObject([{ code: '22002', orderId: null }]);
  });

  it('one-way mode: reduceOnly=yes closes a position and is refused without one (rule 7)', async () => {
    const trader = await newTrader();
    const refused = batchResult(
      await placeBatch(trader, [btc({ side: 'sell', orderType: 'market', qty: '0.01', reduceOnly: 'yes' })]),
    );
    expect(refused).toMatchObject([{ code: '22002', orderId: null }]);

    await restingOrder('sell', '95000', '0.01');
    await placeAll(trader, [btc({ side: 'buy', orderType: 'market', qty: '0.01' })]);
    await restingOrder('buy', '95500', '0.01');
    const [closeId] = await placeAll(trader, [
      btc({ side: 'sell', orderType: 'market', qty: '0.01', reduceOnly: 'yes' }),
    ]);
    expect(await orderDetail(trader, { orderId: closeId ?? '' })).toMatchObject({
      orderStatus: 'filled',
      reduceOnly: 'YES',
      tradeSide: 'close',
      posSide: '',
    });
    expect(await positionsOf(trader)).toEqual([]);
    expect((await tradeRecordsOf(trader)).at(-1)).toMatchObject({ type: 'CLOSE_LONG', amount: '5' });
  });
});

describe('E9 place-strategy-order', () => {
  function placeStrategy(client: SignedClient, body: Record<string, string>): Promise<ClientResponse> {
    return client.post(placeStrategyOrder.path, { category: 'USDT-FUTURES', symbol: 'BTCUSDT', ...body });
  }

  /** A long (buy) or short (sell) of 0.01 BTC at 95000. */
  async function openPosition(client: SignedClient, side: 'buy' | 'sell', posSide?: string): Promise<void> {
    await restingOrder(side === 'buy' ? 'sell' : 'buy', '95000', '0.01');
    await placeAll(client, [
      btc({ side, orderType: 'market', qty: '0.01', ...(posSide === undefined ? {} : { posSide }) }),
    ]);
  }

  it('stores a take-profit and a stop-loss and shows them on the position', async () => {
    const trader = await newTrader();
    await openPosition(trader, 'buy');
    const response = await placeStrategy(trader, {
      posSide: 'long',
      clientOid: 'strategy-1',
      takeProfit: '100000',
      stopLoss: '90000',
    });
    expect(response.body?.code).toBe('00000');
    const result = placeStrategyOrder.response.parse(response.body?.data);
    expect(result.clientOid).toBe('strategy-1');
    expect(result.orderId).toMatch(/^\d+$/);
    const [position] = await positionsOf(trader);
    expect(position).toMatchObject({
      holdSide: 'long',
      takeProfit: '100000',
      stopLoss: '90000',
      takeProfitId: result.orderId,
    });
    expect(position?.stopLossId).toMatch(/^\d+$/);
    expect(position?.stopLossId).not.toBe(result.orderId);
  });

  it('takes limit execution prices and mark-price triggers', async () => {
    const trader = await newTrader();
    await openPosition(trader, 'buy');
    const response = await placeStrategy(trader, {
      posSide: 'long',
      takeProfit: '100000',
      tpTriggerBy: 'mark',
      tpOrderType: 'limit',
      tpLimitPrice: '100100',
    });
    expect(response.body?.code).toBe('00000');
    expect(await positionsOf(trader)).toMatchObject([{ takeProfit: '100000', stopLoss: '' }]);

    const noLimitPrice = await placeStrategy(trader, {
      posSide: 'long',
      stopLoss: '90000',
      slOrderType: 'limit',
    });
    expect(noLimitPrice.body?.code).toBe('400172');
  });

  it('names a hedge-mode short by posSide short', async () => {
    const trader = await newTrader({ posMode: 'hedge_mode' });
    await openPosition(trader, 'sell', 'short');
    const response = await placeStrategy(trader, {
      posSide: 'short',
      takeProfit: '90000',
      stopLoss: '99000',
    });
    expect(response.body?.code).toBe('00000');
    expect(await positionsOf(trader)).toMatchObject([
      { holdSide: 'short', takeProfit: '90000', stopLoss: '99000' },
    ]);
  });

  it('places a partial plan only with a qty, and it is not the position-wide take-profit', async () => {
    const trader = await newTrader();
    await openPosition(trader, 'buy');
    const noQty = await placeStrategy(trader, { posSide: 'long', tpslMode: 'partial', takeProfit: '100000' });
    expect(noQty.status).toBe(400);
    expect(noQty.body).toMatchObject({ code: '400172', data: null });
    expect(noQty.body?.msg).toContain('qty');

    const partial = await placeStrategy(trader, {
      posSide: 'long',
      tpslMode: 'partial',
      qty: '0.004',
      takeProfit: '100000',
    });
    expect(partial.body?.code).toBe('00000');
    expect(await positionsOf(trader)).toMatchObject([{ takeProfit: '', takeProfitId: '' }]);

    const tooLarge = await placeStrategy(trader, {
      posSide: 'long',
      tpslMode: 'partial',
      qty: '0.02',
      stopLoss: '90000',
    });
    expect(tooLarge.body?.code).toBe('22002');
  });

  it('refuses without a position on that side (22002)', async () => {
    const trader = await newTrader();
    const none = await placeStrategy(trader, { posSide: 'long', takeProfit: '100000' });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ code: '22002', data: null });
    await openPosition(trader, 'buy');
    const otherSide = await placeStrategy(trader, { posSide: 'short', takeProfit: '90000' });
    expect(otherSide.body?.code).toBe('22002');
  });

  it('refuses a trigger on the wrong side of the price (40917)', async () => {
    const trader = await newTrader();
    await openPosition(trader, 'buy');
    const lowTakeProfit = await placeStrategy(trader, { posSide: 'long', takeProfit: '94000' });
    expect(lowTakeProfit.body).toMatchObject({ code: '40917', msg: 'stop price must be above mark price' });
    const highStopLoss = await placeStrategy(trader, { posSide: 'long', stopLoss: '95500' });
    expect(highStopLoss.body).toMatchObject({ code: '40917', msg: 'stop price must be below mark price' });
    expect(await positionsOf(trader)).toMatchObject([{ takeProfit: '', stopLoss: '' }]);
  });

  it('refuses a duplicate clientOid with 25212 and a malformed one with 400172', async () => {
    const trader = await newTrader();
    await openPosition(trader, 'buy');
    const first = await placeStrategy(trader, { posSide: 'long', clientOid: 'same', takeProfit: '100000' });
    expect(first.body?.code).toBe('00000');
    const again = await placeStrategy(trader, { posSide: 'long', clientOid: 'same', stopLoss: '90000' });
    expect(again.body).toMatchObject({ code: '25212', msg: 'Duplicate clientOid' });
    const malformed = await placeStrategy(trader, {
      posSide: 'long',
      clientOid: 'no spaces',
      stopLoss: '90000',
    });
    expect(malformed.body?.code).toBe('400172');
    expect(await positionsOf(trader)).toMatchObject([{ takeProfit: '100000', stopLoss: '' }]);
  });

  it('needs a takeProfit or a stopLoss, a known symbol and a futures category', async () => {
    const trader = await newTrader();
    await openPosition(trader, 'buy');
    const neither = await placeStrategy(trader, { posSide: 'long' });
    expect(neither.body?.code).toBe('400172');
    const unknown = await placeStrategy(trader, { posSide: 'long', symbol: 'DOGEUSDT', takeProfit: '1' });
    expect(unknown.body?.code).toBe('25100');
    const spot = await placeStrategy(trader, { posSide: 'long', category: 'SPOT', takeProfit: '100000' });
    expect(spot.body?.code).toBe('400172');
  });
});
