// E8 place-pos-tpsl against a real paper exchange whose simulated market is paused: each position
// is opened at 95000 between the test's own accounts, then given its take-profit and stop-loss.
import { describe, expect, it } from 'vitest';
import { placePosTpsl } from '../../shared/api/endpoints';
import type { ClientResponse, SignedClient } from '../testing/signed-client';
import { useTraderPool } from '../testing/trader-pool';
import { positionsOf } from '../testing/account-reads';
import { openPosition, placeAll } from '../testing/batch-orders';

const TPSL = placePosTpsl.path;

const pool = useTraderPool();
const newTrader = pool.newTrader;

describe('E8 place-pos-tpsl', () => {
  async function placeTpsl(client: SignedClient, body: Record<string, string>): Promise<ClientResponse> {
    return client.post(TPSL, {
      marginCoin: 'USDT',
      productType: 'usdt-futures',
      symbol: 'BTCUSDT',
      ...body,
    });
  }

  it('stores a take-profit and a stop-loss and shows them on the position', async () => {
    const trader = await newTrader();
    await openPosition(trader, await newTrader(), 'buy', '0.01');
    const response = await placeTpsl(trader, {
      holdSide: 'buy',
      stopSurplusTriggerPrice: '100000',
      stopLossTriggerPrice: '90000',
      stopSurplusClientOid: 'tp-1',
      stopLossClientOid: 'sl-1',
    });
    expect(response.body?.code).toBe('00000');
    const plans = placePosTpsl.response.parse(response.body?.data) ?? [];
    expect(plans.map((plan) => [plan.stopSurplusClientOid, plan.stopLossClientOid])).toEqual([
      ['tp-1', ''],
      ['', 'sl-1'],
    ]);
    const [takeProfit, stopLoss] = plans.map((plan) => plan.orderId);
    expect(takeProfit).toMatch(/^\d+$/);
    expect(stopLoss).toMatch(/^\d+$/);
    expect(await positionsOf(trader)).toMatchObject([
      {
        holdSide: 'long',
        takeProfit: '100000',
        stopLoss: '90000',
        takeProfitId: takeProfit,
        stopLossId: stopLoss,
      },
    ]);

    // A new whole-position take-profit replaces the previous one; the stop-loss stays.
    const replaced = await placeTpsl(trader, { holdSide: 'buy', stopSurplusTriggerPrice: '101000' });
    const [newPlan] = placePosTpsl.response.parse(replaced.body?.data) ?? [];
    expect(await positionsOf(trader)).toMatchObject([
      { takeProfit: '101000', takeProfitId: newPlan?.orderId, stopLoss: '90000', stopLossId: stopLoss },
    ]);
  });

  it('names a hedge-mode short position by holdSide short', async () => {
    const trader = await newTrader({ posMode: 'hedge_mode' });
    await openPosition(trader, await newTrader(), 'sell', '0.01', { tradeSide: 'open' });
    const response = await placeTpsl(trader, {
      holdSide: 'short',
      stopSurplusTriggerPrice: '90000',
      stopLossTriggerPrice: '100000',
    });
    expect(response.body?.code).toBe('00000');
    expect(await positionsOf(trader)).toMatchObject([
      { holdSide: 'short', takeProfit: '90000', stopLoss: '100000' },
    ]);
  });

  it('refuses when there is no position on that side (22002)', async () => {
    const trader = await newTrader();
    const none = await placeTpsl(trader, { holdSide: 'buy', stopSurplusTriggerPrice: '100000' });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ code: '22002', data: null });

    await openPosition(trader, await newTrader(), 'buy', '0.01');
    const wrongSide = await placeTpsl(trader, { holdSide: 'sell', stopSurplusTriggerPrice: '90000' });
    expect(wrongSide.body?.code).toBe('22002');
  });

  it('refuses a trigger on the wrong side of the price (40917) and stores nothing', async () => {
    const trader = await newTrader();
    await openPosition(trader, await newTrader(), 'buy', '0.01');
    const lowTakeProfit = await placeTpsl(trader, { holdSide: 'buy', stopSurplusTriggerPrice: '94000' });
    expect(lowTakeProfit.status).toBe(400);
    expect(lowTakeProfit.body).toMatchObject({ code: '40917', msg: 'stop price must be above mark price' });
    const highStopLoss = await placeTpsl(trader, {
      holdSide: 'buy',
      stopSurplusTriggerPrice: '100000',
      stopLossTriggerPrice: '96000',
    });
    expect(highStopLoss.body).toMatchObject({ code: '40917', msg: 'stop price must be below mark price' });
    expect(await positionsOf(trader)).toMatchObject([{ takeProfit: '', stopLoss: '', takeProfitId: '' }]);
  });

  it('places a partial plan with a size, which is not the position-wide take-profit', async () => {
    const trader = await newTrader();
    await openPosition(trader, await newTrader(), 'buy', '0.01');
    const partial = await placeTpsl(trader, {
      holdSide: 'buy',
      stopSurplusTriggerPrice: '100000',
      stopSurplusSize: '0.005',
      stopSurplusExecutePrice: '100100',
      stopSurplusClientOid: 'partial-tp',
    });
    expect(partial.body?.code).toBe('00000');
    expect(placePosTpsl.response.parse(partial.body?.data)).toMatchObject([
      { stopSurplusClientOid: 'partial-tp', stopLossClientOid: '' },
    ]);
    expect(await positionsOf(trader)).toMatchObject([{ takeProfit: '', takeProfitId: '' }]);

    const tooLarge = await placeTpsl(trader, {
      holdSide: 'buy',
      stopLossTriggerPrice: '90000',
      stopLossSize: '0.02',
    });
    expect(tooLarge.body?.code).toBe('22002');
  });

  it('refuses a clientOid already used, and one used twice in the same request (40786)', async () => {
    const trader = await newTrader();
    await openPosition(trader, await newTrader(), 'buy', '0.01', { clientOid: 'opening-order' });
    const first = await placeTpsl(trader, {
      holdSide: 'buy',
      stopSurplusTriggerPrice: '100000',
      stopSurplusClientOid: 'dup-tp',
    });
    expect(first.body?.code).toBe('00000');
    const reused = await placeTpsl(trader, {
      holdSide: 'buy',
      stopLossTriggerPrice: '90000',
      stopLossClientOid: 'dup-tp',
    });
    expect(reused.body).toMatchObject({ code: '40786', msg: 'Duplicate clientOid' });
    const sameTwice = await placeTpsl(trader, {
      holdSide: 'buy',
      stopSurplusTriggerPrice: '100000',
      stopLossTriggerPrice: '90000',
      stopSurplusClientOid: 'twice',
      stopLossClientOid: 'twice',
    });
    expect(sameTwice.body?.code).toBe('40786');
    const orderOid = await placeTpsl(trader, {
      holdSide: 'buy',
      stopLossTriggerPrice: '90000',
      stopLossClientOid: 'opening-order',
    });
    expect(orderOid.body?.code).toBe('40786');
    expect(await positionsOf(trader)).toMatchObject([{ takeProfit: '100000', stopLoss: '' }]);
  });

  it('needs a take-profit or a stop-loss trigger (40019)', async () => {
    const trader = await newTrader();
    await openPosition(trader, await newTrader(), 'buy', '0.01');
    const response = await placeTpsl(trader, { holdSide: 'buy' });
    expect(response.body?.code).toBe('40019');
  });

  it('drops the take-profit and stop-loss of a closed position', async () => {
    const trader = await newTrader();
    await openPosition(trader, await newTrader(), 'buy', '0.01');
    const set = await placeTpsl(trader, {
      holdSide: 'buy',
      stopSurplusTriggerPrice: '100000',
      stopLossTriggerPrice: '90000',
    });
    expect(set.body?.code).toBe('00000');
    const bidder = await newTrader();
    await placeAll(bidder, [{ side: 'buy', orderType: 'limit', price: '95000', size: '0.01' }]);
    await placeAll(trader, [{ side: 'sell', orderType: 'market', size: '0.01', reduceOnly: 'YES' }]);
    expect(await positionsOf(trader)).toEqual([]);

    await openPosition(trader, await newTrader(), 'buy', '0.01');
    expect(await positionsOf(trader)).toMatchObject([
      { total: '0.01', takeProfit: '', stopLoss: '', takeProfitId: '', stopLossId: '' },
    ]);
  });
});
