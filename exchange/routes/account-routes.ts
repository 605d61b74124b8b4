import {
  allPosition,
  depositAccount,
  financialRecords,
  historyPosition,
  insLoanTransfered,
  maxTransferable,
  setLeverage,
  setMarginMode,
  setPositionMode,
  subaccountFutureAssets,
} from '../../shared/api/endpoints';
import { ERROR_CODES } from '../../shared/api/error-codes';
import type { LeverageResult } from '../engine/engine';
import { formatMoney } from '../engine/money';
import { ApiError } from '../http/api-error';
import { registerEndpoint } from '../http/register-endpoint';
import { accountOf, type RouteContext } from './context';
import { engineCall } from './engine-errors';

function leverageAnswer(result: LeverageResult) {
  return {
    symbol: result.symbol,
    marginCoin: result.marginCoin,
    longLeverage: String(result.longLeverage),
    shortLeverage: String(result.shortLeverage),
    crossMarginLeverage: String(result.crossMarginLeverage),
    marginMode: result.marginMode,
  };
}

/** Positions, records, leverage and account settings. */
export function registerAccountRoutes({ app, service, deps }: RouteContext): void {
  const views = service.views;

  registerEndpoint(
    app,
    allPosition,
    ({ params, key }) => {
      const account = accountOf(service, key);
      return service.read(() => views.allPositions(account, params.productType, params.marginCoin));
    },
    deps,
  );

  registerEndpoint(
    app,
    historyPosition,
    ({ params, key }) => {
      const account = accountOf(service, key);
      return service.read(() => views.historyPositions(account, params));
    },
    deps,
  );

  registerEndpoint(
    app,
    financialRecords,
    ({ params, key }) => {
      const account = accountOf(service, key);
      return service.read(() => views.financialRecords(account, params));
    },
    deps,
  );

  registerEndpoint(
    app,
    subaccountFutureAssets,
    ({ params, key }) => {
      const broker = accountOf(service, key);
      if (broker.kind !== 'broker') {
        throw new ApiError(
          ERROR_CODES.notBroker.code,
          `${ERROR_CODES.notBroker.msg}: only a broker main account can read sub-account assets`,
        );
      }
      const sub = service.engine.state.accounts.get(params.subUid);
      if (sub === undefined || sub.brokerUid !== broker.uid) {
        throw new ApiError(
          ERROR_CODES.paramError.code,
          `Parameter subUid error: ${params.subUid} is not a sub-account of this broker`,
        );
      }
      return service.read(() => ({ assetsList: views.futureAssets(sub, params.productType) }));
    },
    deps,
  );

  registerEndpoint(
    app,
    insLoanTransfered,
    ({ params, key }) => {
      const account = accountOf(service, key);
      const userId = params.userId ?? account.uid;
      const target = service.engine.state.accounts.get(userId);
      if (target === undefined || (target.uid !== account.uid && target.brokerUid !== account.uid)) {
        throw new ApiError(
          ERROR_CODES.paramError.code,
          `Parameter userId error: ${userId} is neither this account nor one of its sub-accounts`,
        );
      }
      return service.read(() => ({
        coin: params.coin,
        transfered: formatMoney(target.insLoans.get(params.coin) ?? 0n),
        userId,
      }));
    },
    deps,
  );

  registerEndpoint(
    app,
    maxTransferable,
    ({ params, key }) => {
      const account = accountOf(service, key);
      return service.read(() => views.maxTransferable(account, params.coin));
    },
    deps,
  );

  registerEndpoint(
    app,
    depositAccount,
    async ({ params, key }) => {
      const account = accountOf(service, key);
      return engineCall('v3', () =>
        service.execute({
          type: 'setDepositAccount',
          uid: account.uid,
          coin: params.coin,
          accountType: params.accountType,
        }),
      );
    },
    deps,
  );

  registerEndpoint(
    app,
    setLeverage,
    async ({ params, key }) => {
      const account = accountOf(service, key);
      const number = (value: string | undefined) => (value === undefined ? null : Number(value));
      const result = await engineCall('v2', () =>
        service.execute({
          type: 'setLeverage',
          uid: account.uid,
          productType: params.productType,
          symbol: params.symbol,
          marginCoin: params.marginCoin,
          leverage: number(params.leverage),
          longLeverage: number(params.longLeverage),
          shortLeverage: number(params.shortLeverage),
          holdSide: params.holdSide ?? null,
        }),
      );
      return leverageAnswer(result);
    },
    deps,
  );

  registerEndpoint(
    app,
    setPositionMode,
    async ({ params, key }) => {
      const account = accountOf(service, key);
      return engineCall('v2', () =>
        service.execute({
          type: 'setPositionMode',
          uid: account.uid,
          productType: params.productType,
          posMode: params.posMode,
        }),
      );
    },
    deps,
  );

  registerEndpoint(
    app,
    setMarginMode,
    async ({ params, key }) => {
      const account = accountOf(service, key);
      const result = await engineCall('v2', () =>
        service.execute({
          type: 'setMarginMode',
          uid: account.uid,
          productType: params.productType,
          symbol: params.symbol,
          marginCoin: params.marginCoin,
          marginMode: params.marginMode,
        }),
      );
      const { crossMarginLeverage: _cross, ...answer } = leverageAnswer(result);
      return answer;
    },
    deps,
  );
}
