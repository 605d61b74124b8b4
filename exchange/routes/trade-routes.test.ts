// E1 batch-place-order against a real paper exchange. The simulated market is paused and the book
// empty, so every fill is between the test's own accounts and every price, fee and balance is exact.
import { describe, expect, it } from 'vitest';
import { ordersPending } from '../../shared/api/endpoints';
import type { SignedClient } from '../testing/signed-client';
import { useTraderPool } from '../testing/trader-pool';
import { availableUsdtOf, orderDetail, positionsOf, tradeRecordsOf } from '../testing/account-reads';
import { openPosition, place, placeAll, placedResult } from '../testing/batch-orders';

const pool = useTraderPool();
const newTrader = pool.newTrader;

async function pending(client: SignedClient, query: Record<string, string> = {}) {
  const response = await client.get(ordersPending.path, { productType: 'USDT-FUTURES', ...query });
  expect(response.body?.code).toBe('00000');
  return ordersPending.response.parse(response.body?.data).entrustedList ?? [];
}

describe('E1 batch-place-order: accepted orders', () => {
  it('lists every accepted order with its id and clientOid, rests it and reserves its margin', async () => {
    const trader = await newTrader();
    const result = placedResult(
      await place(trader, [
        { side: 'buy', orderType: 'limit', price: '94000', size: '0.01', clientOid: 'e1-bid' },
        { side: 'sell', orderType: 'limit', price: '96000', size: '0.02', clientOid: 'e1-ask' },
      ]),
    );
    expect(result.failureList).toEqual([]);
    expect(result.successList.map((item) => item.clientOid)).toEqual(['e1-bid', 'e1-ask']);
    const [bidId, askId] = result.successList.map((item) => item.orderId);
    expect(bidId).toMatch(/^\d+$/);
    expect(askId).toMatch(/^\d+$/);
    expect(bidId).not.toBe(askId);

    const list = await pending(trader);
    expect(list.map((item) => [item.orderId, item.clientOid, item.side, item.price, item.size])).toEqual([
      [askId, 'e1-ask', 'sell', '96000', '0.02'],
      [bidId, 'e1-bid', 'buy', '94000', '0.01'],
    ]);
    expect(list[0]).toMatchObject({
      symbol: 'BTCUSDT',
      status: 'live',
      force: 'gtc',
      orderType: 'limit',
      posSide: 'net',
      posMode: 'one_way_mode',
      tradeSide: 'sell_single',
      reduceOnly: 'NO',
      marginMode: 'crossed',
      marginCoin: 'USDT',
      leverage: '20',
      baseVolume: '0',
      priceAvg: '',
    });
    // Margin at 20x plus the taker fee: 940/20 + 0.564 and 1920/20 + 1.152.
    expect(await availableUsdtOf(trader)).toBe('99855.284');
  });

  it('accepts productType, symbol and enum values in any letter case', async () => {
    const trader = await newTrader();
    const result = placedResult(
      await place(
        trader,
        [{ side: 'BUY', orderType: 'Limit', price: '94000', size: '0.01', force: 'GTC', clientOid: 'lc' }],
        { productType: 'usdt-futures', symbol: 'btcusdt', marginCoin: 'usdt', marginMode: 'CROSSED' },
      ),
    );
    expect(result.successList).toHaveLength(1);
    expect(await pending(trader)).toMatchObject([{ clientOid: 'lc', symbol: 'BTCUSDT', side: 'buy' }]);
  });

  it('generates a clientOid when none is given and shows the preset take-profit and stop-loss', async () => {
    const trader = await newTrader();
    const result = placedResult(
      await place(trader, [
        {
          side: 'buy',
          orderType: 'limit',
          price: '94000',
          size: '0.01',
          presetStopSurplusPrice: '99000',
          presetStopLossPrice: '90000',
        },
      ]),
    );
    const placed = result.successList[0];
    expect(placed?.clientOid).not.toBe('');
    expect(await pending(trader)).toMatchObject([
      {
        orderId: placed?.orderId,
        clientOid: placed?.clientOid,
        presetStopSurplusPrice: '99000',
        presetStopLossPrice: '90000',
      },
    ]);
  });
});

