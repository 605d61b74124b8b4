import type { FastifyInstance } from 'fastify';
import type { ExchangeService } from '../exchange-service';
import type { Account } from '../engine/types';
import type { EndpointDeps } from '../http/register-endpoint';
import type { ApiKeyRecord } from '../http/auth';
import { ApiError } from '../http/api-error';

/** What every route module needs: the app, the service and the endpoint plumbing. */
export interface RouteContext {
  readonly app: FastifyInstance;
  readonly service: ExchangeService;
  readonly deps: EndpointDeps;
}

/** The account behind an authenticated key. */
export function accountOf(service: ExchangeService, key: ApiKeyRecord | null): Account {
  const account = key === null ? undefined : service.engine.state.accounts.get(key.uid);
  if (account === undefined) throw new ApiError('40006', 'Invalid ACCESS_KEY');
  return account;
}
