// The position tier limit behind 40762 over HTTP: BTCUSDT tier 1 holds up to 200,000 USDT at up to
// 125x, tier 2 up to 1,000,000 USDT at up to 100x. The market is paused at 95,000.
import { beforeEach, describe, expect, it } from 'vitest';
import { batchPlaceOrder } from '../../shared/api/endpoints';
import { positionsOf } from '../testing/account-reads';
import { ok, refused } from '../testing/responses';
import type { SignedClient } from '../testing/signed-client';
import { useTraderPool } from '../testing/trader-pool';

const pool = useTraderPool();
const BTCUSDT = { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT' };

async function place(client: SignedClient, side: 'buy' | 'sell', size: string, price = '95000') {
  const response = await client.post(batchPlaceOrder.path, {
    ...BTCUSDT,
    marginMode: 'crossed',
    orderList: [{ side, orderType: 'limit', price, size }],
  });
  return batchPlaceOrder.response.parse(ok(response));
}

beforeEach(async () => {
  await pool.exchange.setPrice('BTCUSDT', '95000');
});

describe('position tiers', () => {
  it('refuses an order that would take a position beyond the tier its leverage allows', async () => {
    const trader = await pool.newTrader();
    ok(await trader.post('/api/v2/mix/account/set-leverage', { ...BTCUSDT, leverage: '125' }));
    // 2.2 x 95,000 = 209,000 USDT > 200,000 at 125x
    const refusedOrder = await place(trader, 'buy', '2.2');
    expect(refusedOrder.failureList).toMatchObject([{ errorCode: '40762' }]);
    expect(refusedOrder.failureList?.[0]?.errorMsg).toContain('at most 200000 USDT');
    // 2.1 x 95,000 = 199,500 fits
    expect((await place(trader, 'buy', '2.1')).failureList).toEqual([]);
    // With those 2.1 still resting, another 0.2 would make 2.3 x 95,000 = 218,500.
    expect((await place(trader, 'buy', '0.2')).failureList).toMatchObject([{ errorCode: '40762' }]);
    // A resting sell opens the other side, which the resting buys do not fill: 0.2 x 96,000 fits.
    expect((await place(trader, 'sell', '0.2', '96000')).failureList).toEqual([]);
  });

  it('refuses a leverage above the tier of the position held, and shows the tier rate', async () => {
    const trader = await pool.newTrader();
    const maker = await pool.newTrader();
    await place(maker, 'sell', '3');
    expect((await place(trader, 'buy', '3')).failureList).toEqual([]);
    // 3 x 95,000 = 285,000 USDT: tier 2, 0.50%
    expect(await positionsOf(trader)).toMatchObject([{ keepMarginRate: '0.005', leverage: '20' }]);
    const text = refused(
      await trader.post('/api/v2/mix/account/set-leverage', { ...BTCUSDT, leverage: '125' }),
      '40762',
    );
    expect(text).toContain('at most 200000 USDT');
    ok(await trader.post('/api/v2/mix/account/set-leverage', { ...BTCUSDT, leverage: '100' }));
    expect(await positionsOf(trader)).toMatchObject([{ leverage: '100' }]);
    // Beyond the contract: 43050.
    refused(await trader.post('/api/v2/mix/account/set-leverage', { ...BTCUSDT, leverage: '126' }), '43050');
  });
});
