// Take-profits and stop-losses firing against a real paper exchange. The simulated market is
// paused, so every trade is between the test's own accounts, and the admin price move changes only
// the mark price: fill_price triggers need a trade at the price, mark_price triggers do not.
import { beforeEach, describe, expect, it } from 'vitest';
import { batchPlaceOrder, historyPosition, ordersPending, placePosTpsl } from '../../shared/api/endpoints';
import type { SignedClient } from '../testing/signed-client';
import { useTraderPool } from '../testing/trader-pool';
import { positionsOf } from '../testing/account-reads';

const pool = useTraderPool();
const newTrader = pool.newTrader;

interface OrderItem {
  side: 'buy' | 'sell';
  orderType?: 'limit' | 'market';
  price?: string;
  size: string;
  tradeSide?: 'open' | 'close';
  reduceOnly?: 'YES' | 'NO';
  presetStopSurplusPrice?: string;
  presetStopLossPrice?: string;
}

async function placeAll(client: SignedClient, orderList: OrderItem[]): Promise<string[]> {
  const response = await client.post(batchPlaceOrder.path, {
    symbol: 'BTCUSDT',
    productType: 'USDT-FUTURES',
    marginCoin: 'USDT',
    marginMode: 'crossed',
    orderList: orderList.map((item) => ({ orderType: 'limit', ...item })),
  });
  expect(response.body?.code).toBe('00000');
  const result = batchPlaceOrder.response.parse(response.body?.data);
  expect(result.failureList).toEqual([]);
  return (result.successList ?? []).map((item) => item.orderId);
}

async function placeTpsl(client: SignedClient, body: Record<string, string>): Promise<string[]> {
  const response = await client.post(placePosTpsl.path, {
    marginCoin: 'USDT',
    productType: 'USDT-FUTURES',
    symbol: 'BTCUSDT',
    ...body,
  });
  expect(response.body?.code).toBe('00000');
  return (placePosTpsl.response.parse(response.body?.data) ?? []).map((plan) => plan.orderId);
}

async function closedPositions(client: SignedClient) {
  const response = await client.get(historyPosition.path, { productType: 'USDT-FUTURES' });
  expect(response.body?.code).toBe('00000');
  return historyPosition.response.parse(response.body?.data).list ?? [];
}

async function pending(client: SignedClient) {
  const response = await client.get(ordersPending.path, { productType: 'USDT-FUTURES' });
  expect(response.body?.code).toBe('00000');
  return ordersPending.response.parse(response.body?.data).entrustedList ?? [];
}

/** Opens a position for `trader` at 95000 against a fresh maker. */
async function openAt95000(trader: SignedClient, side: 'buy' | 'sell', size: string, extra = {}) {
  const maker = await newTrader();
  await placeAll(maker, [{ side: side === 'buy' ? 'sell' : 'buy', price: '95000', size }]);
  await placeAll(trader, [{ side, orderType: 'market', size, ...extra }]);
}

/** Two other accounts trade `size` at `price`, which moves the last (fill) price there. */
async function tradeBetweenOthers(price: string, size = '0.01') {
  const buyer = await newTrader();
  const seller = await newTrader();
  await placeAll(buyer, [{ side: 'buy', price, size }]);
  await placeAll(seller, [{ side: 'sell', price, size }]);
}

beforeEach(async () => {
  await pool.exchange.setPrice('BTCUSDT', '95000');
});

