// Tests of ../paper-admin.ts (kept in this folder, where this work's tests live).
import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../enums';
import { describeParameterError } from '../parameter-error';
import { paperAdmin } from '../paper-admin';

describe('paper admin: accounts and keys', () => {
  it('creates a standard account with default balances, mode and permissions', () => {
    expect(paperAdmin.createAccount.request.parse({})).toEqual({
      kind: 'standard',
      balances: { USDT: '100000', USDC: '100000', BTC: '2' },
      posMode: 'one_way_mode',
      permissions: [...PERMISSIONS],
    });
  });

  it('reads given balances with upper-case coins and a permission list without repeats', () => {
    const body = paperAdmin.createAccount.request.parse({
      kind: 'broker',
      balances: { usdt: '5000.5', eth: 0 },
      posMode: 'hedge_mode',
      permissions: ['trade', 'read', 'trade'],
      label: 'maker bot',
    });
    expect(body).toEqual({
      kind: 'broker',
      balances: { USDT: '5000.5', ETH: '0' },
      posMode: 'hedge_mode',
      permissions: ['read', 'trade'],
      label: 'maker bot',
    });
  });

  it('needs brokerUid for a sub-account', () => {
    const result = paperAdmin.createAccount.request.safeParse({ kind: 'sub' }, { reportInput: true });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(describeParameterError(result.error, 'v2')).toEqual({
        code: '40019',
        msg: 'Parameter brokerUid cannot be empty',
      });
    }
    expect(paperAdmin.createAccount.request.parse({ kind: 'sub', brokerUid: '1001' }).brokerUid).toBe('1001');
  });

  it('refuses unknown kinds, permissions and negative balances', () => {
    expect(paperAdmin.createAccount.request.safeParse({ kind: 'vip' }).success).toBe(false);
    expect(paperAdmin.createAccount.request.safeParse({ permissions: ['admin'] }).success).toBe(false);
    expect(paperAdmin.createAccount.request.safeParse({ balances: { USDT: '-1' } }).success).toBe(false);
  });

  it('new keys need a permission list; the uid comes from the path', () => {
    expect(paperAdmin.createKey.request.parse({ permissions: ['uta_mgt_read'] })).toEqual({
      permissions: ['uta_mgt_read'],
    });
    expect(paperAdmin.createKey.request.safeParse({}).success).toBe(false);
    expect(paperAdmin.createKey.params.parse({ uid: '1001' })).toEqual({ uid: '1001' });
  });

  it('describes accounts as listed', () => {
    const listed = {
      accounts: [
        {
          uid: '1001',
          kind: 'sub',
          brokerUid: '1000',
          label: null,
          apiKeys: [{ apiKey: 'bg_1', permissions: ['read'] }],
          balances: { USDT: '100000' },
          fundingBalances: { BTC: '0.5' },
          otcBalances: {},
          posMode: 'one_way_mode',
        },
      ],
    };
    expect(paperAdmin.listAccounts.response.parse(listed)).toEqual(listed);
  });
});

describe('paper admin: market and faults', () => {
  it('sets a price with canonical spellings', () => {
    expect(
      paperAdmin.setPrice.request.parse({ productType: 'usdt-futures', symbol: 'btcusdt', price: 65000.5 }),
    ).toEqual({ productType: 'USDT-FUTURES', symbol: 'BTCUSDT', price: '65000.5' });
    expect(
      paperAdmin.setPrice.request.safeParse({ productType: 'USDT-FUTURES', symbol: 'BTCUSDT', price: '0' })
        .success,
    ).toBe(false);
  });

  it('pauses the market with a boolean only', () => {
    expect(paperAdmin.setMarket.request.parse({ paused: true })).toEqual({ paused: true });
    expect(paperAdmin.setMarket.request.safeParse({ paused: 'yes' }).success).toBe(false);
  });

  it('adds a fault once by default', () => {
    expect(paperAdmin.addFault.request.parse({ path: '/api/v3/trade/place-batch', kind: '40010' })).toEqual({
      path: '/api/v3/trade/place-batch',
      kind: '40010',
      count: 1,
    });
  });

  it('needs delayMs for a delay fault, within 1..60000', () => {
    const delay = { path: '/api/v2/mix/order/batch-place-order', kind: 'delay' };
    const missing = paperAdmin.addFault.request.safeParse(delay, { reportInput: true });
    expect(missing.success ? null : describeParameterError(missing.error, 'v2').code).toBe('40019');
    expect(paperAdmin.addFault.request.parse({ ...delay, delayMs: 60_000 }).delayMs).toBe(60_000);
    expect(paperAdmin.addFault.request.safeParse({ ...delay, delayMs: 60_001 }).success).toBe(false);
  });

  it('refuses a path outside /api, a count outside 1..1000 and unknown kinds', () => {
    expect(paperAdmin.addFault.request.safeParse({ path: '/paper/v1/price', kind: 'drop' }).success).toBe(
      false,
    );
    const fault = { path: '/api/v2/public/time', kind: 'drop' };
    expect(paperAdmin.addFault.request.safeParse({ ...fault, count: 0 }).success).toBe(false);
    expect(paperAdmin.addFault.request.safeParse({ ...fault, count: 1001 }).success).toBe(false);
    expect(paperAdmin.addFault.request.safeParse({ ...fault, kind: '500' }).success).toBe(false);
  });

  it('lists and clears faults', () => {
    const fault = { id: 'f1', path: '/api/v2/public/time', remaining: 2, kind: 'drop', delayMs: null };
    expect(paperAdmin.listFaults.response.parse({ faults: [fault] })).toEqual({ faults: [fault] });
    expect(paperAdmin.clearFaults.method).toBe('DELETE');
    expect(paperAdmin.clearFaults.response.parse({ cleared: 1 })).toEqual({ cleared: 1 });
  });
});
