import { describe, expect, it } from 'vitest';
import { batchPlaceOrder } from './e01-batch-place-order';
import { placeBatchV3 } from './e02-place-batch-v3';
import { batchCancelOrders } from './e03-batch-cancel-orders';
import { placePosTpsl } from './e08-place-pos-tpsl';
import { placeStrategyOrder } from './e09-place-strategy-order';
import { setLeverage } from './e12-set-leverage';
import { setPositionMode } from './c03-set-position-mode';
import { setMarginMode } from './c04-set-margin-mode';
import { parseRequest } from './parse-request';
import type { EndpointDefinition } from '../endpoint';

function refusal(endpoint: EndpointDefinition, input: unknown) {
  const parsed = parseRequest(endpoint, input);
  if (parsed.ok) throw new Error(`accepted ${JSON.stringify(input)}`);
  return parsed.error;
}

describe('E1 batch-place-order', () => {
  const limitOrder = { size: '0.01', price: '26000.5', side: 'buy', orderType: 'limit' };
  const body = (orderList: unknown[]) => ({
    symbol: 'btcusdt',
    productType: 'usdt-futures',
    marginCoin: 'usdt',
    marginMode: 'Crossed',
    orderList,
  });

  it('normalises spellings and applies the defaults', () => {
    const parsed = parseRequest(
      batchPlaceOrder,
      body([
        { ...limitOrder, clientOid: 'a-1', reduceOnly: 'yes', extra: 'ignored' },
        { size: 0.5, side: 'SELL', orderType: 'MARKET', tradeSide: 'Close', price: '' },
      ]),
    );
    expect(parsed).toEqual({
      ok: true,
      value: {
        symbol: 'BTCUSDT',
        productType: 'USDT-FUTURES',
        marginCoin: 'USDT',
        marginMode: 'crossed',
        orderList: [
          {
            size: '0.01',
            price: '26000.5',
            side: 'buy',
            orderType: 'limit',
            force: 'gtc',
            clientOid: 'a-1',
            reduceOnly: 'YES',
            stpMode: 'none',
          },
          {
            size: '0.5',
            side: 'sell',
            orderType: 'market',
            tradeSide: 'close',
            reduceOnly: 'NO',
            stpMode: 'none',
          },
        ],
      },
    });
  });

  it('keeps a force that is given', () => {
    const parsed = parseRequest(batchPlaceOrder, body([{ ...limitOrder, force: 'POST_ONLY' }]));
    expect(parsed.ok && parsed.value.orderList[0]?.force).toBe('post_only');
  });

  it('accepts 50 orders and refuses 51', () => {
    expect(parseRequest(batchPlaceOrder, body(Array.from({ length: 50 }, () => limitOrder))).ok).toBe(true);
    const error = refusal(batchPlaceOrder, body(Array.from({ length: 51 }, () => limitOrder)));
    expect(error.code).toBe('40020');
    expect(error.msg).toContain('orderList');
  });

  it('refuses an empty or missing orderList', () => {
    expect(refusal(batchPlaceOrder, body([])).code).toBe('40020');
    const { orderList: _orderList, ...withoutList } = body([]);
    expect(refusal(batchPlaceOrder, withoutList)).toEqual({
      code: '40019',
      msg: 'Parameter orderList cannot be empty',
    });
  });

  it('requires a price on limit orders', () => {
    expect(refusal(batchPlaceOrder, body([limitOrder, { ...limitOrder, price: '' }]))).toEqual({
      code: '40019',
      msg: 'Parameter orderList[1].price cannot be empty',
    });
  });

  it('refuses bad values of each field', () => {
    expect(refusal(batchPlaceOrder, { ...body([limitOrder]), marginMode: 'cross' }).code).toBe('40020');
    expect(refusal(batchPlaceOrder, body([{ ...limitOrder, side: 'long' }])).code).toBe('40020');
    expect(refusal(batchPlaceOrder, body([{ ...limitOrder, reduceOnly: 'true' }])).code).toBe('40020');
    expect(refusal(batchPlaceOrder, body([{ ...limitOrder, size: '-1' }])).code).toBe('40020');
    expect(refusal(batchPlaceOrder, body([{ ...limitOrder, stpMode: 'cancel_all' }])).code).toBe('40020');
    expect(refusal(batchPlaceOrder, body([{ ...limitOrder, clientOid: 'a b' }])).code).toBe('40020');
    expect(refusal(batchPlaceOrder, { ...body([limitOrder]), productType: undefined })).toEqual({
      code: '40019',
      msg: 'Parameter productType cannot be empty',
    });
  });
});

