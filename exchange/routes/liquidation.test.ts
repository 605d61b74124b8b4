// Liquidation price, margin ratio and liquidation over HTTP against a real paper exchange, then a
// restart on the same data folder. The simulated market is paused: accounts trade only with each
// other, and the admin price route moves the mark price alone.
// BTCUSDT tier 1: maintenance margin rate 0.40%, taker fee 0.06%, so MMR + fee = 0.0046.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchPlaceOrder, financialRecords, historyPosition } from '../../shared/api/endpoints';
import { orderDetail, positionsOf } from '../testing/account-reads';
import { ok } from '../testing/responses';
import type { SignedClient } from '../testing/signed-client';
import { startTestExchange, type TestExchange } from '../testing/test-exchange';

const SET_LEVERAGE = '/api/v2/mix/account/set-leverage';
const SET_MARGIN_MODE = '/api/v2/mix/account/set-margin-mode';

interface Contract {
  symbol: string;
  productType: string;
  marginCoin: string;
}
const BTCUSDT: Contract = { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginCoin: 'USDT' };
const BTCUSD: Contract = { symbol: 'BTCUSD', productType: 'COIN-FUTURES', marginCoin: 'BTC' };

let dataDir = '';
let test: TestExchange;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'paper-liquidation-'));
  test = await startTestExchange({ dataDir });
});

afterAll(async () => {
  await test.stop();
  await rm(dataDir, { recursive: true, force: true });
});

async function trader(balances: Record<string, string>, isolatedLeverage?: string, contract = BTCUSDT) {
  const { client } = await test.newAccount({ balances });
  if (isolatedLeverage !== undefined) {
    ok(await client.post(SET_MARGIN_MODE, { ...contract, marginMode: 'isolated' }));
    ok(await client.post(SET_LEVERAGE, { ...contract, leverage: isolatedLeverage }));
  }
  return client;
}

/** Places limit orders; returns their ids. */
async function place(
  client: SignedClient,
  orders: Array<{ side: 'buy' | 'sell'; price: string; size: string }>,
  contract = BTCUSDT,
  marginMode = 'crossed',
): Promise<string[]> {
  const response = await client.post(batchPlaceOrder.path, {
    ...contract,
    marginMode,
    orderList: orders.map((order) => ({ orderType: 'limit', ...order })),
  });
  const result = batchPlaceOrder.response.parse(ok(response));
  expect(result.failureList).toEqual([]);
  return (result.successList ?? []).map((item) => item.orderId);
}

/** `taker` opens `size` at `price` against a maker with plenty of margin; returns the taker's order id. */
async function open(
  taker: SignedClient,
  side: 'buy' | 'sell',
  price: string,
  size: string,
  contract = BTCUSDT,
  marginMode = 'crossed',
): Promise<string> {
  const maker = await trader(contract === BTCUSDT ? { USDT: '1000000' } : { BTC: '100' });
  await place(maker, [{ side: side === 'buy' ? 'sell' : 'buy', price, size }], contract);
  const [id] = await place(taker, [{ side, price, size }], contract, marginMode);
  return id as string;
}

async function records(client: SignedClient, category = 'USDT-FUTURES') {
  const response = await client.get(financialRecords.path, { category });
  const list = financialRecords.response.parse(ok(response)).list ?? [];
  return list
    .filter((record) => record.type !== 'TRANSFER_IN')
    .reverse()
    .map(({ type, amount, fee, balance }) => ({ type, amount, fee, balance }));
}

async function history(client: SignedClient, productType = 'USDT-FUTURES') {
  return (
    historyPosition.response.parse(ok(await client.get(historyPosition.path, { productType }))).list ?? []
  );
}

const nextId = (id: string) => String(BigInt(id) + 1n);

