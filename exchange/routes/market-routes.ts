import { contracts, fillsHistory, mergeDepth, serverTime, tickers } from '../../shared/api/endpoints';
import { withJsonText } from '../http/pre-serialized';
import { registerEndpoint } from '../http/register-endpoint';
import type { RouteContext } from './context';
import { engineCall } from './engine-errors';

/** Public market data: server time, contracts, tickers, public fills, merged depth. */
export function registerMarketRoutes({ app, service, deps }: RouteContext): void {
  registerEndpoint(app, serverTime, ({ requestTime }) => ({ serverTime: String(requestTime) }), deps);

  registerEndpoint(
    app,
    contracts,
    ({ params }) =>
      engineCall('v2', () =>
        service.read(() => service.marketViews.contracts(params.productType, params.symbol)),
      ),
    deps,
  );

  registerEndpoint(
    app,
    tickers,
    // Cached per state version, and so is its JSON text.
    ({ params }) => service.read(() => withJsonText(service.marketViews.tickers(params.productType))),
    deps,
  );

  registerEndpoint(
    app,
    fillsHistory,
    ({ params }) =>
      engineCall('v2', () =>
        service.read(() =>
          service.marketViews.fillsHistory(params.symbol, params.productType, {
            limit: params.limit,
            idLessThan: params.idLessThan,
            startTime: params.startTime,
            endTime: params.endTime,
          }),
        ),
      ),
    deps,
  );

  registerEndpoint(
    app,
    mergeDepth,
    ({ params }) =>
      engineCall('v2', () =>
        service.read(() =>
          service.marketViews.mergeDepth(params.symbol, params.productType, params.precision, params.limit),
        ),
      ),
    deps,
  );
}
