// E2 with category SPOT and MARGIN against a real paper exchange whose simulated market is paused:
// only the test's accounts trade, at exact prices. Every test leaves the book as it found it: makers
// rest exactly what the taker takes, and resting orders stay far below the market (the cancel of a
// spot order, C5, has tests of its own).
import { describe, expect, it } from 'vitest';
import { financialRecords, maxTransferable, placeBatchV3 } from '../../shared/api/endpoints';
import { orderDetail } from '../testing/account-reads';
import { ok } from '../testing/responses';
import type { SignedClient } from '../testing/signed-client';
import { useTraderPool } from '../testing/trader-pool';

const pool = useTraderPool();

interface SpotOrder {
  category?: string;
  symbol?: string;
  side: string;
  orderType: string;
  qty: string;
  price?: string;
  timeInForce?: string;
  clientOid?: string;
  marginMode?: string;
}

const spot = (order: SpotOrder) => ({ category: 'SPOT', symbol: 'BTCUSDT', ...order });

async function place(client: SignedClient, orders: SpotOrder[]) {
  const data = ok(await client.post(placeBatchV3.path, orders.map(spot)));
  return placeBatchV3.response.parse(data);
}

async function placeOne(client: SignedClient, order: SpotOrder): Promise<string> {
  const [item] = await place(client, [order]);
  expect(item?.code, item?.msg).toBe('00000');
  return item?.orderId ?? '';
}

async function records(client: SignedClient, category: 'SPOT' | 'MARGIN') {
  const data = ok(await client.get(financialRecords.path, { category }));
  return (financialRecords.response.parse(data).list ?? [])
    .reverse()
    .map(({ coin, type, amount, fee, balance }) => ({ coin, type, amount, fee, balance }));
}

async function transferable(client: SignedClient, coin: string) {
  return maxTransferable.response.parse(ok(await client.get(maxTransferable.path, { coin })));
}

