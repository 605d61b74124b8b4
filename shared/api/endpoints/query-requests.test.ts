import { describe, expect, it } from 'vitest';
import type { EndpointDefinition } from '../endpoint';
import { historyPosition } from './e04-history-position';
import { financialRecords } from './e05-financial-records';
import { subaccountFutureAssets } from './e06-subaccount-future-assets';
import { allPosition } from './e07-all-position';
import { insLoanTransfered } from './e10-ins-loan-transfered';
import { tickers } from './e11-tickers';
import { fillsHistory } from './e13-fills-history';
import { maxTransferable } from './e14-max-transferable';
import { mergeDepth } from './e15-merge-depth';
import { depositAccount } from './e16-deposit-account';
import { ordersPending } from './e17-orders-pending';
import { orderInfo } from './e18-order-info';
import { serverTime } from './c01-server-time';
import { contracts } from './c02-contracts';
import { DAY_MS } from './parameter-rules';
import { parseRequest } from './parse-request';

function refusal(endpoint: EndpointDefinition, input: unknown) {
  const parsed = parseRequest(endpoint, input);
  if (parsed.ok) throw new Error(`accepted ${JSON.stringify(input)}`);
  return parsed.error;
}

const T0 = 1_700_000_000_000;
/** A query string's values, as the HTTP layer hands them over. */
const ms = (value: number) => String(value);

describe('E4 history-position', () => {
  it('defaults productType and limit', () => {
    expect(parseRequest(historyPosition, {})).toEqual({
      ok: true,
      value: { productType: 'USDT-FUTURES', limit: 20 },
    });
  });

  it('reads every parameter', () => {
    const parsed = parseRequest(historyPosition, {
      symbol: 'ethusdt',
      productType: 'coin-futures',
      idLessThan: '1111',
      startTime: ms(T0),
      endTime: ms(T0 + DAY_MS),
      limit: '100',
    });
    expect(parsed).toEqual({
      ok: true,
      value: {
        symbol: 'ETHUSDT',
        productType: 'COIN-FUTURES',
        idLessThan: '1111',
        startTime: T0,
        endTime: T0 + DAY_MS,
        limit: 100,
      },
    });
  });

  it('allows 3 months between start and end, not more', () => {
    expect(parseRequest(historyPosition, { startTime: ms(T0), endTime: ms(T0 + 90 * DAY_MS) }).ok).toBe(true);
    const error = refusal(historyPosition, { startTime: ms(T0), endTime: ms(T0 + 90 * DAY_MS + 1) });
    expect(error.code).toBe('40020');
    expect(error.msg).toContain('3 months');
  });

  it('fills the other end of a half-open window', () => {
    const parsed = parseRequest(historyPosition, { startTime: ms(T0) });
    expect(parsed.ok && parsed.value.endTime).toBe(T0 + 90 * DAY_MS);
  });

  it('refuses a limit above 100 and a start after the end', () => {
    expect(refusal(historyPosition, { limit: '101' }).code).toBe('40020');
    expect(refusal(historyPosition, { startTime: ms(T0 + 1), endTime: ms(T0) }).code).toBe('40020');
  });
});

describe('E5 financial-records', () => {
  it('reads the query with defaults', () => {
    expect(
      parseRequest(financialRecords, {
        category: 'usdt-futures',
        coin: 'usdt',
        type: 'transfer_in',
        cursor: '',
      }),
    ).toEqual({
      ok: true,
      value: { category: 'USDT-FUTURES', coin: 'USDT', type: 'TRANSFER_IN', limit: 100 },
    });
    const other = parseRequest(financialRecords, { category: 'other', cursor: '98765' });
    expect(other.ok && [other.value.category, other.value.cursor]).toEqual(['OTHER', '98765']);
  });

  it('requires category and refuses unknown ones with 400172', () => {
    expect(refusal(financialRecords, {})).toEqual({
      code: '400172',
      msg: 'Parameter verification failed category cannot be empty',
    });
    expect(refusal(financialRecords, { category: 'FUTURES' }).code).toBe('400172');
  });

  it('allows 30 days between start and end, not more', () => {
    const window = (span: number) => ({ category: 'SPOT', startTime: ms(T0), endTime: ms(T0 + span) });
    expect(parseRequest(financialRecords, window(30 * DAY_MS)).ok).toBe(true);
    const error = refusal(financialRecords, window(30 * DAY_MS + 1));
    expect(error.code).toBe('400172');
    expect(error.msg).toContain('30 days');
  });

  it('refuses a limit above 100', () => {
    expect(refusal(financialRecords, { category: 'SPOT', limit: '101' }).code).toBe('400172');
  });
});

