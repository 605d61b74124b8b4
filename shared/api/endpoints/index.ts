import type { EndpointDefinition } from '../endpoint';
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
import { cancelOrderV3 } from './c05-cancel-order-v3';

export * from './e01-batch-place-order';
export * from './e02-place-batch-v3';
export * from './e03-batch-cancel-orders';
export * from './e04-history-position';
export * from './e05-financial-records';
export * from './e06-subaccount-future-assets';
export * from './e07-all-position';
export * from './e08-place-pos-tpsl';
export * from './e09-place-strategy-order';
export * from './e10-ins-loan-transfered';
export * from './e11-tickers';
export * from './e12-set-leverage';
export * from './e13-fills-history';
export * from './e14-max-transferable';
export * from './e15-merge-depth';
export * from './e16-deposit-account';
export * from './e17-orders-pending';
export * from './e18-order-info';
export * from './c01-server-time';
export * from './c02-contracts';
export * from './c03-set-position-mode';
export * from './c04-set-margin-mode';
export * from './c05-cancel-order-v3';
export * from './parse-request';

/** Every endpoint: the spec's E1..E18, then the companions C1..C5. */
export const ENDPOINTS: readonly EndpointDefinition[] = [
  batchPlaceOrder,
  placeBatchV3,
  batchCancelOrders,
  historyPosition,
  financialRecords,
  subaccountFutureAssets,
  allPosition,
  placePosTpsl,
  placeStrategyOrder,
  insLoanTransfered,
  tickers,
  setLeverage,
  fillsHistory,
  maxTransferable,
  mergeDepth,
  depositAccount,
  ordersPending,
  orderInfo,
  serverTime,
  contracts,
  setPositionMode,
  setMarginMode,
  cancelOrderV3,
];
