// Response schemas against the shapes of the spec's samples and of live answers.
import { describe, expect, it } from 'vitest';
import { batchPlaceOrder } from './e01-batch-place-order';
import { placeBatchV3 } from './e02-place-batch-v3';
import { batchCancelOrders } from './e03-batch-cancel-orders';
import { historyPosition } from './e04-history-position';
import { financialRecords } from './e05-financial-records';
import { subaccountFutureAssets } from './e06-subaccount-future-assets';
import { allPosition } from './e07-all-position';
import { placePosTpsl } from './e08-place-pos-tpsl';
import { placeStrategyOrder } from './e09-place-strategy-order';
import { insLoanTransfered } from './e10-ins-loan-transfered';
import { tickers } from './e11-tickers';
import { setLeverage } from './e12-set-leverage';
import { fillsHistory } from './e13-fills-history';
import { maxTransferable } from './e14-max-transferable';
import { mergeDepth } from './e15-merge-depth';
import { depositAccount } from './e16-deposit-account';
import { ordersPending } from './e17-orders-pending';
import { orderInfo } from './e18-order-info';
import { serverTime } from './c01-server-time';
import { contracts } from './c02-contracts';
import { setPositionMode } from './c03-set-position-mode';
import { setMarginMode } from './c04-set-margin-mode';

const perpetualTicker = {
  symbol: 'BTCUSDT',
  lastPr: '29904.5',
  askPr: '29904.5',
  bidPr: '29903.5',
  bidSz: '0.5091',
  askSz: '2.2694',
  high24h: '0',
  low24h: '0',
  ts: '1695794271400',
  change24h: '0',
  baseVolume: '0',
  quoteVolume: '0',
  usdtVolume: '0',
  openUtc: '0',
  changeUtc24h: '0',
  indexPrice: '29132.353333',
  fundingRate: '-0.0007',
  holdingAmount: '125.6844',
  deliveryStartTime: null,
  deliveryTime: null,
  deliveryStatus: '',
  open24h: '0',
  markPrice: '29900.1',
};

const pendingOrder = {
  symbol: 'ETHUSDT',
  size: '100',
  orderId: '1111111111',
  clientOid: '1111111111',
  baseVolume: '0',
  fee: '0',
  price: '1500',
  priceAvg: '',
  status: 'live',
  side: 'buy',
  force: 'gtc',
  totalProfits: '',
  posSide: 'long',
  marginCoin: 'USDT',
  quoteVolume: '0',
  leverage: '20',
  marginMode: 'crossed',
  reduceOnly: 'NO',
  enterPointSource: 'API',
  tradeSide: 'open',
  posMode: 'hedge_mode',
  orderType: 'limit',
  orderSource: 'normal',
  cTime: '1695100734000',
  uTime: '1695100734000',
  presetStopSurplusPrice: '',
  presetStopSurplusType: '',
  presetStopSurplusExecutePrice: '',
  presetStopLossPrice: '',
  presetStopLossType: '',
  presetStopLossExecutePrice: '',
};

const position = {
  symbol: 'BTCUSDT',
  marginCoin: 'USDT',
  holdSide: 'long',
  openDelegateSize: '0',
  marginSize: '1491.4',
  available: '0.1',
  locked: '0',
  total: '0.1',
  leverage: '2',
  achievedProfits: '0',
  openPriceAvg: '29828',
  marginMode: 'isolated',
  posMode: 'one_way_mode',
  unrealizedPL: '7.3',
  liquidationPrice: '15062.4',
  keepMarginRate: '0.004',
  markPrice: '29901',
  marginRatio: '0.002',
  breakEvenPrice: '29864',
  totalFee: '',
  deductedFee: '1.78',
  takeProfit: '',
  stopLoss: '',
  takeProfitId: '',
  stopLossId: '',
  assetMode: 'single',
  cTime: '1695100734000',
  uTime: '1695100734000',
};

const contract = {
  symbol: 'BTCUSDT',
  baseCoin: 'BTC',
  quoteCoin: 'USDT',
  buyLimitPriceRatio: '0.01',
  sellLimitPriceRatio: '0.01',
  makerFeeRate: '0.0002',
  takerFeeRate: '0.0006',
  supportMarginCoins: ['USDT'],
  minTradeNum: '0.0001',
  priceEndStep: '1',
  volumePlace: '4',
  pricePlace: '1',
  sizeMultiplier: '0.0001',
  symbolType: 'perpetual',
  minTradeUSDT: '5',
  symbolStatus: 'normal',
  deliveryTime: '',
  deliveryStartTime: null,
  fundInterval: '8',
  minLever: '1',
  maxLever: '125',
  maxMarketOrderQty: '220',
  maxOrderQty: '1200',
};