describe('spot orders (E2 category SPOT)', () => {
  it('a limit buy moves quote to base, the fee taken in the base coin received', async () => {
    const seller = await pool.newTrader({ balances: { BTC: '1' } });
    const buyer = await pool.newTrader({ balances: { USDT: '10000' } });
    await placeOne(seller, { side: 'sell', orderType: 'limit', price: '95000', qty: '0.01' });
    const id = await placeOne(buyer, { side: 'buy', orderType: 'limit', price: '95000', qty: '0.01' });
    // Buyer: pays 0.01 x 95000 = 950 USDT and gets 0.01 BTC less 0.1% = 0.00001 BTC of fee.
    expect(await records(buyer, 'SPOT')).toEqual([
      { coin: 'USDT', type: 'ORDER_DEALT_OUT', amount: '-950', fee: '0', balance: '9050' },
      { coin: 'BTC', type: 'ORDER_DEALT_IN', amount: '0.01', fee: '-0.00001', balance: '0.00999' },
    ]);
    // Seller (maker, 0.1% too): gives 0.01 BTC, gets 950 USDT less 0.95 USDT of fee.
    expect(await records(seller, 'SPOT')).toEqual([
      { coin: 'BTC', type: 'ORDER_DEALT_OUT', amount: '-0.01', fee: '0', balance: '0.99' },
      { coin: 'USDT', type: 'ORDER_DEALT_IN', amount: '950', fee: '-0.95', balance: '949.05' },
    ]);
    expect(await orderDetail(buyer, { orderId: id })).toMatchObject({
      category: 'SPOT',
      symbol: 'BTCUSDT',
      side: 'buy',
      orderType: 'limit',
      price: '95000',
      qty: '0.01',
      amount: '950',
      cumExecQty: '0.01',
      cumExecValue: '950',
      avgPrice: '95000',
      orderStatus: 'filled',
      feeDetail: [{ feeCoin: 'BTC', fee: '-0.00001' }],
    });
    expect((await transferable(buyer, 'BTC')).maxTransfer).toBe('0.00999');
  });

  it('a market buy is sized in the quote coin and a market sell in the base coin', async () => {
    const maker = await pool.newTrader({ balances: { USDT: '100000', SOL: '100' } });
    const taker = await pool.newTrader({ balances: { USDT: '1000', SOL: '10' } });
    // Two ask levels: 1 SOL at 180.000 and 1 SOL at 180.500; 270 USDT buys the first and
    // 90 / 180.5 = 0.498 SOL (lots of 0.001) of the second, 89.889 USDT; 0.111 USDT is left over.
    await placeOne(maker, { symbol: 'SOLUSDT', side: 'sell', orderType: 'limit', price: '180', qty: '1' });
    await placeOne(maker, {
      symbol: 'SOLUSDT',
      side: 'sell',
      orderType: 'limit',
      price: '180.5',
      qty: '0.498',
    });
    const buyId = await placeOne(taker, { symbol: 'SOLUSDT', side: 'buy', orderType: 'market', qty: '270' });
    expect(await orderDetail(taker, { orderId: buyId })).toMatchObject({
      qty: '',
      amount: '270',
      cumExecQty: '1.498',
      cumExecValue: '269.889',
      orderStatus: 'filled',
      // 1.498 SOL x 0.1% = 0.001498 SOL.
      feeDetail: [{ feeCoin: 'SOL', fee: '-0.001498' }],
    });
    // A market sell of 2 SOL into a 2 SOL bid at 179: 358 USDT less 0.358 USDT of fee.
    await placeOne(maker, { symbol: 'SOLUSDT', side: 'buy', orderType: 'limit', price: '179', qty: '2' });
    const sellId = await placeOne(taker, { symbol: 'SOLUSDT', side: 'sell', orderType: 'market', qty: '2' });
    expect(await orderDetail(taker, { orderId: sellId })).toMatchObject({
      qty: '2',
      cumExecValue: '358',
      orderStatus: 'filled',
      feeDetail: [{ feeCoin: 'USDT', fee: '-0.358' }],
    });
    // USDT: 1000 - 269.889 + 358 - 0.358 = 1087.753; SOL: 10 + 1.498 - 0.001498 - 2 = 9.496502.
    expect((await transferable(taker, 'USDT')).maxTransfer).toBe('1087.753');
    expect((await transferable(taker, 'SOL')).maxTransfer).toBe('9.496502');
  });

  it('an open order reserves its coin, so nothing is spent twice', async () => {
    const trader = await pool.newTrader({ balances: { USDT: '1000' } });
    // 0.001 BTC at 10000 (far below the market, it rests) reserves 10 USDT. With borrowing, b more
    // may leave while b <= 2 x (1000 - 990 - b): b = 20 / 3 = 6.66666666.
    await placeOne(trader, { side: 'buy', orderType: 'limit', price: '10000', qty: '0.001' });
    expect(await transferable(trader, 'USDT')).toEqual({
      coin: 'USDT',
      maxTransfer: '990',
      borrowMaxTransfer: '996.66666666',
    });
    // 990 USDT are left: a second order for 0.1 BTC at 10000 (1000 USDT) is refused.
    const [refused] = await place(trader, [
      { side: 'buy', orderType: 'limit', price: '10000', qty: '0.1', clientOid: 'too-big' },
    ]);
    expect(refused).toMatchObject({ orderId: null, clientOid: 'too-big', code: '25203' });
    // An IOC order that finds nothing is cancelled and gives its reservation back.
    const iocId = await placeOne(trader, {
      side: 'buy',
      orderType: 'limit',
      price: '10001',
      qty: '0.001',
      timeInForce: 'ioc',
    });
    expect(await orderDetail(trader, { orderId: iocId })).toMatchObject({
      orderStatus: 'cancelled',
      cancelReason: 'ioc_remainder',
      cumExecQty: '0',
    });
    expect((await transferable(trader, 'USDT')).maxTransfer).toBe('990');
  });

  it('refuses bad orders with the spec codes', async () => {
    const trader = await pool.newTrader({ balances: { USDT: '1000' } });
    const items = await place(trader, [
      { side: 'buy', orderType: 'limit', price: '95000.001', qty: '0.001', clientOid: 'price-decimals' },
      { side: 'buy', orderType: 'limit', price: '95000', qty: '0.0000001', clientOid: 'qty-decimals' },
      { side: 'buy', orderType: 'limit', price: '10000', qty: '0.00001', clientOid: 'below-1-usdt' },
      { symbol: 'DOGEUSDT', side: 'buy', orderType: 'limit', price: '1', qty: '10', clientOid: 'no-pair' },
    ]);
    expect(items.map(({ clientOid, code }) => [clientOid, code])).toEqual([
      ['price-decimals', '40808'],
      ['qty-decimals', '40808'],
      ['below-1-usdt', '45110'],
      ['no-pair', '25100'],
    ]);
  });
});