describe('E2 place-batch (v3)', () => {
  const order = { category: 'usdt-futures', symbol: 'ethusdt', qty: '0.1', side: 'buy', orderType: 'market' };

  it('takes a JSON array and normalises each order', () => {
    const parsed = parseRequest(placeBatchV3, [
      { ...order, clientOid: 'oid.1:a/b_c-d', reduceOnly: 'yes', posSide: 'Long' },
      { ...order, orderType: 'limit', price: '2500.1', reduceOnly: 'No' },
    ]);
    expect(parsed).toEqual({
      ok: true,
      value: [
        {
          category: 'USDT-FUTURES',
          symbol: 'ETHUSDT',
          qty: '0.1',
          side: 'buy',
          orderType: 'market',
          posSide: 'long',
          clientOid: 'oid.1:a/b_c-d',
          reduceOnly: 'YES',
          stpMode: 'none',
        },
        {
          category: 'USDT-FUTURES',
          symbol: 'ETHUSDT',
          qty: '0.1',
          price: '2500.1',
          side: 'buy',
          orderType: 'limit',
          timeInForce: 'gtc',
          reduceOnly: 'NO',
          stpMode: 'none',
        },
      ],
    });
  });

  it('refuses an object body, an empty batch and more than 20 orders', () => {
    expect(refusal(placeBatchV3, { orderList: [order] }).code).toBe('400172');
    expect(refusal(placeBatchV3, []).code).toBe('400172');
    expect(
      parseRequest(
        placeBatchV3,
        Array.from({ length: 20 }, () => order),
      ).ok,
    ).toBe(true);
    expect(
      refusal(
        placeBatchV3,
        Array.from({ length: 21 }, () => order),
      ).code,
    ).toBe('400172');
  });

  it('refuses a clientOid outside the allowed set', () => {
    const error = refusal(placeBatchV3, [{ ...order, clientOid: 'bad oid!' }]);
    expect(error.code).toBe('400172');
    expect(error.msg).toContain('clientOid');
  });

  it('requires one category for the whole batch', () => {
    const error = refusal(placeBatchV3, [order, { ...order, category: 'SPOT' }]);
    expect(error.code).toBe('400172');
    expect(error.msg).toContain('[1].category');
  });

  it('requires a price on limit orders', () => {
    expect(refusal(placeBatchV3, [{ ...order, orderType: 'limit' }])).toEqual({
      code: '400172',
      msg: 'Parameter verification failed [0].price cannot be empty',
    });
  });

  it('reports missing and wrong fields with 400172', () => {
    const { qty: _qty, ...withoutQty } = order;
    expect(refusal(placeBatchV3, [withoutQty])).toEqual({
      code: '400172',
      msg: 'Parameter verification failed [0].qty cannot be empty',
    });
    expect(refusal(placeBatchV3, [{ ...order, reduceOnly: 'maybe' }]).code).toBe('400172');
    expect(refusal(placeBatchV3, [{ ...order, category: 'OPTIONS' }]).code).toBe('400172');
  });
});