describe('market data responses', () => {
  it('merge-depth reads levels sent as JSON numbers or strings, as text', () => {
    const live = {
      asks: [
        [26347.5, 0.25],
        [26348, 0.16],
      ],
      bids: [['26346.5', '0.16']],
      ts: '1695870968804',
      scale: '0.1',
      precision: 'scale0',
      isMaxPrecision: 'NO',
    };
    const depth = mergeDepth.response.parse(live);
    expect(depth.asks).toEqual([
      ['26347.5', '0.25'],
      ['26348', '0.16'],
    ]);
    expect(depth.bids).toEqual([['26346.5', '0.16']]);
  });

  it('merge-depth refuses a level without its size', () => {
    expect(
      mergeDepth.response.safeParse({
        asks: [[1]],
        bids: [],
        ts: '1',
        scale: '1',
        precision: 'scale0',
        isMaxPrecision: 'YES',
      }).success,
    ).toBe(false);
  });

  it('tickers accept null delivery times and an empty delivery status of perpetuals', () => {
    const delivery = {
      ...perpetualTicker,
      symbol: 'BTCUSD_250926',
      deliveryStartTime: '1758873600000',
      deliveryTime: '1758873600000',
      deliveryStatus: 'delivery_normal',
    };
    const [perpetual, future] = tickers.response.parse([perpetualTicker, delivery]);
    expect(perpetual?.deliveryTime).toBeNull();
    expect(future?.deliveryStatus).toBe('delivery_normal');
    expect(tickers.response.safeParse([{ ...perpetualTicker, lastPr: 29904.5 }]).success).toBe(false);
  });

  it('fills-history reads capitalised sides as lower case', () => {
    const fills = fillsHistory.response.parse([
      {
        tradeId: '1',
        price: '29990.5',
        size: '0.0166',
        side: 'Sell',
        ts: '1695865151000',
        symbol: 'BTCUSDT',
      },
    ]);
    expect(fills[0]?.side).toBe('sell');
  });

  it('contracts keep what a client needs to place valid orders, and pass extra fields', () => {
    const [config] = contracts.response.parse([contract]);
    expect(config).toMatchObject({
      pricePlace: '1',
      priceEndStep: '1',
      volumePlace: '4',
      minTradeNum: '0.0001',
    });
    const { pricePlace: _pricePlace, ...withoutPricePlace } = contract;
    expect(contracts.response.safeParse([withoutPricePlace]).success).toBe(false);
  });

  it('server time is a string of ms', () => {
    expect(serverTime.response.parse({ serverTime: '1688008631614' })).toEqual({
      serverTime: '1688008631614',
    });
  });
});

describe('trading responses', () => {
  it('batch place and cancel list successes and failures', () => {
    const sample = {
      successList: [{ orderId: '121211212122', clientOid: '121211212122' }],
      failureList: [{ orderId: '', clientOid: 'x', errorMsg: 'Duplicate clientOid', errorCode: '40786' }],
    };
    expect(batchPlaceOrder.response.parse(sample)).toEqual(sample);
    expect(batchCancelOrders.response.parse(sample)).toEqual(sample);
    expect(batchPlaceOrder.response.safeParse({ successList: [] }).success).toBe(false);
  });

  it('v3 place-batch allows a null orderId', () => {
    const sample = [
      { orderId: '1', clientOid: 'a', code: '00000', msg: 'success' },
      { orderId: null, clientOid: 'b', code: '00000', msg: 'success' },
    ];
    expect(placeBatchV3.response.parse(sample)).toEqual(sample);
  });

  it('pos-tpsl, strategy order and leverage results', () => {
    expect(
      placePosTpsl.response.parse([{ orderId: '1', stopSurplusClientOid: 'tp-1', stopLossClientOid: '' }]),
    ).toHaveLength(1);
    expect(placeStrategyOrder.response.parse({ orderId: '1', clientOid: 'c' })).toEqual({
      orderId: '1',
      clientOid: 'c',
    });
    const leverage = {
      symbol: 'BTCUSDT',
      marginCoin: 'USDT',
      longLeverage: '20',
      shortLeverage: '20',
      crossMarginLeverage: '20',
      marginMode: 'crossed',
    };
    expect(setLeverage.response.parse(leverage)).toEqual(leverage);
    expect(setLeverage.response.parse({ ...leverage, marginMode: 'cross' }).marginMode).toBe('crossed');
    expect(setPositionMode.response.parse({ posMode: 'hedge_mode' })).toEqual({ posMode: 'hedge_mode' });
    const { crossMarginLeverage: _cross, ...marginModeResult } = leverage;
    expect(setMarginMode.response.parse(marginModeResult)).toEqual(marginModeResult);
  });

  it('deposit-account data is a plain string', () => {
    expect(depositAccount.response.parse('success')).toBe('success');
    expect(depositAccount.response.safeParse({}).success).toBe(false);
  });
});

