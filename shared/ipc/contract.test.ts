import { describe, expect, it } from 'vitest';
import { IPC_CHANNELS, isIpcChannel } from './contract';
import { queryKeyText } from './query-key';

describe('IPC contract', () => {
  it('writes one query key text whatever the parameter order', () => {
    const a = queryKeyText({ endpointId: 'E11', params: { symbol: 'BTCUSDT', productType: 'USDT-FUTURES' } });
    const b = queryKeyText({ endpointId: 'E11', params: { productType: 'USDT-FUTURES', symbol: 'BTCUSDT' } });
    expect(a).toBe(b);
    expect(a).toBe('E11?productType=USDT-FUTURES&symbol=BTCUSDT');
  });

  it('knows its channels only', () => {
    expect(isIpcChannel('orders.place')).toBe(true);
    expect(isIpcChannel('constructor')).toBe(false);
  });

  it('refuses money as a float and preset TP/SL on v3 tickets', () => {
    const ticket = {
      version: 'v2',
      symbol: 'BTCUSDT',
      productType: 'USDT-FUTURES',
      marginMode: 'crossed',
      marginCoin: 'USDT',
    };
    const schema = IPC_CHANNELS['orders.place'].input;
    expect(
      schema.safeParse({ ...ticket, orders: [{ side: 'buy', orderType: 'market', size: '0.01' }] }).success,
    ).toBe(true);
    expect(
      schema.safeParse({ ...ticket, orders: [{ side: 'buy', orderType: 'market', size: 0.01 }] }).success,
    ).toBe(false);
    const v3 = {
      ...ticket,
      version: 'v3',
      orders: [{ side: 'buy', orderType: 'market', size: '0.01', presetStopLossPrice: '90000' }],
    };
    expect(schema.safeParse(v3).success).toBe(false);
  });
});