describe('margin orders (E2 category MARGIN)', () => {
  it('a margin buy beyond the quote balance borrows it; selling the coin repays it', async () => {
    const maker = await pool.newTrader({ balances: { USDT: '100000', ETH: '100' } });
    const trader = await pool.newTrader({ balances: { USDT: '1000' } });
    await placeOne(maker, { symbol: 'ETHUSDT', side: 'sell', orderType: 'limit', price: '3400', qty: '0.5' });
    // 0.5 ETH x 3400 = 1700 USDT: 1000 held, 700 borrowed.
    await placeOne(trader, {
      category: 'MARGIN',
      symbol: 'ETHUSDT',
      side: 'buy',
      orderType: 'limit',
      price: '3400',
      qty: '0.5',
    });
    const afterBuy = await records(trader, 'MARGIN');
    expect(afterBuy).toEqual([
      { coin: 'USDT', type: 'BORROW', amount: '700', fee: '0', balance: '1700' },
      { coin: 'USDT', type: 'ORDER_DEALT_OUT', amount: '-1700', fee: '0', balance: '0' },
      { coin: 'ETH', type: 'ORDER_DEALT_IN', amount: '0.5', fee: '-0.0005', balance: '0.4995' },
    ]);
    // Equity: 0.4995 ETH x 3400 = 1698.3 USDT less 700 owed and its first hour of interest
    // (700 x 0.0126279% / 24 = 0.00368313750, rounded up to 0.00368314) = 998.29631686.
    // USDT: nothing free, nothing transferable; borrowing b more and sending it out needs
    // 700.00368314 + b <= 2 x (998.29631686 - b): b = (1996.59263372 - 700.00368314) / 3 = 432.19631686.
    expect(await transferable(trader, 'USDT')).toEqual({
      coin: 'USDT',
      maxTransfer: '0',
      borrowMaxTransfer: '432.19631686',
    });
    // ETH: 0.4995 held, but only equity - debt / 2 = 998.29631686 - 350.00184157 = 648.29447529 USDT
    // may leave: 648.29447529 / 3400 = 0.19067484 ETH.
    expect((await transferable(trader, 'ETH')).maxTransfer).toBe('0.19067484');

    // Selling 0.4995 ETH at 3500 gives 1748.25 USDT less 1.74825 of fee = 1746.50175, which repays
    // the interest (0.00368314) and then the 700 borrowed.
    await placeOne(maker, {
      symbol: 'ETHUSDT',
      side: 'buy',
      orderType: 'limit',
      price: '3500',
      qty: '0.4995',
    });
    await placeOne(trader, {
      category: 'MARGIN',
      symbol: 'ETHUSDT',
      side: 'sell',
      orderType: 'market',
      qty: '0.4995',
    });
    expect((await records(trader, 'MARGIN')).slice(3)).toEqual([
      { coin: 'ETH', type: 'ORDER_DEALT_OUT', amount: '-0.4995', fee: '0', balance: '0' },
      { coin: 'USDT', type: 'ORDER_DEALT_IN', amount: '1748.25', fee: '-1.74825', balance: '1746.50175' },
      { coin: 'USDT', type: 'INTEREST', amount: '-0.00368314', fee: '0', balance: '1746.49806686' },
      { coin: 'USDT', type: 'REPAY', amount: '-700', fee: '0', balance: '1046.49806686' },
    ]);
    expect((await transferable(trader, 'USDT')).maxTransfer).toBe('1046.49806686');
  });

  it('a margin sell beyond the base held borrows the base coin; buying it back repays it', async () => {
    const maker = await pool.newTrader({ balances: { USDT: '100000', BTC: '10' } });
    const trader = await pool.newTrader({ balances: { USDT: '2000' } });
    await placeOne(maker, { side: 'buy', orderType: 'limit', price: '95000', qty: '0.01' });
    await placeOne(trader, { category: 'MARGIN', side: 'sell', orderType: 'market', qty: '0.01' });
    // 0.01 BTC borrowed and sold for 950 USDT less 0.95 of fee.
    expect(await records(trader, 'MARGIN')).toEqual([
      { coin: 'BTC', type: 'BORROW', amount: '0.01', fee: '0', balance: '0.01' },
      { coin: 'BTC', type: 'ORDER_DEALT_OUT', amount: '-0.01', fee: '0', balance: '0' },
      { coin: 'USDT', type: 'ORDER_DEALT_IN', amount: '950', fee: '-0.95', balance: '2949.05' },
    ]);
    // Buying back 0.0101 BTC (0.0101 less 0.1% = 0.0100899 received) repays the 0.01 and its first
    // hour of interest: 0.01 x 0.007% / 24 = 0.0000000291..., rounded up to 0.00000003 BTC.
    await placeOne(maker, { side: 'sell', orderType: 'limit', price: '95000', qty: '0.0101' });
    await placeOne(trader, {
      category: 'MARGIN',
      side: 'buy',
      orderType: 'limit',
      price: '95000',
      qty: '0.0101',
    });
    expect((await records(trader, 'MARGIN')).slice(3)).toEqual([
      { coin: 'USDT', type: 'ORDER_DEALT_OUT', amount: '-959.5', fee: '0', balance: '1989.55' },
      { coin: 'BTC', type: 'ORDER_DEALT_IN', amount: '0.0101', fee: '-0.0000101', balance: '0.0100899' },
      { coin: 'BTC', type: 'INTEREST', amount: '-0.00000003', fee: '0', balance: '0.01008987' },
      { coin: 'BTC', type: 'REPAY', amount: '-0.01', fee: '0', balance: '0.00008987' },
    ]);
    expect((await transferable(trader, 'BTC')).maxTransfer).toBe('0.00008987');
  });

  it('refuses borrowing beyond 3x cross margin, and isolated spot margin', async () => {
    const trader = await pool.newTrader({ balances: { USDT: '100' } });
    // 100 USDT of equity may owe at most 200: a 0.0035 BTC buy at 95000 (332.5 USDT) would borrow 232.5.
    const items = await place(trader, [
      { category: 'MARGIN', side: 'buy', orderType: 'limit', price: '95000', qty: '0.0035', clientOid: 'x' },
      {
        category: 'MARGIN',
        side: 'buy',
        orderType: 'limit',
        price: '10000',
        qty: '0.001',
        marginMode: 'isolated',
        clientOid: 'iso',
      },
    ]);
    expect(items.map(({ clientOid, code }) => [clientOid, code])).toEqual([
      ['x', '25203'],
      ['iso', '400172'],
    ]);
    expect(items[1]?.msg).toContain('isolated spot margin is not supported');
    expect(await records(trader, 'MARGIN')).toEqual([]);
  });
});