describe('query responses', () => {
  it('orders-pending reads a page, and null for an empty one', () => {
    expect(ordersPending.response.parse({ entrustedList: [pendingOrder], endId: '1111111111' })).toEqual({
      entrustedList: [pendingOrder],
      endId: '1111111111',
    });
    expect(ordersPending.response.parse({ entrustedList: null, endId: null })).toEqual({
      entrustedList: [],
      endId: null,
    });
    expect(
      ordersPending.response.safeParse({ entrustedList: [{ ...pendingOrder, status: 'filled' }], endId: '' })
        .success,
    ).toBe(false);
  });

  it('all-position reads positions with empty optional texts', () => {
    expect(allPosition.response.parse([position])).toEqual([position]);
  });

  it('history-position reads a page', () => {
    const closed = {
      positionId: '1',
      symbol: 'ETHUSDT',
      marginCoin: 'USDT',
      holdSide: 'short',
      posMode: 'hedge_mode',
      openAvgPrice: '1206.7',
      closeAvgPrice: '1206.8',
      marginMode: 'isolated',
      openTotalPos: '1.15',
      closeTotalPos: '1.15',
      pnl: '-0.11',
      netProfit: '-1.780315',
      totalFunding: '0',
      openFee: '-0.83',
      closeFee: '-0.83',
      cTime: '1689300233897',
      uTime: '1689300238205',
    };
    expect(historyPosition.response.parse({ list: [closed], endId: '1' })).toEqual({
      list: [closed],
      endId: '1',
    });
  });

  it('order-info reads a v3 order, empty posSide and holdMode included', () => {
    const order = {
      orderId: '1',
      clientOid: 'c-1',
      category: 'SPOT',
      symbol: 'BTCUSDT',
      orderType: 'limit',
      side: 'buy',
      price: '25000',
      qty: '0.001',
      amount: '0',
      cumExecQty: '0',
      cumExecValue: '0',
      avgPrice: '0',
      timeInForce: 'gtc',
      orderStatus: 'live',
      posSide: '',
      holdMode: '',
      tradeSide: 'open',
      stpMode: 'none',
      reduceOnly: '',
      feeDetail: [{ feeCoin: 'BTC', fee: '0' }],
      cancelReason: '',
      execType: 'normal',
      createdTime: '1700000000000',
      updatedTime: '1700000000000',
    };
    expect(orderInfo.response.parse(order)).toEqual(order);
    expect(orderInfo.response.safeParse({ ...order, orderStatus: 'open' }).success).toBe(false);
  });

  it('financial records, sub-account assets, loans and max transferable', () => {
    const record = {
      category: 'USDT-FUTURES',
      id: '1',
      symbol: 'BTCUSDT',
      coin: 'USDT',
      type: 'TRANSFER_IN',
      amount: '100',
      fee: '0',
      balance: '100',
      ts: '1700000000000',
    };
    expect(financialRecords.response.parse({ list: [record], cursor: '1' }).list).toEqual([record]);
    const asset = {
      marginCoin: 'USDT',
      available: '1',
      frozen: '0',
      locked: '0',
      crossedMaxAvailable: '1',
      isolatedMaxAvailable: '1',
      maxTransferOut: '1',
      accountEquity: '1',
      usdtEquity: '1',
      btcEquity: '0.00003',
      unrealizedPL: '0',
      uTime: '1700000000000',
    };
    expect(subaccountFutureAssets.response.parse({ assetsList: [asset] }).assetsList).toEqual([asset]);
    expect(insLoanTransfered.response.parse({ coin: 'USDT', transfered: '10', userId: '1' }).transfered).toBe(
      '10',
    );
    const sampled = { coin: 'USDT', maxTransfer: '10', borrowMaxTransfer: '0' };
    expect(maxTransferable.response.parse(sampled)).toEqual(sampled);
    expect(maxTransferable.response.parse({ ...sampled, coin: ['USDT'] })).toEqual(sampled);
  });
});
