import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from './index';

describe('ENDPOINTS', () => {
  it('lists E1..E18 then C1..C5, once each', () => {
    const expected = [
      ...Array.from({ length: 18 }, (_, index) => `E${index + 1}`),
      ...Array.from({ length: 5 }, (_, index) => `C${index + 1}`),
    ];
    expect(ENDPOINTS.map((endpoint) => endpoint.id)).toEqual(expected);
    expect(new Set(ENDPOINTS.map((endpoint) => `${endpoint.method} ${endpoint.path}`)).size).toBe(
      ENDPOINTS.length,
    );
  });

  it('names the version by the path', () => {
    for (const endpoint of ENDPOINTS) {
      expect(endpoint.path.startsWith(`/api/${endpoint.version}/`)).toBe(true);
    }
  });

  it('keeps public endpoints keyed by IP, with no permission', () => {
    const publicIds = ENDPOINTS.filter((endpoint) => endpoint.auth === 'public').map(
      (endpoint) => endpoint.id,
    );
    expect(publicIds).toEqual(['E11', 'E13', 'E15', 'C1', 'C2']);
    for (const endpoint of ENDPOINTS) {
      const isPublic = endpoint.auth === 'public';
      expect(endpoint.permission === null).toBe(isPublic);
      expect(endpoint.rateLimit.keyedBy).toBe(isPublic ? 'ip' : 'uid');
    }
  });

  it('asks v3 endpoints for UTA permissions and v2 endpoints for read or trade', () => {
    const permissions = Object.fromEntries(ENDPOINTS.map((endpoint) => [endpoint.id, endpoint.permission]));
    expect(permissions).toMatchObject({
      E2: 'uta_trade_write',
      E9: 'uta_trade_write',
      E18: 'uta_trade_read',
      E5: 'uta_mgt_read',
      E14: 'uta_mgt_read',
      E16: 'uta_mgt_write',
      E4: 'read',
      E6: 'read',
      E7: 'read',
      E10: 'read',
      E17: 'read',
      E1: 'trade',
      E3: 'trade',
      E8: 'trade',
      E12: 'trade',
      C3: 'trade',
      C4: 'trade',
    });
  });

  it('carries the Limits table', () => {
    const perSecond = Object.fromEntries(
      ENDPOINTS.map((endpoint) => [endpoint.id, endpoint.rateLimit.perSecond]),
    );
    expect(perSecond).toEqual({
      E1: 5,
      E2: 5,
      E3: 10,
      E4: 20,
      E5: 20,
      E6: 10,
      E7: 5,
      E8: 10,
      E9: 10,
      E10: 5,
      E11: 20,
      E12: 5,
      E13: 10,
      E14: 3,
      E15: 20,
      E16: 1,
      E17: 10,
      E18: 20,
      C1: 20,
      C2: 20,
      C3: 5,
      C4: 5,
      C5: 10,
    });
  });

  it('uses GET for queries and POST for changes', () => {
    const posts = ENDPOINTS.filter((endpoint) => endpoint.method === 'POST').map((endpoint) => endpoint.id);
    expect(posts).toEqual(['E1', 'E2', 'E3', 'E8', 'E9', 'E12', 'E16', 'C3', 'C4', 'C5']);
  });
});
