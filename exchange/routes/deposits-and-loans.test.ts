// Simulated deposits land in the account E16 chose; institutional loans are what E10 reports.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PaperAccount } from '../../shared/api/paper-admin';
import { createSignedClient, type SignedClient } from '../testing/signed-client';
import { ok, pacedClient, refused } from '../testing/responses';
import { startTestExchange, type TestExchange } from '../testing/test-exchange';
import { useTraderPool } from '../testing/trader-pool';

const DEPOSIT_ACCOUNT = '/api/v3/account/deposit-account';
const MAX_TRANSFERABLE = '/api/v3/account/max-transferable';
const FINANCIAL_RECORDS = '/api/v3/account/financial-records';
const INS_LOAN = '/api/v2/spot/ins-loan/transfered';

const pool = useTraderPool();

async function paperAccount(exchange: TestExchange, uid: string): Promise<PaperAccount> {
  const listed = ok(await exchange.admin('GET', '/paper/v1/accounts')) as { accounts: PaperAccount[] };
  const account = listed.accounts.find((candidate) => candidate.uid === uid);
  if (account === undefined) throw new Error(`no account ${uid}`);
  return account;
}

async function newTrader(balances: Record<string, string>): Promise<{ uid: string; trader: SignedClient }> {
  const { account, client } = await pool.exchange.newAccount({ balances });
  return { uid: account.uid, trader: pacedClient(client) };
}

async function maxTransfer(client: SignedClient, coin: string): Promise<string> {
  return (ok(await client.get(MAX_TRANSFERABLE, { coin })) as { maxTransfer: string }).maxTransfer;
}

async function records(client: SignedClient, category: string) {
  return (
    ok(await client.get(FINANCIAL_RECORDS, { category })) as {
      list: Array<{ type: string; coin: string; amount: string; balance: string }>;
    }
  ).list;
}

describe('simulated deposits (POST /paper/v1/deposits)', () => {
  it('land in the funding account by default, outside the unified balance and its records', async () => {
    const exchange = pool.exchange;
    const { uid, trader } = await newTrader({ USDT: '1000' });

    const answer = ok(
      await exchange.admin('POST', '/paper/v1/deposits', { uid, coin: 'usdt', amount: '250.5' }),
    );
    expect(answer).toEqual({ uid, coin: 'USDT', amount: '250.5', accountType: 'funding', balance: '250.5' });
    ok(await exchange.admin('POST', '/paper/v1/deposits', { uid, coin: 'USDT', amount: '0.5' }));

    expect(await maxTransfer(trader, 'USDT')).toBe('1000');
    expect(await paperAccount(exchange, uid)).toMatchObject({
      balances: { USDT: '1000' },
      fundingBalances: { USDT: '251' },
      otcBalances: {},
    });
    expect((await records(trader, 'USDT-FUTURES')).map((record) => record.type)).toEqual(['TRANSFER_IN']);
  });

  it('land in the unified account when E16 chose it, with a record, and in OTC when chosen', async () => {
    const exchange = pool.exchange;
    const { uid, trader } = await newTrader({ USDT: '1000' });
    ok(await trader.post(DEPOSIT_ACCOUNT, { coin: 'USDT', accountType: 'unified' }));
    ok(await trader.post(DEPOSIT_ACCOUNT, { coin: 'BTC', accountType: 'otc' }));

    expect(
      ok(await exchange.admin('POST', '/paper/v1/deposits', { uid, coin: 'USDT', amount: '99.25' })),
    ).toEqual({ uid, coin: 'USDT', amount: '99.25', accountType: 'unified', balance: '1099.25' });
    ok(await exchange.admin('POST', '/paper/v1/deposits', { uid, coin: 'BTC', amount: '0.1' }));

    expect(await maxTransfer(trader, 'USDT')).toBe('1099.25');
    expect((await records(trader, 'USDT-FUTURES'))[0]).toMatchObject({
      type: 'TRANSFER_IN',
      coin: 'USDT',
      amount: '99.25',
      balance: '1099.25',
    });
    expect(await paperAccount(exchange, uid)).toMatchObject({
      balances: { USDT: '1099.25' },
      fundingBalances: {},
      otcBalances: { BTC: '0.1' },
    });
  });

  it('refuses an amount that is not positive or an unknown account, changing nothing', async () => {
    const exchange = pool.exchange;
    const { uid } = await newTrader({ USDT: '1000' });
    expect(
      refused(
        await exchange.admin('POST', '/paper/v1/deposits', { uid, coin: 'USDT', amount: '0' }),
        '40020',
      ),
    ).toContain('amount');
    refused(await exchange.admin('POST', '/paper/v1/deposits', { uid, coin: 'USDT', amount: '-5' }), '40020');
    refused(
      await exchange.admin('POST', '/paper/v1/deposits', { uid, coin: 'USDT', amount: '1.123456789' }),
      '40020',
    );
    refused(
      await exchange.admin('POST', '/paper/v1/deposits', { uid: '12345', coin: 'USDT', amount: '1' }),
      '40006',
    );
    expect(
      refused(await exchange.admin('POST', '/paper/v1/deposits', { coin: 'USDT', amount: '1' }), '40019'),
    ).toBe('Parameter uid cannot be empty');
    expect(await paperAccount(exchange, uid)).toMatchObject({
      balances: { USDT: '1000' },
      fundingBalances: {},
    });
  });
});

