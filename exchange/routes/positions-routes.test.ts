// E7 all-position and E4 history-position over HTTP: open positions with their margins, fees and
// PnL, and closed positions archived with exact averages and paged from the newest back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoricalPosition, HistoryPositionPage } from '../../shared/api/endpoints';
import {
  ALL_POSITION,
  DAY_MS,
  ETHUSDT,
  cancelAll,
  keyWith,
  onlyPosition,
  openTrader,
  place,
  positions,
  trade,
  type Market,
  type Trader,
} from '../testing/account-trading';
import { ok, refused } from '../testing/responses';
import { startTestExchange, type TestExchange } from '../testing/test-exchange';

const HISTORY_POSITION = '/api/v2/mix/position/history-position';

const SOLUSDT: Market = { symbol: 'SOLUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT' };
const BTCPERP: Market = { symbol: 'BTCPERP', productType: 'USDC-FUTURES', marginCoin: 'USDC' };

let test: TestExchange;

beforeAll(async () => {
  test = await startTestExchange();
});
afterAll(async () => {
  await test.stop();
});

async function history(trader: Trader, query: Record<string, string> = {}): Promise<HistoryPositionPage> {
  return ok(await trader.client.get(HISTORY_POSITION, query)) as HistoryPositionPage;
}

describe('E7 all-position', () => {
  it('reports a fresh position at its entry, its mark and its fees', async () => {
    await test.setPrice('BTCUSDT', '95000');
    const short = await openTrader(test);
    const long = await openTrader(test);
    await trade(short, long, { side: 'sell', price: '95000', size: '0.1' });

    const common = {
      symbol: 'BTCUSDT',
      marginCoin: 'USDT',
      openPriceAvg: '95000',
      total: '0.1',
      available: '0.1',
      locked: '0',
      openDelegateSize: '0',
      // 9500 / 20
      marginSize: '475',
      leverage: '20',
      achievedProfits: '0',
      unrealizedPL: '0',
      markPrice: '95000',
      marginMode: 'crossed',
      posMode: 'one_way_mode',
      totalFee: '',
      takeProfit: '',
      stopLoss: '',
    };
    expect(await onlyPosition(long)).toMatchObject({
      ...common,
      holdSide: 'long',
      // taker: 9500 x 0.0006
      deductedFee: '5.7',
      // 95000 x 1.0006 / 0.9994: the exit that pays back both taker fees
      breakEvenPrice: '95114.068',
    });
    expect(await onlyPosition(short)).toMatchObject({
      ...common,
      holdSide: 'short',
      // maker: 9500 x 0.0002
      deductedFee: '1.9',
      // 95000 x 0.9994 / 1.0006
      breakEvenPrice: '94886.068',
    });

    await test.setPrice('BTCUSDT', '96000.5');
    expect(await onlyPosition(long)).toMatchObject({ unrealizedPL: '100.05', markPrice: '96000.5' });
    expect(await onlyPosition(short)).toMatchObject({ unrealizedPL: '-100.05', markPrice: '96000.5' });
    await test.setPrice('BTCUSDT', '94000');
    expect(await onlyPosition(long)).toMatchObject({ unrealizedPL: '-100', marginSize: '475' });
  });

  it('locks what closing orders promise, counts opening orders, and realizes a partial close', async () => {
    await test.setPrice('BTCUSDT', '95000');
    const short = await openTrader(test);
    const long = await openTrader(test);
    const buyer = await openTrader(test);
    await trade(short, long, { side: 'sell', price: '95000', size: '0.1' });

    await place(long, [
      { side: 'sell', price: '97000', size: '0.04', reduceOnly: 'YES' },
      { side: 'buy', price: '90000', size: '0.02' },
    ]);
    expect(await onlyPosition(long)).toMatchObject({
      total: '0.1',
      locked: '0.04',
      available: '0.06',
      openDelegateSize: '0.02',
    });
    await cancelAll(long);
    expect(await onlyPosition(long)).toMatchObject({ locked: '0', available: '0.1', openDelegateSize: '0' });

    // The long sells 0.04 as maker at 96000: PnL 0.04 x 1000, fee 3840 x 0.0002.
    await trade(long, buyer, { side: 'sell', price: '96000', size: '0.04', reduceOnly: 'YES' });
    expect(await onlyPosition(long)).toMatchObject({
      holdSide: 'long',
      total: '0.06',
      available: '0.06',
      openPriceAvg: '95000',
      achievedProfits: '40',
      marginSize: '285',
      deductedFee: '6.468',
    });
  });

  it('lists positions per product type and filters by margin coin', async () => {
    await test.setPrice('BTCUSDT', '95000');
    const maker = await openTrader(test);
    const trader = await openTrader(test);
    await trade(maker, trader, { side: 'sell', price: '95000', size: '0.01' });
    await trade(maker, trader, { side: 'buy', price: '95000', size: '0.02' }, { market: BTCPERP });

    const usdt = await positions(trader, { productType: 'USDT-FUTURES' });
    expect(usdt.map((position) => [position.symbol, position.holdSide, position.total])).toEqual([
      ['BTCUSDT', 'long', '0.01'],
    ]);
    expect(await positions(trader, { productType: 'usdt-futures', marginCoin: 'usdt' })).toHaveLength(1);
    expect(await positions(trader, { productType: 'USDT-FUTURES', marginCoin: 'USDC' })).toEqual([]);
    const usdc = await positions(trader, { productType: 'USDC-FUTURES' });
    expect(
      usdc.map((position) => [position.symbol, position.marginCoin, position.holdSide, position.total]),
    ).toEqual([['BTCPERP', 'USDC', 'short', '0.02']]);
    expect(await positions(trader, { productType: 'COIN-FUTURES' })).toEqual([]);
  });

  it('refuses a missing product type and a malformed margin coin, and a key without read', async () => {
    const trader = await openTrader(test);
    expect(refused(await trader.client.get(ALL_POSITION, {}), '40019')).toBe(
      'Parameter productType cannot be empty',
    );
    refused(
      await trader.client.get(ALL_POSITION, { productType: 'USDT-FUTURES', marginCoin: 'US-DT' }),
      '40020',
    );
    const mgtOnly = await keyWith(test, trader.uid, ['uta_mgt_read']);
    expect(refused(await mgtOnly.get(ALL_POSITION, { productType: 'USDT-FUTURES' }), '40014')).toBe(
      'Incorrect permissions, need read permissions',
    );
  });
});

