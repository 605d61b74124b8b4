// C5 cancel-order (v3): the unified account takes back one open order, spot, margin or futures.
import { describe, expect, it } from 'vitest';
import { cancelOrderV3, financialRecords, maxTransferable, placeBatchV3 } from '../../shared/api/endpoints';
import { orderDetail } from '../testing/account-reads';
import { ok, refused } from '../testing/responses';
import type { SignedClient } from '../testing/signed-client';
import { useTraderPool } from '../testing/trader-pool';

const pool = useTraderPool();

async function placeOne(client: SignedClient, order: Record<string, string>): Promise<string> {
  const data = ok(await client.post(placeBatchV3.path, [{ symbol: 'BTCUSDT', ...order }]));
  const [item] = placeBatchV3.response.parse(data);
  expect(item?.code, item?.msg).toBe('00000');
  return item?.orderId ?? '';
}

async function maxTransfer(client: SignedClient, coin: string): Promise<string> {
  return maxTransferable.response.parse(ok(await client.get(maxTransferable.path, { coin }))).maxTransfer;
}

describe('C5 cancel-order', () => {
  it('cancels a resting spot order by clientOid and releases its reservation', async () => {
    const trader = await pool.newTrader({ balances: { USDT: '1000' } });
    // 0.01 BTC at 50,000, far below the market: 500 USDT reserved while it rests.
    const orderId = await placeOne(trader, {
      category: 'SPOT',
      side: 'buy',
      orderType: 'limit',
      price: '50000',
      qty: '0.01',
      clientOid: 'spot-bid-1',
    });
    expect(await maxTransfer(trader, 'USDT')).toBe('500');

    expect(ok(await trader.post(cancelOrderV3.path, { clientOid: 'spot-bid-1' }))).toEqual({
      orderId,
      clientOid: 'spot-bid-1',
    });
    expect(await maxTransfer(trader, 'USDT')).toBe('1000');
    expect(await orderDetail(trader, { orderId })).toMatchObject({
      category: 'SPOT',
      orderStatus: 'cancelled',
      cancelReason: 'normal_cancel',
      cumExecQty: '0',
    });
    // Once cancelled it is no longer open.
    expect(refused(await trader.post(cancelOrderV3.path, { orderId }), '25204')).toContain('cancelled');
  });

  it('cancels a margin order that borrowed, and the borrowed coin is repaid', async () => {
    const trader = await pool.newTrader({ balances: { USDT: '100' } });
    // 0.003 BTC at 50,000 = 150 USDT: 100 held, 50 borrowed when it is placed.
    const orderId = await placeOne(trader, {
      category: 'MARGIN',
      side: 'buy',
      orderType: 'limit',
      price: '50000',
      qty: '0.003',
    });
    ok(await trader.post(cancelOrderV3.path, { orderId, category: 'MARGIN', symbol: 'BTCUSDT' }));
    const records = financialRecords.response.parse(
      ok(await trader.get(financialRecords.path, { category: 'MARGIN' })),
    );
    // Newest first: the 50 borrowed comes back at the cancel (within the hour: 1 hour of interest
    // at 0.0126279% a day / 24 = 0.00026308125 USDT, rounded up to 1e-8, paid first).
    expect(records.list?.map((record) => [record.type, record.amount])).toEqual([
      ['REPAY', '-50'],
      ['INTEREST', '-0.00026309'],
      ['BORROW', '50'],
    ]);
  });

  it('cancels a futures order of the unified account', async () => {
    const trader = await pool.newTrader();
    const orderId = await placeOne(trader, {
      category: 'USDT-FUTURES',
      side: 'buy',
      orderType: 'limit',
      price: '50000',
      qty: '0.01',
    });
    expect(ok(await trader.post(cancelOrderV3.path, { orderId }))).toMatchObject({ orderId });
    expect(await orderDetail(trader, { orderId })).toMatchObject({
      category: 'USDT-FUTURES',
      orderStatus: 'cancelled',
    });
  });

  it('refuses an order it cannot name, another category or symbol, and a request naming none', async () => {
    const trader = await pool.newTrader({ balances: { USDT: '1000' } });
    const orderId = await placeOne(trader, {
      category: 'SPOT',
      side: 'buy',
      orderType: 'limit',
      price: '50000',
      qty: '0.001',
    });
    refused(await trader.post(cancelOrderV3.path, { orderId, category: 'USDT-FUTURES' }), '25204');
    refused(await trader.post(cancelOrderV3.path, { orderId, symbol: 'ETHUSDT' }), '25204');
    refused(await trader.post(cancelOrderV3.path, { orderId: '12345' }), '25204');
    const other = await pool.newTrader();
    refused(await other.post(cancelOrderV3.path, { orderId }), '25204');
    expect(refused(await trader.post(cancelOrderV3.path, {}), '400172')).toContain('orderId');
    // Still open after all that: the right request cancels it.
    ok(await trader.post(cancelOrderV3.path, { orderId, category: 'spot', symbol: 'btcusdt' }));
  });
});