describe('E3 batch-cancel-orders', () => {
  it('accepts a cancel by product type alone', () => {
    expect(parseRequest(batchCancelOrders, { productType: 'coin-futures' })).toEqual({
      ok: true,
      value: { productType: 'COIN-FUTURES' },
    });
  });

  it('accepts ids by orderId or clientOid', () => {
    const parsed = parseRequest(batchCancelOrders, {
      productType: 'USDT-FUTURES',
      symbol: 'btcusdt',
      marginCoin: 'usdt',
      orderIdList: [{ orderId: '121211212122' }, { clientOid: 'mine-1' }],
    });
    expect(parsed).toEqual({
      ok: true,
      value: {
        productType: 'USDT-FUTURES',
        symbol: 'BTCUSDT',
        marginCoin: 'USDT',
        orderIdList: [{ orderId: '121211212122' }, { clientOid: 'mine-1' }],
      },
    });
  });

  it('requires symbol when orderIdList is set', () => {
    expect(
      refusal(batchCancelOrders, { productType: 'USDT-FUTURES', orderIdList: [{ orderId: '1' }] }),
    ).toEqual({
      code: '40019',
      msg: 'Parameter symbol cannot be empty',
    });
  });

  it('requires orderId or clientOid in each item', () => {
    const error = refusal(batchCancelOrders, {
      productType: 'USDT-FUTURES',
      symbol: 'BTCUSDT',
      orderIdList: [{ orderId: '1' }, {}],
    });
    expect(error).toEqual({
      code: '40019',
      msg: 'Parameter orderIdList[1].orderId or clientOid cannot be empty',
    });
  });

  it('refuses more than 50 items and an empty list', () => {
    const list = (length: number) => Array.from({ length }, (_, index) => ({ orderId: String(index + 1) }));
    const base = { productType: 'USDT-FUTURES', symbol: 'BTCUSDT' };
    expect(parseRequest(batchCancelOrders, { ...base, orderIdList: list(50) }).ok).toBe(true);
    expect(refusal(batchCancelOrders, { ...base, orderIdList: list(51) }).code).toBe('40020');
    expect(refusal(batchCancelOrders, { ...base, orderIdList: [] }).code).toBe('40020');
  });
});

describe('E8 place-pos-tpsl', () => {
  const base = { marginCoin: 'usdt', productType: 'usdt-futures', symbol: 'btcusdt', holdSide: 'long' };

  it('normalises and applies the defaults', () => {
    expect(
      parseRequest(placePosTpsl, { ...base, stopSurplusTriggerPrice: '30000', stopLossExecutePrice: '0' }),
    ).toEqual({
      ok: true,
      value: {
        marginCoin: 'USDT',
        productType: 'USDT-FUTURES',
        symbol: 'BTCUSDT',
        holdSide: 'long',
        stopSurplusTriggerPrice: '30000',
        stopSurplusTriggerType: 'fill_price',
        stopLossTriggerType: 'fill_price',
        stopLossExecutePrice: '0',
        stpMode: 'none',
      },
    });
  });

  it('accepts one-way sides buy/sell as holdSide', () => {
    const parsed = parseRequest(placePosTpsl, { ...base, holdSide: 'SELL', stopLossTriggerPrice: '1' });
    expect(parsed.ok && parsed.value.holdSide).toBe('sell');
  });

  it('needs at least one trigger price', () => {
    expect(refusal(placePosTpsl, { ...base, stopSurplusTriggerPrice: '', stopLossSize: '1' })).toEqual({
      code: '40019',
      msg: 'Parameter stopSurplusTriggerPrice or stopLossTriggerPrice cannot be empty',
    });
  });

  it('refuses a wrong trigger type and a negative execute price', () => {
    const withPrice = { ...base, stopLossTriggerPrice: '25000' };
    expect(refusal(placePosTpsl, { ...withPrice, stopLossTriggerType: 'last_price' }).code).toBe('40020');
    expect(refusal(placePosTpsl, { ...withPrice, stopLossExecutePrice: '-1' }).code).toBe('40020');
  });
});

