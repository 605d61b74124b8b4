import { paperAdmin } from '../../shared/api/paper-admin';
import { formatMoney, formatScaled } from '../engine/money';
import { registerAdminRoute, type AdminOptions } from '../http/admin';
import { ApiError } from '../http/api-error';
import type { ArmedFault, FaultRegistry } from '../http/faults';
import { newCredentials, newUid } from '../exchange-service';
import type { RouteContext } from './context';
import { engineCall } from './engine-errors';

/** The paper exchange's own interface for tests, the app's paper-account screen and bot testers. */
export function registerAdminRoutes(
  { app, service }: RouteContext,
  faults: FaultRegistry,
  options: AdminOptions,
): void {
  registerAdminRoute(
    app,
    paperAdmin.createAccount,
    async ({ params }) => {
      const key = newCredentials(params.permissions);
      const uid = newUid();
      await engineCall('v2', () =>
        service.execute({
          type: 'createAccount',
          uid,
          kind: params.kind,
          brokerUid: params.brokerUid ?? null,
          label: params.label ?? '',
          posMode: params.posMode,
          balances: params.balances,
          key,
        }),
      );
      return { uid, kind: params.kind, ...key };
    },
    options,
  );

  registerAdminRoute(
    app,
    paperAdmin.listAccounts,
    () =>
      service.read(() => ({
        accounts: [...service.engine.state.accounts.values()].map((account) => ({
          uid: account.uid,
          kind: account.kind,
          brokerUid: account.brokerUid,
          label: account.label,
          apiKeys: account.keys.map((key) => ({ apiKey: key.apiKey, permissions: [...key.permissions] })),
          balances: moneyRecord(account.balances),
          fundingBalances: moneyRecord(account.wallets.get('funding')),
          otcBalances: moneyRecord(account.wallets.get('otc')),
          posMode: account.posModes['USDT-FUTURES'],
        })),
      })),
    options,
  );

  registerAdminRoute(
    app,
    paperAdmin.createKey,
    async ({ params, pathParams }) => {
      const uid = pathParams.uid ?? '';
      if (!service.engine.state.accounts.has(uid))
        throw new ApiError('40020', `Parameter uid error: no account ${uid}`);
      const key = newCredentials(params.permissions);
      await engineCall('v2', () => service.execute({ type: 'addApiKey', uid, key }));
      return key;
    },
    options,
  );

  registerAdminRoute(
    app,
    paperAdmin.setPrice,
    async ({ params }) => {
      await engineCall('v2', () => service.engine.marketFor(params.symbol, params.productType));
      await engineCall('v2', () =>
        service.execute({ type: 'setPrice', symbol: params.symbol, price: params.price }),
      );
      return { symbol: params.symbol, price: params.price };
    },
    options,
  );

  registerAdminRoute(
    app,
    paperAdmin.setMarket,
    ({ params }) =>
      engineCall('v2', () => service.execute({ type: 'setMarketPaused', paused: params.paused })),
    options,
  );

  registerAdminRoute(
    app,
    paperAdmin.deposit,
    async ({ params }) => {
      const result = await engineCall('v2', () => service.execute({ type: 'deposit', ...params }));
      return { ...result, amount: formatMoney(result.amount), balance: formatMoney(result.balance) };
    },
    options,
  );

  registerAdminRoute(
    app,
    paperAdmin.attachLoan,
    async ({ params }) => {
      const result = await engineCall('v2', () => service.execute({ type: 'attachLoan', ...params }));
      return { ...result, amount: formatMoney(result.amount), transfered: formatMoney(result.transfered) };
    },
    options,
  );

  registerAdminRoute(
    app,
    paperAdmin.settleFunding,
    async ({ params }) => {
      const settled = await engineCall('v2', () =>
        service.execute({ type: 'settleFunding', symbol: params.symbol ?? null }),
      );
      return {
        settled: settled.map(({ symbol, ratePpm, positions }) => ({
          symbol,
          fundingRate: formatScaled(ratePpm, 6),
          positions,
        })),
      };
    },
    options,
  );

  registerAdminRoute(
    app,
    paperAdmin.listContract,
    async ({ params }) => {
      const productType =
        params.productType ?? service.engine.state.market(params.baseSymbol)?.contract.productType;
      if (productType === undefined)
        throw new ApiError('40034', `Parameter baseSymbol ${params.baseSymbol} does not exist`);
      const listed = await engineCall('v2', () =>
        service.execute({
          type: 'listContract',
          productType,
          baseSymbol: params.baseSymbol,
          listTime: params.listTime ?? null,
          limitOpenTime: params.limitOpenTime ?? null,
          deliveryStartTime: params.deliveryStartTime ?? null,
          deliveryTime: params.deliveryTime,
        }),
      );
      return {
        ...listed,
        launchTime: String(listed.launchTime),
        limitOpenTime: String(listed.limitOpenTime),
        deliveryStartTime: String(listed.deliveryStartTime),
        deliveryTime: String(listed.deliveryTime),
      };
    },
    options,
  );

  registerAdminRoute(app, paperAdmin.addFault, ({ params }) => faultView(faults.add(params)), options);
  registerAdminRoute(app, paperAdmin.listFaults, () => ({ faults: faults.list().map(faultView) }), options);
  registerAdminRoute(
    app,
    paperAdmin.clearFaults,
    () => {
      const cleared = faults.list().length;
      faults.clear();
      return { cleared };
    },
    options,
  );
}

function moneyRecord(balances: ReadonlyMap<string, bigint> | undefined): Record<string, string> {
  return Object.fromEntries([...(balances ?? [])].map(([coin, amount]) => [coin, formatMoney(amount)]));
}

function faultView(fault: ArmedFault) {
  return {
    id: String(fault.id),
    path: fault.path,
    remaining: fault.remaining,
    kind: fault.kind,
    delayMs: fault.delayMs ?? null,
  };
}
