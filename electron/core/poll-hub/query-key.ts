// A query key names what a window wants polled: an endpoint and its parameters. Parameters are
// read through the endpoint's request schema first, so spellings the exchange treats alike
// (`usdt-futures` and `USDT-FUTURES`, `btcusdt` and `BTCUSDT`) name one key and one poll.
import type { EndpointDefinition } from '../../../shared/api/endpoint';
import { ENDPOINTS } from '../../../shared/api/endpoints';
import { describeParameterError } from '../../../shared/api/parameter-error';
import { ApiCallError, LOCAL_ERROR_CODES } from '../api/api-call-error';
import { encodeQuery } from '../api/request-signing';

export interface QueryKey {
  /** E11, E15, … (see shared/api/endpoints). */
  readonly endpointId: string;
  readonly params: Readonly<Record<string, unknown>>;
}

export interface CanonicalQuery {
  /** `E11 productType=USDT-FUTURES`: equal for every spelling of the same request. */
  readonly id: string;
  readonly endpoint: EndpointDefinition;
  /** The parameters in their canonical form, as sent. */
  readonly params: unknown;
}

const ENDPOINTS_BY_ID = new Map(ENDPOINTS.map((endpoint) => [endpoint.id, endpoint]));

/** Throws ApiCallError (kind 'bad_request') for an unknown endpoint, a write, or bad parameters. */
export function canonicalQuery(key: QueryKey): CanonicalQuery {
  const endpoint = ENDPOINTS_BY_ID.get(key.endpointId);
  if (endpoint === undefined) {
    throw refusal(key.endpointId, key.endpointId, `there is no endpoint ${key.endpointId} to poll`);
  }
  if (endpoint.method !== 'GET') {
    // Polling a write would repeat it.
    throw refusal(endpoint.id, endpoint.name, 'only reads (GET endpoints) can be polled');
  }
  const parsed = endpoint.request.safeParse(key.params, { reportInput: true });
  if (!parsed.success) {
    throw refusal(endpoint.id, endpoint.name, describeParameterError(parsed.error, endpoint.version).msg);
  }
  return { id: `${endpoint.id} ${encodeQuery(parsed.data)}`, endpoint, params: parsed.data };
}

function refusal(endpointId: string, endpointName: string, msg: string): ApiCallError {
  return new ApiCallError({
    kind: 'bad_request',
    endpointId,
    endpointName,
    httpStatus: null,
    code: LOCAL_ERROR_CODES.badRequest,
    msg,
    outcomeUnknown: false,
  });
}
