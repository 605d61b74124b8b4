import { describe, expect, it } from 'vitest';
import { ApiCallError } from '../api/api-call-error';
import { canonicalQuery } from './query-key';

describe('canonicalQuery', () => {
  it('gives one key for every spelling the exchange treats alike', () => {
    const upper = canonicalQuery({ endpointId: 'E11', params: { productType: 'USDT-FUTURES' } });
    const lower = canonicalQuery({ endpointId: 'E11', params: { productType: 'usdt-futures' } });
    expect(lower.id).toBe(upper.id);
    expect(upper.id).toBe('E11 productType=USDT-FUTURES');

    const depth = canonicalQuery({
      endpointId: 'E15',
      params: { symbol: 'btcusdt', productType: 'usdt-futures', precision: '' },
    });
    const sameDepth = canonicalQuery({
      endpointId: 'E15',
      params: { precision: 'SCALE0', productType: 'USDT-FUTURES', symbol: 'BTCUSDT' },
    });
    expect(depth.id).toBe(sameDepth.id);
    expect(depth.params).toEqual({ symbol: 'BTCUSDT', productType: 'USDT-FUTURES', precision: 'scale0' });
  });

  it('keeps different requests apart', () => {
    const btc = canonicalQuery({
      endpointId: 'E15',
      params: { symbol: 'BTCUSDT', productType: 'USDT-FUTURES' },
    });
    const eth = canonicalQuery({
      endpointId: 'E15',
      params: { symbol: 'ETHUSDT', productType: 'USDT-FUTURES' },
    });
    const tickers = canonicalQuery({ endpointId: 'E11', params: { productType: 'USDT-FUTURES' } });
    expect(new Set([btc.id, eth.id, tickers.id]).size).toBe(3);
  });

  it('gives canonical parameters that the schema reads back to the same key', () => {
    const first = canonicalQuery({ endpointId: 'E17', params: { productType: 'usdt-futures', limit: '20' } });
    const again = canonicalQuery({ endpointId: 'E17', params: first.params as Record<string, unknown> });
    expect(again.id).toBe(first.id);
  });

  it('refuses bad parameters with a message naming the parameter', () => {
    let caught: unknown;
    try {
      canonicalQuery({ endpointId: 'E11', params: { productType: 'nope' } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiCallError);
    expect(caught).toMatchObject({ kind: 'bad_request', code: 'BAD_REQUEST', endpointId: 'E11' });
    expect((caught as ApiCallError).message).toContain('productType');
  });

  it('refuses an unknown endpoint and any write', () => {
    expect(() => canonicalQuery({ endpointId: 'E99', params: {} })).toThrow('no endpoint E99');
    expect(() => canonicalQuery({ endpointId: 'E12', params: {} })).toThrow('only reads');
  });
});