describe('isolated, linear (BTCUSDT)', () => {
  it('shows the published liquidation price and margin ratio, and liquidates past it', async () => {
    await test.setPrice('BTCUSDT', '95000');
    const long = await trader({ USDT: '1000' }, '10');
    const short = await trader({ USDT: '1000' }, '10');
    await open(long, 'buy', '95000', '0.1', BTCUSDT, 'isolated');
    await open(short, 'sell', '95000', '0.1', BTCUSDT, 'isolated');
    const resting = await place(long, [{ side: 'buy', price: '80000', size: '0.001' }], BTCUSDT, 'isolated');

    expect(await positionsOf(long)).toMatchObject([
      {
        holdSide: 'long',
        marginMode: 'isolated',
        leverage: '10',
        // 9500 / 10
        marginSize: '950',
        keepMarginRate: '0.004',
        // LP = (950 - 0.1 x 95000) / (0.1 x (0.0046 - 1)) = 85895.1175...
        liquidationPrice: '85895.1',
        // MM = 9500 x 0.0046 = 43.7; 43.7 / (950 + 0) = 0.046
        marginRatio: '0.046',
        // 95000 x 1.0006 / 0.9994 = 95114.0684...
        breakEvenPrice: '95114.068',
        // taker fee 9500 x 0.0006
        deductedFee: '5.7',
      },
    ]);
    // LP = (950 + 0.1 x 95000) / (0.1 x (0.0046 + 1)) = 104021.5010...
    expect(await positionsOf(short)).toMatchObject([{ holdSide: 'short', liquidationPrice: '104021.5' }]);

    await test.setPrice('BTCUSDT', '86000');
    // MM = 0.1 x 86000 x 0.0046 = 39.56; equity = 950 + 0.1 x (86000 - 95000) = 50; 39.56 / 50
    expect(await positionsOf(long)).toMatchObject([{ marginRatio: '0.7912', unrealizedPL: '-900' }]);

    await test.setPrice('BTCUSDT', '85895');
    expect(await positionsOf(long)).toEqual([]);
    // The resting order went first; then the exchange's close, at the mark.
    expect(await orderDetail(long, { orderId: resting[0] as string })).toMatchObject({
      orderStatus: 'cancelled',
      cancelReason: 'liquidation',
    });
    expect(await orderDetail(long, { orderId: nextId(resting[0] as string) })).toMatchObject({
      execType: 'liquidation',
      side: 'sell',
      orderStatus: 'filled',
      cumExecQty: '0.1',
      avgPrice: '85895',
      reduceOnly: 'YES',
    });
    expect(await history(long)).toMatchObject([
      {
        holdSide: 'long',
        marginMode: 'isolated',
        openAvgPrice: '95000',
        closeAvgPrice: '85895',
        // 0.1 x (85895 - 95000)
        pnl: '-910.5',
        openFee: '-5.7',
        // 8589.5 x 0.0006
        closeFee: '-5.1537',
      },
    ]);
    // The loss (910.5 + 5.1537) is within the 950 margin: no insurance payment; what the margin
    // had left (950 - 915.6537 = 34.3463) goes to the insurance fund, so the position cost its margin.
    expect(await records(long)).toEqual([
      { type: 'OPEN_LONG', amount: '0', fee: '-5.7', balance: '994.3' },
      { type: 'BURST_LONG_LOSS_QUERY', amount: '-910.5', fee: '-5.1537', balance: '78.6463' },
      { type: 'RISK_CAPTITAL_USER_TRANSFER', amount: '-34.3463', fee: '0', balance: '44.3' },
    ]);
    expect(await positionsOf(short)).toMatchObject([{ holdSide: 'short', total: '0.1' }]);

    // A jump far past the short's 104021.5: the close at 110000 would lose 1500 + 6.6, more than
    // its 950 margin; the insurance fund pays in 556.6 first, so the balance ends at 994.3 - 950.
    await test.setPrice('BTCUSDT', '110000');
    expect(await positionsOf(short)).toEqual([]);
    expect(await records(short)).toEqual([
      { type: 'OPEN_SHORT', amount: '0', fee: '-5.7', balance: '994.3' },
      { type: 'RISK_CAPTITAL_USER_TRANSFER', amount: '556.6', fee: '0', balance: '1550.9' },
      { type: 'BURST_SHORT_LOSS_QUERY', amount: '-1500', fee: '-6.6', balance: '44.3' },
    ]);
    expect(await history(short)).toMatchObject([
      { holdSide: 'short', closeAvgPrice: '110000', pnl: '-1500' },
    ]);
  });
});

