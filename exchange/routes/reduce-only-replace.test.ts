// E2 rule 4: in one-way mode a reduce-only order for the whole position, or for more than the
// earlier reduce-only orders leave, replaces them and is answered with a null orderId.
import { describe, expect, it } from 'vitest';
import { placeBatchV3 } from '../../shared/api/endpoints';
import type { SignedClient } from '../testing/signed-client';
import { orderDetail, positionsOf } from '../testing/account-reads';
import { useTraderPool } from '../testing/trader-pool';

const pool = useTraderPool();

interface V3Order {
  side: 'buy' | 'sell';
  qty: string;
  price: string;
  reduceOnly?: 'yes' | 'no';
  clientOid?: string;
}

async function place(client: SignedClient, order: V3Order) {
  const response = await client.post(placeBatchV3.path, [
    { category: 'USDT-FUTURES', symbol: 'BTCUSDT', orderType: 'limit', ...order },
  ]);
  expect(response.status, response.text).toBe(200);
  const [item] = placeBatchV3.response.parse(response.body?.data);
  if (item === undefined) throw new Error('no answer item');
  return item;
}

/** A trader holding a one-way long of 0.03 BTC bought at 95000 from a fresh maker. */
async function longTrader(): Promise<SignedClient> {
  const trader = await pool.newTrader();
  const maker = await pool.newTrader();
  expect((await place(maker, { side: 'sell', qty: '0.03', price: '95000' })).code).toBe('00000');
  expect((await place(trader, { side: 'buy', qty: '0.03', price: '95000' })).code).toBe('00000');
  expect((await positionsOf(trader)).map((position) => position.total)).toEqual(['0.03']);
  return trader;
}

describe('E2 rule 4, one-way reduce-only replacement', () => {
  it('a reduce-only order for the whole position replaces the earlier one; orderId null', async () => {
    const trader = await longTrader();
    const first = await place(trader, {
      side: 'sell',
      qty: '0.01',
      price: '99000',
      reduceOnly: 'yes',
      clientOid: 'ro-first',
    });
    expect(first.code).toBe('00000');
    expect(first.orderId).toMatch(/^\d+$/);

    const whole = await place(trader, {
      side: 'sell',
      qty: '0.03',
      price: '98000',
      reduceOnly: 'yes',
      clientOid: 'ro-whole',
    });
    expect(whole).toMatchObject({ orderId: null, clientOid: 'ro-whole', code: '00000', msg: 'success' });
    expect(await orderDetail(trader, { clientOid: 'ro-first' })).toMatchObject({ orderStatus: 'cancelled' });
    expect(await orderDetail(trader, { clientOid: 'ro-whole' })).toMatchObject({
      orderStatus: 'live',
      qty: '0.03',
      reduceOnly: 'YES',
    });
    expect((await positionsOf(trader))[0]).toMatchObject({ locked: '0.03', available: '0' });
  });

  it('one exceeding what the earlier ones leave replaces them; one that fits keeps them', async () => {
    const trader = await longTrader();
    await place(trader, { side: 'sell', qty: '0.01', price: '99000', reduceOnly: 'yes', clientOid: 'ro-a' });
    const fits = await place(trader, {
      side: 'sell',
      qty: '0.02',
      price: '99500',
      reduceOnly: 'yes',
      clientOid: 'ro-b',
    });
    expect(fits.orderId).toMatch(/^\d+$/);
    expect((await positionsOf(trader))[0]).toMatchObject({ locked: '0.03', available: '0' });

    const exceeds = await place(trader, {
      side: 'sell',
      qty: '0.02',
      price: '97000',
      reduceOnly: 'yes',
      clientOid: 'ro-c',
    });
    expect(exceeds).toMatchObject({ orderId: null, code: '00000' });
    expect(await orderDetail(trader, { clientOid: 'ro-a' })).toMatchObject({ orderStatus: 'cancelled' });
    expect(await orderDetail(trader, { clientOid: 'ro-b' })).toMatchObject({ orderStatus: 'cancelled' });
    expect((await positionsOf(trader))[0]).toMatchObject({ locked: '0.02', available: '0.01' });
  });

  it('still refuses a reduce-only order larger than the position, keeping the earlier ones', async () => {
    const trader = await longTrader();
    await place(trader, {
      side: 'sell',
      qty: '0.01',
      price: '99000',
      reduceOnly: 'yes',
      clientOid: 'ro-keep',
    });
    const tooLarge = await place(trader, { side: 'sell', qty: '0.04', price: '97000', reduceOnly: 'yes' });
    expect(tooLarge.orderId).toBeNull();
    expect(tooLarge.code).not.toBe('00000');
    expect(await orderDetail(trader, { clientOid: 'ro-keep' })).toMatchObject({ orderStatus: 'live' });
  });
});
