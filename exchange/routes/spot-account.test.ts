// Spot and margin state survives a restart (journal replay), spot orders have their own
// 400-open-order limit apart from futures (spec E2 rule 8), and the spot price follows the index.
// Each test starts its own exchange, so resting spot orders (which no endpoint cancels) stay put.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { batchPlaceOrder, financialRecords, maxTransferable, placeBatchV3 } from '../../shared/api/endpoints';
import { orderDetail } from '../testing/account-reads';
import { ok, pacedClient } from '../testing/responses';
import { createSignedClient, type SignedClient } from '../testing/signed-client';
import { startTestExchange } from '../testing/test-exchange';

async function placeSpot(client: SignedClient, orders: object[]) {
  return placeBatchV3.response.parse(ok(await client.post(placeBatchV3.path, orders)));
}

async function accountReads(client: SignedClient, orderId: string) {
  const margin = ok(await client.get(financialRecords.path, { category: 'MARGIN' }));
  return {
    records: financialRecords.response.parse(margin).list,
    usdt: ok(await client.get(maxTransferable.path, { coin: 'USDT' })),
    btc: ok(await client.get(maxTransferable.path, { coin: 'BTC' })),
    order: await orderDetail(client, { orderId }),
    byClientOid: await orderDetail(client, { clientOid: 'resting-bid' }),
  };
}

describe('spot after a restart', () => {
  it('replays orders, loans and reservations to the same answers', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'paper-spot-'));
    try {
      let exchange = await startTestExchange({ dataDir });
      const maker = await exchange.newAccount({ balances: { USDT: '100000', BTC: '5' } });
      const trader = await exchange.newAccount({ balances: { USDT: '500' } });
      await placeSpot(maker.client, [
        {
          category: 'SPOT',
          symbol: 'BTCUSDT',
          side: 'sell',
          orderType: 'limit',
          price: '95000',
          qty: '0.01',
        },
      ]);
      const [bought, resting] = await placeSpot(trader.client, [
        // 950 USDT with 500 held: 450 borrowed.
        {
          category: 'MARGIN',
          symbol: 'BTCUSDT',
          side: 'buy',
          orderType: 'limit',
          price: '95000',
          qty: '0.01',
        },
        {
          category: 'MARGIN',
          symbol: 'BTCUSDT',
          side: 'buy',
          orderType: 'limit',
          price: '10000',
          qty: '0.001',
          clientOid: 'resting-bid',
        },
      ]);
      expect([bought?.code, resting?.code]).toEqual(['00000', '00000']);
      const before = await accountReads(trader.client, bought?.orderId ?? '');
      // Newest first: 450 USDT borrowed and spent, then the resting bid borrows its 10 USDT.
      expect(before.records?.map(({ coin, type, amount }) => [coin, type, amount])).toEqual([
        ['USDT', 'BORROW', '10'],
        ['BTC', 'ORDER_DEALT_IN', '0.01'],
        ['USDT', 'ORDER_DEALT_OUT', '-950'],
        ['USDT', 'BORROW', '450'],
      ]);
      expect(before.byClientOid.orderStatus).toBe('live');
      await exchange.stop();

      exchange = await startTestExchange({ dataDir });
      const client = createSignedClient({ baseUrl: exchange.exchange.baseUrl, ...trader.account });
      expect(await accountReads(client, bought?.orderId ?? '')).toEqual(before);
      await exchange.stop();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('open order limits', () => {
  it('allows 400 open spot orders, refuses the 401st with 40762, and futures keep their own 400', async () => {
    const exchange = await startTestExchange();
    try {
      const { client: raw } = await exchange.newAccount({ balances: { USDT: '10000' } });
      const client = pacedClient(raw);
      // Bids of 0.0001 BTC at 10000 (1 USDT each), far below the market.
      const bid = {
        category: 'SPOT',
        symbol: 'BTCUSDT',
        side: 'buy',
        orderType: 'limit',
        price: '10000',
        qty: '0.0001',
      };
      for (let batch = 0; batch < 20; batch++) {
        const items = await placeSpot(
          client,
          Array.from({ length: 20 }, () => bid),
        );
        expect(new Set(items.map((item) => item.code))).toEqual(new Set(['00000']));
      }
      const [over] = await placeSpot(client, [{ ...bid, category: 'MARGIN' }]);
      expect(over).toMatchObject({ orderId: null, code: '40762' });
      expect(over?.msg).toContain('400');
      // 400 USDT reserved by the bids.
      expect(ok(await client.get(maxTransferable.path, { coin: 'USDT' }))).toMatchObject({
        maxTransfer: '9600',
      });
      const futures = ok(
        await client.post(batchPlaceOrder.path, {
          symbol: 'BTCUSDT',
          productType: 'USDT-FUTURES',
          marginCoin: 'USDT',
          marginMode: 'crossed',
          orderList: [{ side: 'buy', orderType: 'limit', price: '50000', size: '0.001' }],
        }),
      );
      expect(batchPlaceOrder.response.parse(futures).successList).toHaveLength(1);
    } finally {
      await exchange.stop();
    }
  });
});

describe('spot price', () => {
  it('follows the index of its base coin: a market order may reach 5% beyond it', async () => {
    const exchange = await startTestExchange();
    try {
      const { client: maker } = await exchange.newAccount({ balances: { BTC: '1' } });
      const { client: taker } = await exchange.newAccount({ balances: { USDT: '1000' } });
      await placeSpot(maker, [
        {
          category: 'SPOT',
          symbol: 'BTCUSDT',
          side: 'sell',
          orderType: 'limit',
          price: '104000',
          qty: '0.001',
        },
      ]);
      const marketBuy = { category: 'SPOT', symbol: 'BTCUSDT', side: 'buy', orderType: 'market', qty: '104' };
      // Index 95000: a market buy may pay up to 99750, so the ask at 104000 is out of reach.
      const [first] = await placeSpot(taker, [marketBuy]);
      expect(await orderDetail(taker, { orderId: first?.orderId ?? '' })).toMatchObject({
        orderStatus: 'cancelled',
        cancelReason: 'market_no_liquidity',
      });
      // The index moves to 100000: up to 105000 now, and 104 USDT buy the 0.001 BTC at 104000.
      await exchange.setPrice('BTCUSDT', '100000');
      const [second] = await placeSpot(taker, [marketBuy]);
      expect(await orderDetail(taker, { orderId: second?.orderId ?? '' })).toMatchObject({
        orderStatus: 'filled',
        cumExecQty: '0.001',
        cumExecValue: '104',
        avgPrice: '104000',
      });
    } finally {
      await exchange.stop();
    }
  });
});
