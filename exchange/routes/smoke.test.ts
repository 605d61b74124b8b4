import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../testing/test-exchange';

let test: TestExchange;
beforeAll(async () => {
  test = await startTestExchange();
});
afterAll(async () => {
  await test.stop();
});

describe('smoke', () => {
  it('places and lists an order', async () => {
    const placed = await test.client.post('/api/v2/mix/order/batch-place-order', {
      symbol: 'BTCUSDT',
      productType: 'USDT-FUTURES',
      marginCoin: 'USDT',
      marginMode: 'crossed',
      orderList: [
        { side: 'buy', orderType: 'limit', price: '90000', size: '0.01', clientOid: 'one' },
        { side: 'buy', orderType: 'limit', size: '0.01', clientOid: 'two' },
      ],
    });
    expect(placed.status).toBe(200);
    expect(placed.body?.data).toMatchObject({
      successList: [{ clientOid: 'one' }],
      failureList: [{ clientOid: 'two', errorCode: '40019' }],
    });
    const pending = await test.client.get('/api/v2/mix/order/orders-pending', {
      productType: 'USDT-FUTURES',
    });
    expect(pending.body?.data).toMatchObject({
      entrustedList: [{ clientOid: 'one', price: '90000', size: '0.01' }],
    });
  });
});
