// E5 financial-records over HTTP: one record with the exact amount, fee and balance for every
// balance change, filtered by category, coin and type, paged by cursor within a 30-day window.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FinancialRecord, FinancialRecordsPage } from '../../shared/api/endpoints';
import { DAY_MS, adminAccount, keyWith, openTrader, trade, type Trader } from '../testing/account-trading';
import { ok, refused } from '../testing/responses';
import type { QueryInput } from '../testing/signed-client';
import { startTestExchange, type TestExchange } from '../testing/test-exchange';

const FINANCIAL_RECORDS = '/api/v3/account/financial-records';

let test: TestExchange;

beforeAll(async () => {
  test = await startTestExchange();
});
afterAll(async () => {
  await test.stop();
});

async function records(trader: Trader, query: QueryInput): Promise<FinancialRecordsPage> {
  return ok(await trader.client.get(FINANCIAL_RECORDS, query)) as FinancialRecordsPage;
}

function withoutIdAndTime(record: FinancialRecord): Omit<FinancialRecord, 'id' | 'ts'> {
  const { id: _id, ts: _ts, ...rest } = record;
  return rest;
}

describe('E5 financial-records', () => {
  it('leaves a record with the exact amount, fee and balance for every balance change', async () => {
    const trader = await openTrader(test, { balances: { USDT: '1000' } });
    const other = await openTrader(test);
    // Opens 0.01 as taker at 95000 (fee 0.57), closes as maker at 95500 (PnL 5, fee 0.191).
    await trade(other, trader, { side: 'sell', price: '95000', size: '0.01' });
    await trade(trader, other, { side: 'sell', price: '95500', size: '0.01' });

    const page = await records(trader, { category: 'USDT-FUTURES' });
    expect(page.list.map(withoutIdAndTime)).toEqual([
      {
        category: 'USDT-FUTURES',
        symbol: 'BTCUSDT',
        coin: 'USDT',
        type: 'CLOSE_LONG',
        amount: '5',
        fee: '-0.191',
        balance: '1004.239',
      },
      {
        category: 'USDT-FUTURES',
        symbol: 'BTCUSDT',
        coin: 'USDT',
        type: 'OPEN_LONG',
        amount: '0',
        fee: '-0.57',
        balance: '999.43',
      },
      {
        category: 'USDT-FUTURES',
        symbol: '',
        coin: 'USDT',
        type: 'TRANSFER_IN',
        amount: '1000',
        fee: '0',
        balance: '1000',
      },
    ]);
    const ids = page.list.map((record) => Number(record.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(page.cursor).toBe(page.list[2]?.id);
    expect((await adminAccount(test, trader.uid)).balances).toEqual({ USDT: '1004.239' });
    for (const category of ['COIN-FUTURES', 'USDC-FUTURES', 'SPOT', 'OTHER']) {
      expect((await records(trader, { category })).list).toEqual([]);
    }
  });

  it('filters by category, coin and type', async () => {
    const trader = await openTrader(test);
    const other = await openTrader(test);
    await trade(other, trader, { side: 'buy', price: '95000', size: '0.01' });

    const coinFutures = (await records(trader, { category: 'coin-futures' })).list;
    expect(coinFutures.map(withoutIdAndTime)).toEqual([
      {
        category: 'COIN-FUTURES',
        symbol: '',
        coin: 'BTC',
        type: 'TRANSFER_IN',
        amount: '2',
        fee: '0',
        balance: '2',
      },
    ]);
    const usdc = (await records(trader, { category: 'USDC-FUTURES' })).list;
    expect(usdc.map((record) => [record.coin, record.type, record.amount])).toEqual([
      ['USDC', 'TRANSFER_IN', '100000'],
    ]);

    const types = async (query: Record<string, string>) =>
      (await records(trader, { category: 'USDT-FUTURES', ...query })).list.map((record) => record.type);
    expect(await types({})).toEqual(['OPEN_SHORT', 'TRANSFER_IN']);
    expect(await types({ type: 'open_short' })).toEqual(['OPEN_SHORT']);
    expect(await types({ type: 'TRANSFER_IN' })).toEqual(['TRANSFER_IN']);
    expect(await types({ type: 'CLOSE_LONG' })).toEqual([]);
    expect(await types({ coin: 'usdt' })).toEqual(['OPEN_SHORT', 'TRANSFER_IN']);
    expect(await types({ coin: 'BTC' })).toEqual([]);
  });

  it('pages with the cursor until nothing is left', async () => {
    const trader = await openTrader(test, { balances: { USDT: '5000' } });
    const other = await openTrader(test);
    await trade(other, trader, { side: 'sell', price: '95000', size: '0.01' });
    await trade(other, trader, { side: 'sell', price: '95000', size: '0.01' });
    await trade(other, trader, { side: 'buy', price: '95500', size: '0.01' });
    await trade(other, trader, { side: 'buy', price: '95500', size: '0.01' });
    const all = (await records(trader, { category: 'USDT-FUTURES' })).list;
    expect(all.map((record) => record.type)).toEqual([
      'CLOSE_LONG',
      'CLOSE_LONG',
      'OPEN_LONG',
      'OPEN_LONG',
      'TRANSFER_IN',
    ]);

    const pages: string[][] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const query: Record<string, string> = { category: 'USDT-FUTURES', limit: '2' };
      if (cursor !== undefined) query.cursor = cursor;
      const result = await records(trader, query);
      if (result.list.length === 0) {
        expect(result.cursor ?? '').toBe('');
        break;
      }
      pages.push(result.list.map((record) => record.id));
      cursor = result.cursor ?? undefined;
    }
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(all.map((record) => record.id));
  });

  it('keeps to a window of at most 30 days', async () => {
    const trader = await openTrader(test);
    const now = Date.now();
    expect(
      (
        await records(trader, {
          category: 'USDT-FUTURES',
          startTime: String(now - 30 * DAY_MS + 1000),
          endTime: String(now + 1000),
        })
      ).list,
    ).toHaveLength(1);
    expect(
      (await records(trader, { category: 'USDT-FUTURES', startTime: String(now - 60_000) })).list,
    ).toHaveLength(1);
    expect((await records(trader, { category: 'USDT-FUTURES', endTime: String(now - 60_000) })).list).toEqual(
      [],
    );
    const wide = refused(
      await trader.client.get(FINANCIAL_RECORDS, {
        category: 'USDT-FUTURES',
        startTime: String(now - 30 * DAY_MS - 1),
        endTime: String(now),
      }),
      '400172',
    );
    expect(wide).toContain('30 days');
    refused(
      await trader.client.get(FINANCIAL_RECORDS, {
        category: 'USDT-FUTURES',
        startTime: String(now),
        endTime: String(now - 1),
      }),
      '400172',
    );
  });

  it('refuses bad parameters with the v3 code, and a key without uta_mgt_read', async () => {
    const trader = await openTrader(test);
    expect(refused(await trader.client.get(FINANCIAL_RECORDS, {}), '400172')).toBe(
      'Parameter verification failed category cannot be empty',
    );
    refused(await trader.client.get(FINANCIAL_RECORDS, { category: 'FUTURES' }), '400172');
    refused(await trader.client.get(FINANCIAL_RECORDS, { category: 'USDT-FUTURES', limit: '101' }), '400172');
    refused(
      await trader.client.get(FINANCIAL_RECORDS, { category: 'USDT-FUTURES', type: 'open long' }),
      '400172',
    );

    const tradeOnly = await keyWith(test, trader.uid, ['read', 'trade']);
    expect(refused(await tradeOnly.get(FINANCIAL_RECORDS, { category: 'USDT-FUTURES' }), '40014')).toBe(
      'Incorrect permissions, need uta_mgt_read permissions',
    );
    const mgtRead = await keyWith(test, trader.uid, ['uta_mgt_read']);
    ok(await mgtRead.get(FINANCIAL_RECORDS, { category: 'USDT-FUTURES' }));
    const mgtWrite = await keyWith(test, trader.uid, ['uta_mgt_write']);
    ok(await mgtWrite.get(FINANCIAL_RECORDS, { category: 'USDT-FUTURES' }));
  });
});