describe('take-profit and stop-loss triggers', () => {
  it('fires a fill_price take-profit on a trade at its price and closes the position at market', async () => {
    const trader = await newTrader();
    await openAt95000(trader, 'buy', '0.01');
    const [takeProfitId, stopLossId] = await placeTpsl(trader, {
      holdSide: 'buy',
      stopSurplusTriggerPrice: '96000',
      stopLossTriggerPrice: '94000',
    });
    expect(await positionsOf(trader)).toMatchObject([
      { takeProfit: '96000', takeProfitId, stopLoss: '94000', stopLossId },
    ]);
    // Liquidity for the market close.
    const bidder = await newTrader();
    await placeAll(bidder, [{ side: 'buy', price: '96000', size: '0.01' }]);

    // The mark alone does not move a fill_price trigger.
    await pool.exchange.setPrice('BTCUSDT', '96000');
    expect(await positionsOf(trader)).toMatchObject([{ total: '0.01', takeProfit: '96000' }]);

    await tradeBetweenOthers('96000');
    expect(await positionsOf(trader)).toEqual([]);
    expect(await closedPositions(trader)).toMatchObject([
      {
        holdSide: 'long',
        openAvgPrice: '95000',
        closeAvgPrice: '96000',
        closeTotalPos: '0.01',
        // 0.01 x (96000 - 95000)
        pnl: '10',
        // taker fees 950 x 0.0006 and 960 x 0.0006
        openFee: '-0.57',
        closeFee: '-0.576',
        netProfit: '8.854',
      },
    ]);
    expect(await positionsOf(bidder)).toMatchObject([{ holdSide: 'long', total: '0.01' }]);

    // The stop-loss ended with the position: a new position starts without one.
    await openAt95000(trader, 'buy', '0.01');
    expect(await positionsOf(trader)).toMatchObject([{ takeProfit: '', stopLoss: '', stopLossId: '' }]);
  });

  it('fires a mark_price stop-loss on the admin price move alone', async () => {
    const trader = await newTrader();
    await openAt95000(trader, 'buy', '0.01');
    await placeTpsl(trader, {
      holdSide: 'buy',
      stopLossTriggerPrice: '94000',
      stopLossTriggerType: 'mark_price',
    });
    const bidder = await newTrader();
    await placeAll(bidder, [{ side: 'buy', price: '93900', size: '0.01' }]);

    await pool.exchange.setPrice('BTCUSDT', '94500');
    expect(await positionsOf(trader)).toMatchObject([{ total: '0.01', stopLoss: '94000' }]);
    await pool.exchange.setPrice('BTCUSDT', '94000');
    expect(await positionsOf(trader)).toEqual([]);
    expect(await closedPositions(trader)).toMatchObject([
      // 0.01 x (93900 - 95000); close fee 939 x 0.0006
      { closeAvgPrice: '93900', pnl: '-11', closeFee: '-0.5634' },
    ]);
  });

  it('closes only its size for a partial take-profit, with a limit order named profit_limit', async () => {
    const trader = await newTrader();
    await openAt95000(trader, 'buy', '0.03');
    const [planId] = await placeTpsl(trader, {
      holdSide: 'buy',
      stopSurplusTriggerPrice: '96000',
      stopSurplusSize: '0.01',
      stopSurplusExecutePrice: '96100',
    });
    expect(planId).toMatch(/^\d+$/);

    await tradeBetweenOthers('96000');
    const [close] = await pending(trader);
    expect(close).toMatchObject({
      side: 'sell',
      price: '96100',
      size: '0.01',
      orderType: 'limit',
      orderSource: 'profit_limit',
      reduceOnly: 'YES',
    });
    expect(await positionsOf(trader)).toMatchObject([{ total: '0.03', available: '0.02' }]);

    const buyer = await newTrader();
    await placeAll(buyer, [{ side: 'buy', orderType: 'market', size: '0.01' }]);
    expect(await pending(trader)).toEqual([]);
    // Maker close 0.01 x 1100 realized; the rest stays open.
    expect(await positionsOf(trader)).toMatchObject([{ total: '0.02', achievedProfits: '11' }]);
  });

  it('never fires the plan of a position closed by hand, even for a new position', async () => {
    const trader = await newTrader();
    await openAt95000(trader, 'buy', '0.01');
    await placeTpsl(trader, { holdSide: 'buy', stopSurplusTriggerPrice: '96000' });
    const bidder = await newTrader();
    await placeAll(bidder, [{ side: 'buy', price: '95000', size: '0.01' }]);
    await placeAll(trader, [{ side: 'sell', orderType: 'market', size: '0.01', reduceOnly: 'YES' }]);
    expect(await positionsOf(trader)).toEqual([]);

    await openAt95000(trader, 'buy', '0.01');
    await placeAll(await newTrader(), [{ side: 'buy', price: '96000', size: '0.01' }]);
    await tradeBetweenOthers('96000');
    expect(await positionsOf(trader)).toMatchObject([{ holdSide: 'long', total: '0.01', takeProfit: '' }]);
  });

  it('sets an E1 preset take-profit when the order fills and fires it', async () => {
    const trader = await newTrader();
    await openAt95000(trader, 'buy', '0.01', { presetStopSurplusPrice: '96000' });
    const [position] = await positionsOf(trader);
    expect(position).toMatchObject({ total: '0.01', takeProfit: '96000', stopLoss: '' });
    expect(position?.takeProfitId).toMatch(/^\d+$/);

    await placeAll(await newTrader(), [{ side: 'buy', price: '96000', size: '0.01' }]);
    await tradeBetweenOthers('96000');
    expect(await positionsOf(trader)).toEqual([]);
    expect(await closedPositions(trader)).toMatchObject([{ closeAvgPrice: '96000', pnl: '10' }]);
  });

  it('closes a hedge-mode short with its take-profit, never opening a long', async () => {
    const trader = await newTrader({ posMode: 'hedge_mode' });
    await openAt95000(trader, 'sell', '0.01', { tradeSide: 'open' });
    await placeTpsl(trader, { holdSide: 'short', stopSurplusTriggerPrice: '94000' });
    await placeAll(await newTrader(), [{ side: 'sell', price: '94000', size: '0.02' }]);
    await tradeBetweenOthers('94000');
    expect(await positionsOf(trader)).toEqual([]);
    expect(await closedPositions(trader)).toMatchObject([
      { holdSide: 'short', closeAvgPrice: '94000', pnl: '10' },
    ]);
  });
});
