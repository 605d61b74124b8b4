// E14 max-transferable and E16 deposit-account over HTTP: the balance a coin can move out as
// orders and positions take margin, and the deposit account a coin lands in, kept across restarts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_TRANSFERABLE,
  cancelAll,
  keyWith,
  maxTransfer,
  openTrader,
  place,
  trade,
} from '../testing/account-trading';
import { ok, refused } from '../testing/responses';
import { createSignedClient } from '../testing/signed-client';
import { startTestExchange, type TestExchange } from '../testing/test-exchange';

const DEPOSIT_ACCOUNT = '/api/v3/account/deposit-account';

let test: TestExchange;

beforeAll(async () => {
  test = await startTestExchange();
});
afterAll(async () => {
  await test.stop();
});

describe('E14 max-transferable', () => {
  it('equals the available balance of each coin', async () => {
    const trader = await openTrader(test);
    // With borrowing, b more USDT may leave while the loan stays within 2x the net equity:
    // equity 100000 USDT + 100000 USDC + 2 BTC x 95000 = 390000; b <= 2 x (390000 - 100000 - b),
    // b = 580000 / 3 = 193333.33333333.
    expect(ok(await trader.client.get(MAX_TRANSFERABLE, { coin: 'usdt' }))).toEqual({
      coin: 'USDT',
      maxTransfer: '100000',
      borrowMaxTransfer: '293333.33333333',
    });
    expect(await maxTransfer(trader, 'USDC')).toBe('100000');
    // E14 allows 3 requests a second per account: the rest go to a second account.
    const another = await openTrader(test);
    expect(await maxTransfer(another, 'BTC')).toBe('2');
    expect(await maxTransfer(another, 'DOGE')).toBe('0');
  });

  it('shrinks by the margin an open order reserves and by a position and its losses', async () => {
    await test.setPrice('BTCUSDT', '95000');
    const trader = await openTrader(test);
    const maker = await openTrader(test);
    await place(trader, [{ side: 'buy', price: '90000', size: '0.1' }]);
    // 9000 / 20 margin + 9000 x 0.0006 taker fee
    expect(await maxTransfer(trader)).toBe('99544.6');
    await cancelAll(trader);
    expect(await maxTransfer(trader)).toBe('100000');

    await trade(maker, trader, { side: 'sell', price: '95000', size: '0.1' });
    // 100000 - 5.7 fee - 475 margin
    expect(await maxTransfer(trader)).toBe('99519.3');
    await test.setPrice('BTCUSDT', '94000');
    expect(await maxTransfer(trader)).toBe('99419.3');
    expect(await maxTransfer(trader, 'USDC')).toBe('100000');
  });

  it('needs uta_mgt_read and a coin', async () => {
    const trader = await openTrader(test);
    const tradeOnly = await keyWith(test, trader.uid, ['read', 'trade']);
    expect(refused(await tradeOnly.get(MAX_TRANSFERABLE, { coin: 'USDT' }), '40014')).toBe(
      'Incorrect permissions, need uta_mgt_read permissions',
    );
    expect(refused(await trader.client.get(MAX_TRANSFERABLE, {}), '400172')).toBe(
      'Parameter verification failed coin cannot be empty',
    );
  });
});

describe('E16 deposit-account', () => {
  it('sets the deposit account of a coin', async () => {
    const trader = await openTrader(test);
    expect(ok(await trader.client.post(DEPOSIT_ACCOUNT, { coin: 'usdt', accountType: 'Unified' }))).toBe(
      'success',
    );
    const account = test.exchange.service.engine.state.accounts.get(trader.uid);
    expect(account?.depositAccounts.get('USDT')).toBe('unified');
  });

  it('refuses bad parameters with the v3 code, and a key without uta_mgt_write', async () => {
    const first = await openTrader(test);
    refused(await first.client.post(DEPOSIT_ACCOUNT, { coin: 'USDT', accountType: 'spot' }), '400172');
    const second = await openTrader(test);
    expect(refused(await second.client.post(DEPOSIT_ACCOUNT, { accountType: 'funding' }), '400172')).toBe(
      'Parameter verification failed coin cannot be empty',
    );
    const readOnly = await keyWith(test, (await openTrader(test)).uid, ['uta_mgt_read']);
    expect(
      refused(await readOnly.post(DEPOSIT_ACCOUNT, { coin: 'USDT', accountType: 'funding' }), '40014'),
    ).toBe('Incorrect permissions, need uta_mgt_write permissions');
  });

  it('keeps the setting across a restart of the exchange', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'paper-deposit-'));
    try {
      const first = await startTestExchange({ dataDir });
      const { account, client } = await first.newAccount();
      ok(await client.post(DEPOSIT_ACCOUNT, { coin: 'BTC', accountType: 'otc' }));
      await first.stop();

      const second = await startTestExchange({ dataDir });
      try {
        expect(
          second.exchange.service.engine.state.accounts.get(account.uid)?.depositAccounts.get('BTC'),
        ).toBe('otc');
        // The key survived too: the same client signs a request the restarted exchange accepts.
        const restartedClient = createSignedClient({ baseUrl: second.exchange.baseUrl, ...account });
        expect(ok(await restartedClient.post(DEPOSIT_ACCOUNT, { coin: 'BTC', accountType: 'funding' }))).toBe(
          'success',
        );
        expect(
          second.exchange.service.engine.state.accounts.get(account.uid)?.depositAccounts.get('BTC'),
        ).toBe('funding');
      } finally {
        await second.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
