import { describe, expect, it } from 'vitest';
import { encodeBody, encodeQuery, signRequest } from './request-signing';

describe('request bytes and signature', () => {
  it('matches the worked GET example of the exchange', () => {
    const query = encodeQuery({ symbol: 'BTCUSDT', productType: 'USDT-FUTURES' });
    expect(query).toBe('productType=USDT-FUTURES&symbol=BTCUSDT');
    const sign = signRequest({
      secretKey: 'my_secret_key',
      timestamp: '1684814440729',
      method: 'GET',
      path: '/api/v2/mix/market/merge-depth',
      query,
      body: '',
    });
    expect(sign).toBe('3Z/EUbVU95R+j9xE04YV0cLMOouSBE35YMQVZL2a+6s=');
  });

  it('matches the worked POST example of the exchange', () => {
    const body = encodeBody({
      productType: 'USDT-FUTURES',
      symbol: 'BTCUSDT',
      marginCoin: 'USDT',
      leverage: '20',
    });
    expect(body).toBe(
      '{"productType":"USDT-FUTURES","symbol":"BTCUSDT","marginCoin":"USDT","leverage":"20"}',
    );
    const sign = signRequest({
      secretKey: 'my_secret_key',
      timestamp: '1684814440729',
      method: 'post',
      path: '/api/v2/mix/account/set-leverage',
      query: '',
      body,
    });
    expect(sign).toBe('oP4H0urPVikFS2nR4RYNZ5DI3kiLH/USqLrGF8ncxcc=');
  });

  it('sorts keys, percent-encodes names and values, writes numbers as text and leaves out absent values', () => {
    expect(encodeQuery({ z: 'a b&c', a: 5, m: undefined, n: null, 'k=': '/' })).toBe(
      'a=5&k%3D=%2F&z=a%20b%26c',
    );
    expect(encodeQuery({})).toBe('');
    expect(encodeQuery(undefined)).toBe('');
  });

  it('refuses nested values a query string cannot carry', () => {
    expect(() => encodeQuery({ list: ['a'] })).toThrow(/list/);
    expect(() => encodeQuery(['a'])).toThrow(TypeError);
  });

  it('leaves undefined fields out of a body and sends an empty object for none', () => {
    expect(encodeBody({ a: '1', b: undefined })).toBe('{"a":"1"}');
    expect(encodeBody(undefined)).toBe('{}');
    expect(encodeBody([{ a: '1' }])).toBe('[{"a":"1"}]');
  });
});
