// E6 subaccount-future-assets and E10 ins-loan transfered over HTTP: what a broker sees of its
// sub-accounts, what an account sees of its own loans, and the refusals for everyone else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubaccountFutureAsset } from '../../shared/api/endpoints';
import type { ProductType } from '../../shared/api/enums';
import { cancelAll, openTrader, place, trade } from '../testing/account-trading';
import { ok, refused } from '../testing/responses';
import { startTestExchange, type TestExchange } from '../testing/test-exchange';

const SUB_ASSETS = '/api/v2/broker/account/subaccount-future-assets';
const INS_LOAN = '/api/v2/spot/ins-loan/transfered';

let test: TestExchange;

beforeAll(async () => {
  test = await startTestExchange();
});
afterAll(async () => {
  await test.stop();
});

describe('E6 subaccount-future-assets', () => {
  it("shows a broker its sub-account's assets, equity and unrealized PnL", async () => {
    await test.setPrice('BTCUSDT', '95000');
    const broker = await openTrader(test, { kind: 'broker' });
    const sub = await openTrader(test, {
      kind: 'sub',
      brokerUid: broker.uid,
      balances: { USDT: '5000', BTC: '0.5' },
    });
    const assets = async (productType: ProductType) =>
      (
        ok(await broker.client.get(SUB_ASSETS, { subUid: sub.uid, productType })) as {
          assetsList: SubaccountFutureAsset[];
        }
      ).assetsList;

    expect(await assets('USDT-FUTURES')).toMatchObject([
      {
        marginCoin: 'USDT',
        available: '5000',
        locked: '0',
        frozen: '0',
        crossedMaxAvailable: '5000',
        isolatedMaxAvailable: '5000',
        maxTransferOut: '5000',
        accountEquity: '5000',
        usdtEquity: '5000',
        // 5000 / 95000, to 8 places
        btcEquity: '0.05263157',
        unrealizedPL: '0',
      },
    ]);

    // The sub buys 0.01 at 95000 as taker (fee 0.57, margin 47.5), then the mark falls 1000.
    const maker = await openTrader(test);
    await trade(maker, sub, { side: 'sell', price: '95000', size: '0.01' });
    await test.setPrice('BTCUSDT', '94000');
    expect(await assets('USDT-FUTURES')).toMatchObject([
      {
        marginCoin: 'USDT',
        accountEquity: '4989.43',
        unrealizedPL: '-10',
        // 4999.43 - 47.5 margin - 10 loss
        maxTransferOut: '4941.93',
        crossedMaxAvailable: '4941.93',
        // wallet 4999.43 = available + locked (position margin) + frozen (orders)
        available: '4951.93',
        locked: '47.5',
        frozen: '0',
      },
    ]);
    // A resting buy of 0.01 at 90000 reserves 45 margin and 0.54 taker fee.
    await place(sub, [{ side: 'buy', price: '90000', size: '0.01' }]);
    expect(await assets('USDT-FUTURES')).toMatchObject([
      {
        available: '4906.39',
        locked: '47.5',
        frozen: '45.54',
        maxTransferOut: '4896.39',
        accountEquity: '4989.43',
      },
    ]);
    await cancelAll(sub);
    expect(await assets('COIN-FUTURES')).toMatchObject([
      { marginCoin: 'BTC', accountEquity: '0.5', usdtEquity: '47000', unrealizedPL: '0' },
    ]);
    expect(await assets('USDC-FUTURES')).toMatchObject([{ marginCoin: 'USDC', accountEquity: '0' }]);
  });

  it('refuses accounts that are not the broker of the sub-account', async () => {
    const broker = await openTrader(test, { kind: 'broker' });
    const sub = await openTrader(test, { kind: 'sub', brokerUid: broker.uid });
    const otherBroker = await openTrader(test, { kind: 'broker' });
    const standard = await openTrader(test);
    const query = { subUid: sub.uid, productType: 'USDT-FUTURES' };

    expect(refused(await standard.client.get(SUB_ASSETS, query), '40014')).toContain('broker');
    refused(await sub.client.get(SUB_ASSETS, query), '40014');
    expect(refused(await otherBroker.client.get(SUB_ASSETS, query), '40020')).toContain(sub.uid);
    refused(await broker.client.get(SUB_ASSETS, { ...query, subUid: standard.uid }), '40020');
    refused(await broker.client.get(SUB_ASSETS, { ...query, subUid: '12345' }), '40020');
    expect(refused(await broker.client.get(SUB_ASSETS, { productType: 'USDT-FUTURES' }), '40019')).toBe(
      'Parameter subUid cannot be empty',
    );
    refused(await broker.client.get(SUB_ASSETS, { subUid: sub.uid }), '40019');
  });
});

describe('E10 ins-loan transfered', () => {
  it("answers for the caller's own uid and for a broker's sub-account, and refuses strangers", async () => {
    const standard = await openTrader(test);
    const broker = await openTrader(test, { kind: 'broker' });
    const sub = await openTrader(test, { kind: 'sub', brokerUid: broker.uid });

    expect(ok(await standard.client.get(INS_LOAN, { coin: 'usdt' }))).toEqual({
      coin: 'USDT',
      transfered: '0',
      userId: standard.uid,
    });
    expect(ok(await standard.client.get(INS_LOAN, { coin: 'USDT', userId: standard.uid }))).toMatchObject({
      userId: standard.uid,
    });
    expect(ok(await broker.client.get(INS_LOAN, { coin: 'BTC', userId: sub.uid }))).toEqual({
      coin: 'BTC',
      transfered: '0',
      userId: sub.uid,
    });
    expect(ok(await sub.client.get(INS_LOAN, { coin: 'USDT' }))).toMatchObject({ userId: sub.uid });

    expect(
      refused(await standard.client.get(INS_LOAN, { coin: 'USDT', userId: sub.uid }), '40020'),
    ).toContain('userId');
    refused(await sub.client.get(INS_LOAN, { coin: 'USDT', userId: broker.uid }), '40020');
    refused(await broker.client.get(INS_LOAN, { coin: 'USDT', userId: '12345' }), '40020');
    expect(refused(await standard.client.get(INS_LOAN, {}), '40019')).toBe('Parameter coin cannot be empty');
  });
});