describe('E1 batch-place-order: refusals', () => {
  it('answers each bad order in failureList with its own code while the good ones are placed', async () => {
    const trader = await newTrader();
    const result = placedResult(
      await place(trader, [
        { side: 'buy', orderType: 'limit', price: '90000', size: '0.001', clientOid: 'mix-ok' },
        { side: 'buy', orderType: 'limit', size: '0.001', clientOid: 'mix-no-price' },
        { side: 'up', orderType: 'limit', price: '90000', size: '0.001', clientOid: 'mix-side' },
        { side: 'buy', orderType: 'limit', price: '90000.05', size: '0.001', clientOid: 'mix-tick' },
        { side: 'buy', orderType: 'limit', price: '90000', size: '0.00015', clientOid: 'mix-scale' },
        { side: 'buy', orderType: 'limit', price: '90000', size: '0.00005', clientOid: 'mix-min-size' },
        { side: 'buy', orderType: 'limit', price: '40000', size: '0.0001', clientOid: 'mix-notional' },
        { side: 'buy', orderType: 'limit', price: '90000', size: '0.001', clientOid: 'mix-ok' },
        { side: 'buy', orderType: 'limit', price: '90000', size: '0.001', clientOid: 'mix-ok-2' },
      ]),
    );
    expect(result.successList.map((item) => item.clientOid)).toEqual(['mix-ok', 'mix-ok-2']);
    expect(result.failureList.map((item) => [item.clientOid, item.errorCode, item.orderId])).toEqual([
      ['mix-no-price', '40019', ''],
      ['mix-side', '40020', ''],
      ['mix-tick', '45115', ''],
      ['mix-scale', '40808', ''],
      ['mix-min-size', '45111', ''],
      ['mix-notional', '45110', ''],
      ['mix-ok', '40786', ''],
    ]);
    const message = (clientOid: string) =>
      result.failureList.find((item) => item.clientOid === clientOid)?.errorMsg;
    expect(message('mix-no-price')).toContain('orderList[1].price cannot be empty');
    expect(message('mix-side')).toContain('orderList[2].side');
    expect(message('mix-tick')).toBe('The price you enter should be a multiple of 0.1');
    expect(message('mix-scale')).toBe(
      'Parameter verification exception checkBDScale error value=0.00015 checkScale=4',
    );
    expect(message('mix-min-size')).toBe('less than the minimum order quantity');
    expect(message('mix-notional')).toBe('less than the minimum amount 5 USDT');
    expect(message('mix-ok')).toBe('Duplicate clientOid');

    expect((await pending(trader)).map((item) => item.clientOid)).toEqual(['mix-ok-2', 'mix-ok']);
  });

  it('refuses a clientOid used by an earlier order, even a finished one', async () => {
    const trader = await newTrader();
    const [first] = await placeAll(trader, [
      { side: 'buy', orderType: 'limit', price: '90000', size: '0.001', clientOid: 'reused' },
    ]);
    await trader.post('/api/v2/mix/order/batch-cancel-orders', {
      productType: 'USDT-FUTURES',
      symbol: 'BTCUSDT',
      orderIdList: [{ orderId: first }],
    });
    const again = placedResult(
      await place(trader, [
        { side: 'buy', orderType: 'limit', price: '90000', size: '0.001', clientOid: 'reused' },
      ]),
    );
    expect(again.successList).toEqual([]);
    expect(again.failureList).toMatchObject([{ clientOid: 'reused', errorCode: '40786' }]);
    expect(await pending(trader)).toEqual([]);
  });

  it('fails every order of a batch for an unknown symbol or one of another product type', async () => {
    const trader = await newTrader();
    for (const symbol of ['DOGEUSDT', 'BTCUSD']) {
      const result = placedResult(
        await place(
          trader,
          [
            { side: 'buy', orderType: 'limit', price: '90000', size: '0.001', clientOid: `${symbol}-1` },
            { side: 'sell', orderType: 'limit', price: '99000', size: '0.001', clientOid: `${symbol}-2` },
          ],
          { symbol },
        ),
      );
      expect(result.successList).toEqual([]);
      expect(result.failureList.map((item) => [item.clientOid, item.errorCode])).toEqual([
        [`${symbol}-1`, '40034'],
        [`${symbol}-2`, '40034'],
      ]);
      expect(result.failureList[0]?.errorMsg).toContain(symbol);
    }
    expect(await pending(trader)).toEqual([]);
  });

  it('fails orders whose marginCoin is not the contract margin coin', async () => {
    const trader = await newTrader();
    const result = placedResult(
      await place(trader, [{ side: 'buy', orderType: 'limit', price: '90000', size: '0.001' }], {
        marginCoin: 'USDC',
      }),
    );
    expect(result.successList).toEqual([]);
    expect(result.failureList).toMatchObject([{ errorCode: '40020' }]);
    expect(result.failureList[0]?.errorMsg).toContain('marginCoin');
    expect(await pending(trader)).toEqual([]);
  });

  it('refuses a list of 51 orders as a whole and places none of them', async () => {
    const trader = await newTrader();
    const orders = Array.from({ length: 51 }, (_, index) => ({
      side: 'buy',
      orderType: 'limit',
      price: '90000',
      size: '0.001',
      clientOid: `many-${index}`,
    }));
    const response = await place(trader, orders);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: '40020', data: null });
    expect(response.body?.msg).toContain('orderList');
    expect(await pending(trader)).toEqual([]);
    // 50 is the limit, not beyond it.
    expect(await placeAll(trader, orders.slice(0, 50))).toHaveLength(50);
  });

  it('refuses with 40762 an order the balance cannot carry, counting the orders before it', async () => {
    const trader = await newTrader({ balances: { USDT: '50' } });
    const result = placedResult(
      await place(trader, [
        // 950/20 + 0.57 = 48.07 of the 50 USDT.
        { side: 'buy', orderType: 'limit', price: '95000', size: '0.01', clientOid: 'fits' },
        // 190/20 + 0.114 = 9.614 more: beyond the 1.93 left.
        { side: 'buy', orderType: 'limit', price: '95000', size: '0.002', clientOid: 'too-much' },
      ]),
    );
    expect(result.successList.map((item) => item.clientOid)).toEqual(['fits']);
    expect(result.failureList).toMatchObject([{ clientOid: 'too-much', errorCode: '40762' }]);
    expect(await availableUsdtOf(trader)).toBe('1.93');
  });

  it('needs tradeSide on every order in hedge mode (40774)', async () => {
    const trader = await newTrader({ posMode: 'hedge_mode' });
    const result = placedResult(
      await place(trader, [
        { side: 'buy', orderType: 'limit', price: '90000', size: '0.001', clientOid: 'no-trade-side' },
        {
          side: 'buy',
          tradeSide: 'open',
          orderType: 'limit',
          price: '90000',
          size: '0.001',
          clientOid: 'open-long',
        },
      ]),
    );
    expect(result.failureList).toMatchObject([{ clientOid: 'no-trade-side', errorCode: '40774' }]);
    expect(result.successList.map((item) => item.clientOid)).toEqual(['open-long']);
    expect(await pending(trader)).toMatchObject([
      { clientOid: 'open-long', posSide: 'long', tradeSide: 'open', posMode: 'hedge_mode' },
    ]);
  });

  it('ignores tradeSide in one-way mode (rule 2): close without a position opens one', async () => {
    const trader = await newTrader();
    const maker = await newTrader();
    await placeAll(maker, [{ side: 'sell', orderType: 'limit', price: '95000', size: '0.01' }]);
    const [id] = await placeAll(trader, [
      { side: 'buy', tradeSide: 'close', orderType: 'market', size: '0.01' },
    ]);
    expect(await orderDetail(trader, { orderId: id ?? '' })).toMatchObject({
      orderStatus: 'filled',
      reduceOnly: 'NO',
    });
    expect(await positionsOf(trader)).toMatchObject([{ holdSide: 'long', total: '0.01' }]);
  });

  it('refuses a one-way reduce-only order without a position to reduce (22002)', async () => {
    const trader = await newTrader();
    const result = placedResult(
      await place(trader, [
        { side: 'sell', orderType: 'limit', price: '99000', size: '0.001', reduceOnly: 'YES' },
        { side: 'buy', orderType: 'market', size: '0.001', reduceOnly: 'YES' },
      ]),
    );
    expect(result.successList).toEqual([]);
    expect(result.failureList.map((item) => item.errorCode)).toEqual(['22002', '22002']);
    expect(await pending(trader)).toEqual([]);
  });
});