describe('E6 subaccount-future-assets and E7 all-position', () => {
  it('read their parameters', () => {
    expect(
      parseRequest(subaccountFutureAssets, { subUid: '7012345678', productType: 'usdc-futures' }),
    ).toEqual({
      ok: true,
      value: { subUid: '7012345678', productType: 'USDC-FUTURES' },
    });
    expect(parseRequest(allPosition, { productType: 'usdt-futures', marginCoin: 'usdt' })).toEqual({
      ok: true,
      value: { productType: 'USDT-FUTURES', marginCoin: 'USDT' },
    });
  });

  it('require their parameters', () => {
    expect(refusal(subaccountFutureAssets, { productType: 'USDT-FUTURES' })).toEqual({
      code: '40019',
      msg: 'Parameter subUid cannot be empty',
    });
    expect(refusal(subaccountFutureAssets, { subUid: 'abc', productType: 'USDT-FUTURES' }).code).toBe(
      '40020',
    );
    expect(refusal(allPosition, { marginCoin: 'USDT' }).code).toBe('40019');
  });
});

describe('E10 ins-loan/transfered, E14 max-transferable, E16 deposit-account', () => {
  it('read their parameters', () => {
    expect(parseRequest(insLoanTransfered, { coin: 'usdt', userId: '123' })).toEqual({
      ok: true,
      value: { coin: 'USDT', userId: '123' },
    });
    expect(parseRequest(maxTransferable, { coin: 'btc' })).toEqual({ ok: true, value: { coin: 'BTC' } });
    expect(parseRequest(depositAccount, { coin: 'usdt', accountType: 'Unified' })).toEqual({
      ok: true,
      value: { coin: 'USDT', accountType: 'unified' },
    });
  });

  it('refuse missing or wrong values', () => {
    expect(refusal(insLoanTransfered, {})).toEqual({ code: '40019', msg: 'Parameter coin cannot be empty' });
    expect(refusal(maxTransferable, {})).toEqual({
      code: '400172',
      msg: 'Parameter verification failed coin cannot be empty',
    });
    expect(refusal(depositAccount, { coin: 'USDT', accountType: 'spot' }).code).toBe('400172');
    expect(refusal(depositAccount, { coin: 'USDT' }).code).toBe('400172');
  });
});

describe('E17 orders-pending', () => {
  it('reads the query; status left out means live', () => {
    expect(
      parseRequest(ordersPending, { productType: 'usdt-futures', symbol: 'btcusdt', clientOid: 'x-1' }),
    ).toEqual({
      ok: true,
      value: { productType: 'USDT-FUTURES', symbol: 'BTCUSDT', clientOid: 'x-1', limit: 100 },
    });
    const partial = parseRequest(ordersPending, { productType: 'USDT-FUTURES', status: 'PARTIALLY_FILLED' });
    expect(partial.ok && partial.value.status).toBe('partially_filled');
  });

  it('allows 90 days between start and end, not more', () => {
    const window = (span: number) => ({
      productType: 'USDT-FUTURES',
      startTime: ms(T0),
      endTime: ms(T0 + span),
    });
    expect(parseRequest(ordersPending, window(90 * DAY_MS)).ok).toBe(true);
    expect(refusal(ordersPending, window(90 * DAY_MS + 1)).code).toBe('40020');
  });

  it('fills a start 3 months before a lone end', () => {
    const parsed = parseRequest(ordersPending, { productType: 'USDT-FUTURES', endTime: ms(T0) });
    expect(parsed.ok && parsed.value.startTime).toBe(T0 - 90 * DAY_MS);
  });

  it('refuses a wrong status, a limit above 100 and a missing productType', () => {
    expect(refusal(ordersPending, { productType: 'USDT-FUTURES', status: 'filled' }).code).toBe('40020');
    expect(refusal(ordersPending, { productType: 'USDT-FUTURES', limit: '101' }).code).toBe('40020');
    expect(refusal(ordersPending, {}).code).toBe('40019');
  });
});