describe('E9 place-strategy-order', () => {
  const base = { category: 'usdt-futures', symbol: 'btcusdt', posSide: 'long' };

  it('applies the defaults of a full-position TP/SL', () => {
    expect(parseRequest(placeStrategyOrder, { ...base, takeProfit: '30000', tpLimitPrice: '29990' })).toEqual(
      {
        ok: true,
        value: {
          category: 'USDT-FUTURES',
          symbol: 'BTCUSDT',
          posSide: 'long',
          type: 'tpsl',
          tpslMode: 'full',
          tpTriggerBy: 'market',
          slTriggerBy: 'market',
          takeProfit: '30000',
          tpOrderType: 'market',
          slOrderType: 'market',
          // ignored for a market take-profit
          tpLimitPrice: undefined,
          slLimitPrice: undefined,
        },
      },
    );
  });

  it('requires qty with tpslMode=partial only', () => {
    expect(refusal(placeStrategyOrder, { ...base, tpslMode: 'partial', stopLoss: '20000' })).toEqual({
      code: '400172',
      msg: 'Parameter verification failed qty cannot be empty',
    });
    const partial = parseRequest(placeStrategyOrder, {
      ...base,
      tpslMode: 'Partial',
      qty: '0.5',
      stopLoss: '2',
    });
    expect(partial.ok && partial.value.qty).toBe('0.5');
  });

  it('requires takeProfit or stopLoss', () => {
    expect(refusal(placeStrategyOrder, base)).toEqual({
      code: '400172',
      msg: 'Parameter verification failed takeProfit or stopLoss cannot be empty',
    });
  });

  it('requires a limit price for a limit take-profit or stop-loss and keeps it', () => {
    expect(refusal(placeStrategyOrder, { ...base, stopLoss: '20000', slOrderType: 'limit' }).code).toBe(
      '400172',
    );
    const parsed = parseRequest(placeStrategyOrder, {
      ...base,
      stopLoss: '20000',
      slOrderType: 'LIMIT',
      slLimitPrice: '19990',
    });
    expect(parsed.ok && parsed.value.slLimitPrice).toBe('19990');
  });

  it('refuses spot, a bad clientOid and a bad trigger', () => {
    expect(refusal(placeStrategyOrder, { ...base, category: 'SPOT', stopLoss: '1' }).code).toBe('400172');
    expect(refusal(placeStrategyOrder, { ...base, stopLoss: '1', clientOid: 'no spaces' }).code).toBe(
      '400172',
    );
    expect(refusal(placeStrategyOrder, { ...base, stopLoss: '1', slTriggerBy: 'index' }).code).toBe('400172');
  });
});

describe('E12 set-leverage', () => {
  const base = { symbol: 'btcusdt', productType: 'usdt-futures', marginCoin: 'usdt' };

  it('accepts leverage as text or number', () => {
    expect(parseRequest(setLeverage, { ...base, leverage: 20 })).toEqual({
      ok: true,
      value: { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT', leverage: '20' },
    });
    const hedge = parseRequest(setLeverage, {
      ...base,
      longLeverage: '10',
      shortLeverage: '5',
      holdSide: 'Short',
    });
    expect(hedge.ok && [hedge.value.longLeverage, hedge.value.shortLeverage, hedge.value.holdSide]).toEqual([
      '10',
      '5',
      'short',
    ]);
  });

  it('needs one of leverage, longLeverage, shortLeverage', () => {
    expect(refusal(setLeverage, base)).toEqual({ code: '40019', msg: 'Parameter leverage cannot be empty' });
  });

  it('refuses a leverage that is not a whole number', () => {
    expect(refusal(setLeverage, { ...base, leverage: '2.5' }).code).toBe('40020');
    expect(refusal(setLeverage, { ...base, longLeverage: '-3' }).code).toBe('40020');
  });

  it('leaves the range to the exchange: 0 is out of range (43050), not malformed', () => {
    expect(parseRequest(setLeverage, { ...base, leverage: '0' })).toMatchObject({
      ok: true,
      value: { leverage: '0' },
    });
  });
});

describe('C3 set-position-mode and C4 set-margin-mode', () => {
  it('normalise their values', () => {
    expect(parseRequest(setPositionMode, { productType: 'usdt-futures', posMode: 'HEDGE_MODE' })).toEqual({
      ok: true,
      value: { productType: 'USDT-FUTURES', posMode: 'hedge_mode' },
    });
    expect(
      parseRequest(setMarginMode, {
        symbol: 'ethusdt',
        productType: 'usdt-futures',
        marginCoin: 'usdt',
        marginMode: 'ISOLATED',
      }),
    ).toEqual({
      ok: true,
      value: { symbol: 'ETHUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT', marginMode: 'isolated' },
    });
  });

  it('refuse unknown and missing values', () => {
    expect(refusal(setPositionMode, { productType: 'USDT-FUTURES', posMode: 'two_way' }).code).toBe('40020');
    expect(
      refusal(setMarginMode, { symbol: 'ETHUSDT', productType: 'USDT-FUTURES', marginMode: 'crossed' }),
    ).toEqual({ code: '40019', msg: 'Parameter marginCoin cannot be empty' });
  });
});
