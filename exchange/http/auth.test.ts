import { describe, expect, it } from 'vitest';
import { prehash } from '../../shared/signing';
import { authenticate, hasPermission, signPrehash } from './auth';
import type { ApiKeyRecord, SignedRequest } from './auth';
import { ApiError } from './api-error';

describe('signPrehash', () => {
  it('reproduces the GET worked example of exchange-facts.md', () => {
    const text = prehash(
      '1684814440729',
      'GET',
      '/api/v2/mix/market/merge-depth',
      'productType=USDT-FUTURES&symbol=BTCUSDT',
      '',
    );
    expect(signPrehash('my_secret_key', text)).toBe('3Z/EUbVU95R+j9xE04YV0cLMOouSBE35YMQVZL2a+6s=');
  });

  it('reproduces the POST worked example of exchange-facts.md', () => {
    const body = '{"productType":"USDT-FUTURES","symbol":"BTCUSDT","marginCoin":"USDT","leverage":"20"}';
    const text = prehash('1684814440729', 'POST', '/api/v2/mix/account/set-leverage', '', body);
    expect(signPrehash('my_secret_key', text)).toBe('oP4H0urPVikFS2nR4RYNZ5DI3kiLH/USqLrGF8ncxcc=');
  });
});

describe('authenticate', () => {
  const key: ApiKeyRecord = {
    apiKey: 'k1',
    secretKey: 'my_secret_key',
    passphrase: 'pass',
    uid: '7',
    permissions: ['read'],
  };
  const lookup = (apiKey: string): ApiKeyRecord | undefined => (apiKey === key.apiKey ? key : undefined);
  const now = 1_684_814_440_729;

  function request(url: string, headers: Record<string, string>): SignedRequest {
    return { method: 'GET', rawUrl: url, headers, rawBody: '' };
  }

  function codeOf(action: () => unknown): string {
    try {
      action();
    } catch (error) {
      if (error instanceof ApiError) return error.code;
      throw error;
    }
    return 'accepted';
  }

  it('accepts the worked example signed against the raw URL it came with', () => {
    const signed = request('/api/v2/mix/market/merge-depth?productType=USDT-FUTURES&symbol=BTCUSDT', {
      'access-key': 'k1',
      'access-sign': '3Z/EUbVU95R+j9xE04YV0cLMOouSBE35YMQVZL2a+6s=',
      'access-passphrase': 'pass',
      'access-timestamp': '1684814440729',
    });
    expect(authenticate(signed, lookup, now)).toBe(key);
  });

  it('refuses a signature that differs only by a base64 character it would decode alike', () => {
    const signed = request('/api/v2/mix/market/merge-depth?productType=USDT-FUTURES&symbol=BTCUSDT', {
      'access-key': 'k1',
      'access-sign': '3Z/EUbVU95R+j9xE04YV0cLMOouSBE35YMQVZL2a+6s=\n',
      'access-passphrase': 'pass',
      'access-timestamp': '1684814440729',
    });
    expect(codeOf(() => authenticate(signed, lookup, now))).toBe('40009');
  });

  it('accepts a clock difference of exactly 30 s and refuses one of 30.001 s, either way', () => {
    const at = (timestamp: number): string => {
      const text = prehash(String(timestamp), 'GET', '/api/x', '', '');
      const headers = {
        'access-key': 'k1',
        'access-sign': signPrehash('my_secret_key', text),
        'access-passphrase': 'pass',
        'access-timestamp': String(timestamp),
      };
      return codeOf(() => authenticate(request('/api/x', headers), lookup, now));
    };
    expect(at(now - 30_000)).toBe('accepted');
    expect(at(now + 30_000)).toBe('accepted');
    expect(at(now - 30_001)).toBe('40008');
    expect(at(now + 30_001)).toBe('40008');
  });
});

describe('hasPermission', () => {
  it('lets a write permission stand for its read, and trade for read', () => {
    expect(hasPermission(['trade'], 'read')).toBe(true);
    expect(hasPermission(['uta_trade_write'], 'uta_trade_read')).toBe(true);
    expect(hasPermission(['uta_mgt_write'], 'uta_mgt_read')).toBe(true);
  });

  it('never lets a read stand for a write, nor one family for another', () => {
    expect(hasPermission(['read'], 'trade')).toBe(false);
    expect(hasPermission(['uta_trade_read'], 'uta_trade_write')).toBe(false);
    expect(hasPermission(['uta_mgt_write'], 'uta_trade_read')).toBe(false);
    expect(hasPermission(['trade'], 'uta_trade_read')).toBe(false);
    expect(hasPermission([], 'read')).toBe(false);
  });
});