describe('E18 order-info', () => {
  it('accepts orderId or clientOid', () => {
    expect(parseRequest(orderInfo, { orderId: '1234567890' })).toEqual({
      ok: true,
      value: { orderId: '1234567890' },
    });
    expect(parseRequest(orderInfo, { clientOid: 'abc-1', orderId: '' })).toEqual({
      ok: true,
      value: { clientOid: 'abc-1' },
    });
  });

  it('needs one of them', () => {
    expect(refusal(orderInfo, {})).toEqual({
      code: '400172',
      msg: 'Parameter verification failed orderId or clientOid cannot be empty',
    });
  });

  it('refuses a clientOid outside the v3 pattern', () => {
    expect(refusal(orderInfo, { clientOid: 'bad oid!' }).code).toBe('400172');
  });
});

describe('E11 tickers', () => {
  it('needs a productType in any case', () => {
    expect(parseRequest(tickers, { productType: 'usdc-futures' })).toEqual({
      ok: true,
      value: { productType: 'USDC-FUTURES' },
    });
    expect(refusal(tickers, {})).toEqual({ code: '40019', msg: 'Parameter productType cannot be empty' });
    expect(refusal(tickers, { productType: 'SUSDT-FUTURES' }).code).toBe('40020');
  });
});

describe('E13 fills-history', () => {
  const base = { symbol: 'btcusdt', productType: 'usdt-futures' };

  it('defaults limit to 500 and allows up to 1000', () => {
    expect(parseRequest(fillsHistory, base)).toEqual({
      ok: true,
      value: { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', limit: 500 },
    });
    const parsed = parseRequest(fillsHistory, { ...base, limit: '1000' });
    expect(parsed.ok && parsed.value.limit).toBe(1000);
    expect(refusal(fillsHistory, { ...base, limit: '1001' }).code).toBe('40020');
  });

  it('allows 7 days between start and end, not 7 days and 1 ms', () => {
    expect(parseRequest(fillsHistory, { ...base, startTime: ms(T0), endTime: ms(T0 + 7 * DAY_MS) }).ok).toBe(
      true,
    );
    const error = refusal(fillsHistory, { ...base, startTime: ms(T0), endTime: ms(T0 + 7 * DAY_MS + 1) });
    expect(error.code).toBe('40020');
    expect(error.msg).toBe(
      'Parameter endTime error: the range between startTime and endTime must not exceed 7 days',
    );
  });

  it('ends a window one week after a lone start', () => {
    const parsed = parseRequest(fillsHistory, { ...base, startTime: ms(T0) });
    expect(parsed.ok && [parsed.value.startTime, parsed.value.endTime]).toEqual([T0, T0 + 7 * DAY_MS]);
  });

  it('requires symbol', () => {
    expect(refusal(fillsHistory, { productType: 'USDT-FUTURES' })).toEqual({
      code: '40019',
      msg: 'Parameter symbol cannot be empty',
    });
  });
});

describe('E15 merge-depth', () => {
  const base = { symbol: 'btcusdt', productType: 'usdt-futures' };

  it('defaults precision to scale0 and leaves limit open (100 levels)', () => {
    expect(parseRequest(mergeDepth, base)).toEqual({
      ok: true,
      value: { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', precision: 'scale0' },
    });
  });

  it('accepts the listed precisions and limits in any case', () => {
    const parsed = parseRequest(mergeDepth, { ...base, precision: 'SCALE2', limit: 'MAX' });
    expect(parsed.ok && [parsed.value.precision, parsed.value.limit]).toEqual(['scale2', 'max']);
    const fifteen = parseRequest(mergeDepth, { ...base, limit: '15' });
    expect(fifteen.ok && fifteen.value.limit).toBe('15');
  });

  it('refuses other precisions and limits', () => {
    expect(refusal(mergeDepth, { ...base, precision: 'scale4' }).code).toBe('40020');
    const error = refusal(mergeDepth, { ...base, limit: '100' });
    expect(error.code).toBe('40020');
    expect(error.msg).toContain('1, 5, 15, 50, max');
  });
});

describe('C1 server time and C2 contracts', () => {
  it('C1 takes no parameters and ignores extras', () => {
    expect(parseRequest(serverTime, { anything: '1' })).toEqual({ ok: true, value: {} });
  });

  it('C2 needs a productType; symbol is optional', () => {
    expect(parseRequest(contracts, { productType: 'usdt-futures', symbol: 'solusdt' })).toEqual({
      ok: true,
      value: { productType: 'USDT-FUTURES', symbol: 'SOLUSDT' },
    });
    expect(parseRequest(contracts, { productType: 'usdt-futures', symbol: '' })).toEqual({
      ok: true,
      value: { productType: 'USDT-FUTURES' },
    });
    expect(refusal(contracts, {}).code).toBe('40019');
  });
});