describe('E1 batch-place-order: matching', () => {
  it('fills a market order against resting orders of another account at their prices, with exact fees', async () => {
    const maker = await newTrader();
    const taker = await newTrader();
    const [, makerSecond] = await placeAll(maker, [
      { side: 'sell', orderType: 'limit', price: '95000', size: '0.01' },
      { side: 'sell', orderType: 'limit', price: '95010', size: '0.02' },
    ]);
    const [takerId] = await placeAll(taker, [{ side: 'buy', orderType: 'market', size: '0.02' }]);

    expect(await orderDetail(taker, { orderId: takerId ?? '' })).toMatchObject({
      orderStatus: 'filled',
      orderType: 'market',
      qty: '0.02',
      cumExecQty: '0.02',
      cumExecValue: '1900.1',
      avgPrice: '95005',
      // Taker 0.06% of 950 and of 950.1.
      feeDetail: [{ feeCoin: 'USDT', fee: '-1.14006' }],
    });
    expect(await tradeRecordsOf(taker)).toEqual([
      { type: 'OPEN_LONG', amount: '0', fee: '-0.57', balance: '99999.43' },
      { type: 'OPEN_LONG', amount: '0', fee: '-0.57006', balance: '99998.85994' },
    ]);
    expect(await positionsOf(taker)).toMatchObject([
      {
        symbol: 'BTCUSDT',
        holdSide: 'long',
        total: '0.02',
        available: '0.02',
        openPriceAvg: '95005',
        marginSize: '95.005',
        leverage: '20',
        posMode: 'one_way_mode',
      },
    ]);

    // The maker paid 0.02% and keeps half of its second order on the book.
    expect(await tradeRecordsOf(maker)).toEqual([
      { type: 'OPEN_SHORT', amount: '0', fee: '-0.19', balance: '99999.81' },
      { type: 'OPEN_SHORT', amount: '0', fee: '-0.19002', balance: '99999.61998' },
    ]);
    expect(await pending(maker)).toEqual([]);
    expect(await pending(maker, { status: 'partially_filled' })).toMatchObject([
      { orderId: makerSecond, status: 'partially_filled', size: '0.02', baseVolume: '0.01', price: '95010' },
    ]);
  });

  it('closes a one-way position with a reduce-only order and books the realized PnL', async () => {
    const trader = await newTrader();
    await openPosition(trader, await newTrader(), 'buy', '0.01');
    const bidder = await newTrader();
    await placeAll(bidder, [{ side: 'buy', orderType: 'limit', price: '96000', size: '0.01' }]);
    const [closeId] = await placeAll(trader, [
      { side: 'sell', orderType: 'market', size: '0.01', reduceOnly: 'YES' },
    ]);

    expect(await orderDetail(trader, { orderId: closeId ?? '' })).toMatchObject({
      orderStatus: 'filled',
      reduceOnly: 'YES',
      tradeSide: 'close',
      avgPrice: '96000',
      feeDetail: [{ feeCoin: 'USDT', fee: '-0.576' }],
    });
    expect(await positionsOf(trader)).toEqual([]);
    // Opened at 95000 with a 0.57 fee, closed at 96000: +10 PnL, 0.576 fee.
    expect(await tradeRecordsOf(trader)).toEqual([
      { type: 'OPEN_LONG', amount: '0', fee: '-0.57', balance: '99999.43' },
      { type: 'CLOSE_LONG', amount: '10', fee: '-0.576', balance: '100008.854' },
    ]);
    expect(await availableUsdtOf(trader)).toBe('100008.854');
  });

  it('closes a hedge-mode long with side=buy and tradeSide=close, selling to the bids', async () => {
    const trader = await newTrader({ posMode: 'hedge_mode' });
    await openPosition(trader, await newTrader(), 'buy', '0.01', { tradeSide: 'open' });
    expect(await positionsOf(trader)).toMatchObject([
      { holdSide: 'long', total: '0.01', posMode: 'hedge_mode' },
    ]);

    const bidder = await newTrader();
    await placeAll(bidder, [{ side: 'buy', orderType: 'limit', price: '96000', size: '0.01' }]);
    const [closeId] = await placeAll(trader, [
      { side: 'buy', tradeSide: 'close', orderType: 'market', size: '0.01' },
    ]);

    expect(await orderDetail(trader, { orderId: closeId ?? '' })).toMatchObject({
      orderStatus: 'filled',
      cumExecQty: '0.01',
      avgPrice: '96000',
      posSide: 'long',
      tradeSide: 'close',
    });
    expect(await positionsOf(trader)).toEqual([]);
    expect(await tradeRecordsOf(trader)).toEqual([
      { type: 'OPEN_LONG', amount: '0', fee: '-0.57', balance: '99999.43' },
      { type: 'CLOSE_LONG', amount: '10', fee: '-0.576', balance: '100008.854' },
    ]);
    expect(await positionsOf(bidder)).toMatchObject([
      { holdSide: 'long', total: '0.01', openPriceAvg: '96000' },
    ]);
  });

  it('closes a hedge-mode short with side=sell and tradeSide=close, buying from the asks', async () => {
    const trader = await newTrader({ posMode: 'hedge_mode' });
    await openPosition(trader, await newTrader(), 'sell', '0.01', { tradeSide: 'open' });
    expect(await positionsOf(trader)).toMatchObject([{ holdSide: 'short', total: '0.01' }]);

    const asker = await newTrader();
    await placeAll(asker, [{ side: 'sell', orderType: 'limit', price: '94000', size: '0.01' }]);
    const [closeId] = await placeAll(trader, [
      { side: 'sell', tradeSide: 'close', orderType: 'limit', price: '94000', size: '0.01' },
    ]);

    expect(await orderDetail(trader, { orderId: closeId ?? '' })).toMatchObject({
      orderStatus: 'filled',
      avgPrice: '94000',
    });
    expect(await positionsOf(trader)).toEqual([]);
    // Short from 95000, bought back at 94000: +10; fees 0.57 and 0.564.
    expect(await tradeRecordsOf(trader)).toEqual([
      { type: 'OPEN_SHORT', amount: '0', fee: '-0.57', balance: '99999.43' },
      { type: 'CLOSE_SHORT', amount: '10', fee: '-0.564', balance: '100008.866' },
    ]);
  });

  it('ioc fills what it can at once and cancels the rest', async () => {
    const maker = await newTrader();
    const taker = await newTrader();
    await placeAll(maker, [{ side: 'sell', orderType: 'limit', price: '95000', size: '0.01' }]);
    const [iocId] = await placeAll(taker, [
      { side: 'buy', orderType: 'limit', force: 'ioc', price: '95000', size: '0.03' },
    ]);
    expect(await orderDetail(taker, { orderId: iocId ?? '' })).toMatchObject({
      orderStatus: 'cancelled',
      timeInForce: 'ioc',
      qty: '0.03',
      cumExecQty: '0.01',
      avgPrice: '95000',
    });
    expect(await pending(taker)).toEqual([]);
    expect(await positionsOf(taker)).toMatchObject([{ total: '0.01' }]);
    // Nothing stays reserved for the cancelled rest.
    expect(await availableUsdtOf(taker)).toBe('99951.93');
  });

  it('fok fills completely or not at all', async () => {
    const maker = await newTrader();
    const taker = await newTrader();
    const [askId] = await placeAll(maker, [
      { side: 'sell', orderType: 'limit', price: '95000', size: '0.01' },
    ]);
    const [tooBig, fits] = await placeAll(taker, [
      { side: 'buy', orderType: 'limit', force: 'fok', price: '95000', size: '0.02' },
      { side: 'buy', orderType: 'limit', force: 'fok', price: '95000', size: '0.01' },
    ]);
    expect(await orderDetail(taker, { orderId: tooBig ?? '' })).toMatchObject({
      orderStatus: 'cancelled',
      cumExecQty: '0',
    });
    expect(await orderDetail(taker, { orderId: fits ?? '' })).toMatchObject({
      orderStatus: 'filled',
      cumExecQty: '0.01',
    });
    expect(await orderDetail(maker, { orderId: askId ?? '' })).toMatchObject({ orderStatus: 'filled' });
  });

  it('post_only rests when it would not take and is cancelled when it would', async () => {
    const maker = await newTrader();
    const trader = await newTrader();
    const [askId] = await placeAll(maker, [
      { side: 'sell', orderType: 'limit', price: '95000', size: '0.01' },
    ]);
    const [crossing, resting] = await placeAll(trader, [
      { side: 'buy', orderType: 'limit', force: 'post_only', price: '95000', size: '0.01' },
      { side: 'buy', orderType: 'limit', force: 'post_only', price: '94999.9', size: '0.01' },
    ]);
    expect(await orderDetail(trader, { orderId: crossing ?? '' })).toMatchObject({
      orderStatus: 'cancelled',
      cumExecQty: '0',
    });
    expect(await pending(trader)).toMatchObject([{ orderId: resting, force: 'post_only', status: 'live' }]);
    expect(await orderDetail(maker, { orderId: askId ?? '' })).toMatchObject({
      orderStatus: 'live',
      cumExecQty: '0',
    });
    expect(await positionsOf(trader)).toEqual([]);
  });

  it('self-trade prevention cancel_taker cancels the incoming order and keeps the resting one', async () => {
    const trader = await newTrader();
    const [askId] = await placeAll(trader, [
      { side: 'sell', orderType: 'limit', price: '95000', size: '0.01' },
    ]);
    const [bidId] = await placeAll(trader, [
      { side: 'buy', orderType: 'limit', price: '95000', size: '0.01', stpMode: 'cancel_taker' },
    ]);
    expect(await orderDetail(trader, { orderId: bidId ?? '' })).toMatchObject({
      orderStatus: 'cancelled',
      stpMode: 'cancel_taker',
      cumExecQty: '0',
    });
    expect(await orderDetail(trader, { orderId: askId ?? '' })).toMatchObject({ orderStatus: 'live' });
    expect(await positionsOf(trader)).toEqual([]);
  });

  it('self-trade prevention cancel_maker cancels the resting order and rests the incoming one', async () => {
    const trader = await newTrader();
    const [askId] = await placeAll(trader, [
      { side: 'sell', orderType: 'limit', price: '95000', size: '0.01' },
    ]);
    const [bidId] = await placeAll(trader, [
      { side: 'buy', orderType: 'limit', price: '95000', size: '0.01', stpMode: 'cancel_maker' },
    ]);
    expect(await orderDetail(trader, { orderId: askId ?? '' })).toMatchObject({
      orderStatus: 'cancelled',
      cumExecQty: '0',
    });
    expect(await orderDetail(trader, { orderId: bidId ?? '' })).toMatchObject({
      orderStatus: 'live',
      cumExecQty: '0',
    });
    expect(await positionsOf(trader)).toEqual([]);
  });

  it('self-trade prevention cancel_both cancels both orders, and other accounts still trade', async () => {
    const trader = await newTrader();
    const other = await newTrader();
    const [ownAsk] = await placeAll(trader, [
      { side: 'sell', orderType: 'limit', price: '95000', size: '0.01' },
    ]);
    const [bidId] = await placeAll(trader, [
      { side: 'buy', orderType: 'limit', price: '95000', size: '0.01', stpMode: 'cancel_both' },
    ]);
    expect(await orderDetail(trader, { orderId: ownAsk ?? '' })).toMatchObject({ orderStatus: 'cancelled' });
    expect(await orderDetail(trader, { orderId: bidId ?? '' })).toMatchObject({ orderStatus: 'cancelled' });

    // stpMode concerns only the account's own orders.
    await placeAll(other, [{ side: 'sell', orderType: 'limit', price: '95000', size: '0.01' }]);
    const [matched] = await placeAll(trader, [
      { side: 'buy', orderType: 'limit', price: '95000', size: '0.01', stpMode: 'cancel_both' },
    ]);
    expect(await orderDetail(trader, { orderId: matched ?? '' })).toMatchObject({
      orderStatus: 'filled',
      cumExecQty: '0.01',
    });
  });
});