describe('institutional loans (POST /paper/v1/loans) and E10', () => {
  it('credit the account and are what E10 reports to it and to its broker', async () => {
    const exchange = pool.exchange;
    const broker = await exchange.newAccount({ kind: 'broker' });
    const sub = await exchange.newAccount({
      kind: 'sub',
      brokerUid: broker.account.uid,
      balances: { USDT: '10' },
    });
    const stranger = await exchange.newAccount();

    expect(
      ok(
        await exchange.admin('POST', '/paper/v1/loans', {
          uid: sub.account.uid,
          coin: 'USDT',
          amount: '5000',
        }),
      ),
    ).toEqual({ uid: sub.account.uid, coin: 'USDT', amount: '5000', transfered: '5000' });
    ok(
      await exchange.admin('POST', '/paper/v1/loans', { uid: sub.account.uid, coin: 'USDT', amount: '250' }),
    );

    expect(ok(await sub.client.get(INS_LOAN, { coin: 'USDT' }))).toEqual({
      coin: 'USDT',
      transfered: '5250',
      userId: sub.account.uid,
    });
    expect(ok(await broker.client.get(INS_LOAN, { coin: 'USDT', userId: sub.account.uid }))).toEqual({
      coin: 'USDT',
      transfered: '5250',
      userId: sub.account.uid,
    });
    expect(ok(await sub.client.get(INS_LOAN, { coin: 'BTC' }))).toMatchObject({ transfered: '0' });
    expect(ok(await broker.client.get(INS_LOAN, { coin: 'USDT' }))).toMatchObject({ transfered: '0' });
    refused(await stranger.client.get(INS_LOAN, { coin: 'USDT', userId: sub.account.uid }), '40020');

    // The lent coin is in the unified account: 10 + 5250 can be moved out.
    expect(await maxTransfer(sub.client, 'USDT')).toBe('5260');
    expect((await records(sub.client, 'USDT-FUTURES')).map((record) => [record.type, record.amount])).toEqual(
      [
        ['INS_LOAN_TRANSFER_IN', '250'],
        ['INS_LOAN_TRANSFER_IN', '5000'],
        ['TRANSFER_IN', '10'],
      ],
    );
  });
});

describe('deposits and loans across a restart', () => {
  it('are replayed from the journal', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'paper-funds-'));
    try {
      const first = await startTestExchange({ dataDir });
      const { account } = await first.newAccount({ balances: { USDT: '100' } });
      ok(await first.admin('POST', '/paper/v1/deposits', { uid: account.uid, coin: 'ETH', amount: '3' }));
      ok(await first.admin('POST', '/paper/v1/loans', { uid: account.uid, coin: 'USDT', amount: '40' }));
      await first.stop();

      const second = await startTestExchange({ dataDir });
      try {
        const client = createSignedClient({ baseUrl: second.exchange.baseUrl, ...account });
        expect(ok(await client.get(INS_LOAN, { coin: 'USDT' }))).toMatchObject({ transfered: '40' });
        expect(await maxTransfer(client, 'USDT')).toBe('140');
        expect(await paperAccount(second, account.uid)).toMatchObject({ fundingBalances: { ETH: '3' } });
      } finally {
        await second.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