describe('E4 history-position', () => {
  it('archives a closed position with exact averages, pnl, fees and net profit', async () => {
    const opener = await openTrader(test);
    const closer = await openTrader(test);
    const trader = await openTrader(test);
    await place(opener, [
      { side: 'sell', price: '95000', size: '0.05' },
      { side: 'sell', price: '95100', size: '0.05' },
    ]);
    await place(trader, [{ side: 'buy', price: '95100', size: '0.1' }]);
    await place(closer, [
      { side: 'buy', price: '97000', size: '0.06' },
      { side: 'buy', price: '96000', size: '0.04' },
    ]);
    await place(trader, [{ side: 'sell', price: '96000', size: '0.1' }]);
    expect(await positions(trader)).toEqual([]);

    const page = await history(trader);
    expect(page.list).toHaveLength(1);
    const closed = page.list[0] as HistoricalPosition;
    expect(closed).toMatchObject({
      symbol: 'BTCUSDT',
      marginCoin: 'USDT',
      holdSide: 'long',
      posMode: 'one_way_mode',
      marginMode: 'crossed',
      openAvgPrice: '95050',
      // (0.06 x 97000 + 0.04 x 96000) / 0.1
      closeAvgPrice: '96600',
      openTotalPos: '0.1',
      closeTotalPos: '0.1',
      // 0.06 x 1950 + 0.04 x 950
      pnl: '155',
      // taker fees: 4750 x 0.0006 + 4755 x 0.0006, then 5820 x 0.0006 + 3840 x 0.0006
      openFee: '-5.703',
      closeFee: '-5.796',
      netProfit: '143.501',
      totalFunding: '0',
    });
    expect(page.endId).toBe(closed.positionId);
    expect(Number(closed.cTime)).toBeLessThanOrEqual(Number(closed.uTime));
  });

  it('pages from the most recently closed position back, without gaps or repeats', async () => {
    const maker = await openTrader(test);
    const trader = await openTrader(test);
    // Opened BTC, ETH, then closed ETH before BTC, then a whole SOL round trip.
    await trade(maker, trader, { side: 'sell', price: '95000', size: '0.01' });
    await trade(maker, trader, { side: 'sell', price: '3400', size: '0.1' }, { market: ETHUSDT });
    await trade(maker, trader, { side: 'buy', price: '3410', size: '0.1' }, { market: ETHUSDT });
    await trade(maker, trader, { side: 'buy', price: '95100', size: '0.01' });
    await trade(maker, trader, { side: 'sell', price: '180', size: '1' }, { market: SOLUSDT });
    await trade(maker, trader, { side: 'buy', price: '181', size: '1' }, { market: SOLUSDT });

    const all = (await history(trader, { productType: 'USDT-FUTURES' })).list;
    expect(all.map((item) => [item.symbol, item.pnl])).toEqual([
      ['SOLUSDT', '1'],
      ['BTCUSDT', '1'],
      ['ETHUSDT', '1'],
    ]);
    const seen: string[] = [];
    let idLessThan: string | undefined;
    for (let page = 0; page < 5; page++) {
      const query: Record<string, string> = { limit: '1' };
      if (idLessThan !== undefined) query.idLessThan = idLessThan;
      const result = await history(trader, query);
      if (result.list.length === 0) break;
      seen.push(...result.list.map((item) => item.positionId));
      idLessThan = result.endId ?? undefined;
    }
    expect(seen).toEqual(all.map((item) => item.positionId));
    const ids = seen.map(Number);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const firstTwo = await history(trader, { limit: '2' });
    expect(firstTwo.list.map((item) => item.symbol)).toEqual(['SOLUSDT', 'BTCUSDT']);
    const rest = await history(trader, { limit: '2', idLessThan: firstTwo.endId ?? '' });
    expect(rest.list.map((item) => item.symbol)).toEqual(['ETHUSDT']);
  });

  it('filters by product type, or by symbol whatever the product type says', async () => {
    const maker = await openTrader(test);
    const trader = await openTrader(test);
    await trade(maker, trader, { side: 'sell', price: '95000', size: '0.01' });
    await trade(maker, trader, { side: 'buy', price: '95000', size: '0.01' });
    await trade(maker, trader, { side: 'sell', price: '95000', size: '0.01' }, { market: BTCPERP });
    await trade(maker, trader, { side: 'buy', price: '94000', size: '0.01' }, { market: BTCPERP });

    const symbols = async (query: Record<string, string>) =>
      (await history(trader, query)).list.map((item) => [item.symbol, item.marginCoin]);
    expect(await symbols({})).toEqual([['BTCUSDT', 'USDT']]);
    expect(await symbols({ productType: 'USDC-FUTURES' })).toEqual([['BTCPERP', 'USDC']]);
    expect(await symbols({ productType: 'USDT-FUTURES', symbol: 'BTCPERP' })).toEqual([['BTCPERP', 'USDC']]);
    expect(await symbols({ symbol: 'btcusdt' })).toEqual([['BTCUSDT', 'USDT']]);
    expect(await symbols({ productType: 'COIN-FUTURES' })).toEqual([]);
    // -10 on the BTCPERP long: 0.01 x (94000 - 95000)
    expect((await history(trader, { productType: 'USDC-FUTURES' })).list[0]?.pnl).toBe('-10');
  });

  it('keeps to the time window and refuses bad parameters', async () => {
    const maker = await openTrader(test);
    const trader = await openTrader(test);
    await trade(maker, trader, { side: 'sell', price: '95000', size: '0.01' });
    await trade(maker, trader, { side: 'buy', price: '95000', size: '0.01' });
    const now = Date.now();
    expect((await history(trader, { startTime: String(now - 60_000) })).list).toHaveLength(1);
    expect((await history(trader, { endTime: String(now - 60_000) })).list).toEqual([]);
    expect(
      (await history(trader, { startTime: String(now - 89 * DAY_MS), endTime: String(now + 60_000) })).list,
    ).toHaveLength(1);

    const wide = refused(
      await trader.client.get(HISTORY_POSITION, {
        startTime: String(now - 91 * DAY_MS),
        endTime: String(now),
      }),
      '40020',
    );
    expect(wide).toContain('3 months');
    expect(refused(await trader.client.get(HISTORY_POSITION, { limit: '101' }), '40020')).toContain('limit');
    refused(await trader.client.get(HISTORY_POSITION, { idLessThan: 'newest' }), '40020');
    refused(await trader.client.get(HISTORY_POSITION, { productType: 'SPOT' }), '40020');
  });
});