describe('crossed, linear (BTCUSDT)', () => {
  it('uses the account equity in the liquidation price and liquidates at 100%', async () => {
    await test.setPrice('BTCUSDT', '95000');
    const poor = await trader({ USDT: '1000' });
    const rich = await trader({ USDT: '100000' });
    await open(poor, 'buy', '95000', '0.1');
    await open(rich, 'buy', '95000', '0.1');
    expect(await positionsOf(poor)).toMatchObject([
      {
        marginMode: 'crossed',
        keepMarginRate: '0.004',
        // X = 1000 - 5.7 fee = 994.3; LP = (994.3 - 9500) / (0.1 x (0.0046 - 1)) = 85450.0703...
        liquidationPrice: '85450.1',
        // 43.7 / 994.3 = 0.04395...
        marginRatio: '0.044',
      },
    ]);
    // (99994.3 - 9500) / (0.1 x (0.0046 - 1)) = -909124.97...: no liquidation risk.
    expect(await positionsOf(rich)).toMatchObject([{ liquidationPrice: '-909125' }]);

    await test.setPrice('BTCUSDT', '85451');
    expect(await positionsOf(poor)).toMatchObject([{ total: '0.1' }]);
    await test.setPrice('BTCUSDT', '85450');
    expect(await positionsOf(poor)).toEqual([]);
    expect(await records(poor)).toEqual([
      { type: 'OPEN_LONG', amount: '0', fee: '-5.7', balance: '994.3' },
      // 0.1 x (85450 - 95000); fee 8545 x 0.0006
      { type: 'BURST_LONG_LOSS_QUERY', amount: '-955', fee: '-5.127', balance: '34.173' },
      // The crossed equity left goes to the insurance fund.
      { type: 'RISK_CAPTITAL_USER_TRANSFER', amount: '-34.173', fee: '0', balance: '0' },
    ]);
    expect(await positionsOf(rich)).toMatchObject([{ total: '0.1' }]);
  });
});

describe('isolated, inverse (BTCUSD)', () => {
  it('solves the margin-rate equation in coin and liquidates past it', async () => {
    await test.setPrice('BTCUSD', '95000', 'COIN-FUTURES');
    const long = await trader({ BTC: '1' }, '10', BTCUSD);
    await open(long, 'buy', '95000', '1', BTCUSD, 'isolated');
    expect(await positionsOf(long, 'COIN-FUTURES')).toMatchObject([
      {
        marginCoin: 'BTC',
        // 1 BTC / 10
        marginSize: '0.1',
        keepMarginRate: '0.004',
        // face = 95000 USD; LP = face x (1 + 0.0046) / (0.1 + 1) = 86760.909...
        liquidationPrice: '86760.9',
        // value = face / mark = 1 BTC; MM = 0.0046 BTC; 0.0046 / 0.1
        marginRatio: '0.046',
      },
    ]);
    await test.setPrice('BTCUSD', '86761', 'COIN-FUTURES');
    expect(await positionsOf(long, 'COIN-FUTURES')).toMatchObject([{ total: '1' }]);
    await test.setPrice('BTCUSD', '86760', 'COIN-FUTURES');
    expect(await positionsOf(long, 'COIN-FUTURES')).toEqual([]);
    expect(await records(long, 'COIN-FUTURES')).toEqual([
      { type: 'OPEN_LONG', amount: '0', fee: '-0.0006', balance: '0.9994' },
      // 1 x (86760 - 95000) / 86760 = -0.09497464...; fee 1 BTC x 0.0006
      { type: 'BURST_LONG_LOSS_QUERY', amount: '-0.09497464', fee: '-0.0006', balance: '0.90382536' },
      // The 0.1 BTC margin is lost: 0.90382536 - (0.9994 - 0.1) goes to the insurance fund.
      { type: 'RISK_CAPTITAL_USER_TRANSFER', amount: '-0.00442536', fee: '0', balance: '0.8994' },
    ]);
  });
});

describe('restart', () => {
  it('replays the journal to the same liquidations, records and balances', async () => {
    const accounts = ((await test.admin('GET', '/paper/v1/accounts')).body?.data as { accounts: unknown[] })
      .accounts;
    await test.stop();
    test = await startTestExchange({ dataDir });
    const after = ((await test.admin('GET', '/paper/v1/accounts')).body?.data as { accounts: unknown[] })
      .accounts;
    expect(after).toEqual(accounts);
  });
});
