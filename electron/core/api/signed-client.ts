// The main process's one way to call the exchange (paper or live, the same code path): checks
// the parameters against the endpoint's schema before anything leaves the machine, waits for a
// slot of the rate budget, signs exactly the bytes it sends, and checks the answer's data
// against the endpoint's schema before handing it back.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { EndpointDefinition } from '../../../shared/api/endpoint';
import { serverTime } from '../../../shared/api/endpoints/c01-server-time';
import { envelopeSchema } from '../../../shared/api/envelope';
import type { Envelope } from '../../../shared/api/envelope';
import { ERROR_CODES, SUCCESS_CODE } from '../../../shared/api/error-codes';
import { describeParameterError } from '../../../shared/api/parameter-error';
import { AUTH_HEADERS } from '../../../shared/signing';
import { ApiCallError, LOCAL_ERROR_CODES, OUTCOME_UNKNOWN_CODES } from './api-call-error';
import type { ApiCallErrorDetails } from './api-call-error';
import type { Priority, PrioritySource, RateBudget, RateLease } from './rate-budget';
import { RequestCoalescer } from './request-coalescer';
import { encodeBody, encodeQuery, signRequest } from './request-signing';
import type { ServerClock } from './server-clock';

export interface Credentials {
  readonly apiKey: string;
  readonly secretKey: string;
  readonly passphrase: string;
  /**
   * The account the key belongs to. The exchange counts limits per UID, so every key of one
   * account shares one budget when this is given; without it each key has its own.
   */
  readonly uid?: string;
}

export interface ApiClientOptions {
  readonly baseUrl: string;
  /** Read at every call, so a key entered or removed in Settings applies at once. */
  readonly credentials: () => Credentials | null;
  /** Sends `paptrading: 1`, for the live exchange's demo trading. */
  readonly demoTrading?: boolean;
  /** The `locale` header; default en-US. */
  readonly locale?: string;
  readonly clock: ServerClock;
  readonly budget: RateBudget;
  readonly fetch?: typeof fetch;
  /** Default for CallOptions.timeoutMs. */
  readonly timeoutMs?: number;
  /** How often a request refused with 429 is sent again after the budget's back-off. */
  readonly maxRateLimitRetries?: number;
}

export interface CallOptions {
  /** 'user' (default) goes before queued 'background' requests of the same endpoint. */
  readonly priority?: Priority;
  readonly signal?: AbortSignal;
  /** Longest wait for the answer once the request is sent (not counting the wait for a slot). */
  readonly timeoutMs?: number;
}

export interface ApiClient {
  readonly baseUrl: string;
  /** Calls `endpoint`; resolves with the envelope's data, checked; rejects with ApiCallError. */
  call<E extends EndpointDefinition>(
    endpoint: E,
    params: z.input<E['request']>,
    options?: CallOptions,
  ): Promise<z.output<E['response']>>;
  /** Reads the exchange's time now (GET /api/v2/public/time) and corrects the clock with it. */
  syncClock(): Promise<void>;
  /** Cancels every request queued or in flight; later calls fail with kind 'aborted'. */
  dispose(): void;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_RATE_LIMIT_RETRIES = 4;

/** A request ready to go: checked, encoded, with the key it signs with (null when public). */
interface PreparedRequest {
  readonly endpoint: EndpointDefinition;
  readonly url: string;
  readonly query: string;
  readonly body: string;
  readonly credentials: Credentials | null;
  readonly budgetKey: string;
  readonly timeoutMs: number;
}

interface Answer {
  readonly httpStatus: number;
  readonly envelope: Envelope<unknown>;
}

/** Errors of a connection that never opened: the request cannot have reached the exchange. */
const NEVER_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchAnswer = options.fetch ?? fetch;
  const { clock, budget } = options;
  const maxRateLimitRetries = options.maxRateLimitRetries ?? DEFAULT_RATE_LIMIT_RETRIES;
  const coalescer = new RequestCoalescer();
  const lifetime = new AbortController();

  async function call<E extends EndpointDefinition>(
    endpoint: E,
    params: z.input<E['request']>,
    callOptions: CallOptions = {},
  ): Promise<z.output<E['response']>> {
    const priority = callOptions.priority ?? 'user';
    const request = prepare(endpoint, params, callOptions);
    if (endpoint.method !== 'GET') {
      return (await send(request, priority, callOptions.signal)) as z.output<E['response']>;
    }
    const shared = coalescer.join(
      `${endpoint.id} ${request.budgetKey} ${request.query}`,
      (sharedSignal) => {
        const urgency = { priority };
        return { context: urgency, result: send(request, () => urgency.priority, sharedSignal) };
      },
      callOptions.signal,
    );
    if (shared.joined && priority === 'user') shared.context.priority = 'user';
    try {
      return (await shared.result) as z.output<E['response']>;
    } catch (error) {
      // The shared request goes on for the others; this caller alone gave up.
      if (callOptions.signal?.aborted === true && !(error instanceof ApiCallError)) {
        throw failure(endpoint, 'aborted', LOCAL_ERROR_CODES.aborted, reasonText(error), false);
      }
      throw error;
    }
  }

  function prepare(endpoint: EndpointDefinition, params: unknown, callOptions: CallOptions): PreparedRequest {
    if (lifetime.signal.aborted) {
      throw failure(endpoint, 'aborted', LOCAL_ERROR_CODES.aborted, 'the client was stopped', false);
    }
    const parsed = endpoint.request.safeParse(params, { reportInput: true });
    if (!parsed.success) {
      const described = describeParameterError(parsed.error, endpoint.version);
      throw failure(endpoint, 'bad_request', LOCAL_ERROR_CODES.badRequest, described.msg, false);
    }
    let query: string;
    let body: string;
    try {
      query = endpoint.method === 'GET' ? encodeQuery(parsed.data) : '';
      body = endpoint.method === 'POST' ? encodeBody(parsed.data) : '';
    } catch (error) {
      throw failure(endpoint, 'bad_request', LOCAL_ERROR_CODES.badRequest, reasonText(error), false);
    }
    let credentials: Credentials | null = null;
    if (endpoint.auth === 'signed') {
      credentials = options.credentials();
      if (credentials === null) {
        throw failure(endpoint, 'no_credentials', LOCAL_ERROR_CODES.noCredentials, 'no API key', false);
      }
    }
    return {
      endpoint,
      url: query.length > 0 ? `${baseUrl}${endpoint.path}?${query}` : `${baseUrl}${endpoint.path}`,
      query,
      body,
      credentials,
      budgetKey: budgetKeyOf(baseUrl, credentials),
      timeoutMs: callOptions.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    };
  }

  /** Sends until there is an answer to hand back: once, plus the retries that are safe. */
  async function send(
    request: PreparedRequest,
    priority: PrioritySource,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    const { endpoint } = request;
    // One signal per request, so queued requests do not pile listeners onto the client's own.
    const cancel = AbortSignal.any(signal === undefined ? [lifetime.signal] : [signal, lifetime.signal]);
    let rateLimitRetries = 0;
    let resynced = false;
    for (;;) {
      if (request.credentials !== null && !clock.isSynced) await syncClockQuietly();
      const { httpStatus, envelope } = await attempt(request, priority, cancel);
      if (envelope.code === SUCCESS_CODE) return checkedData(endpoint, envelope.data, httpStatus);
      const rateLimited = httpStatus === 429 || envelope.code === ERROR_CODES.tooManyRequests.code;
      // Both refusals come before the exchange acts, so sending again is safe.
      if (rateLimited && rateLimitRetries < maxRateLimitRetries) {
        rateLimitRetries += 1;
        continue;
      }
      if (envelope.code === ERROR_CODES.timestampExpired.code && request.credentials !== null && !resynced) {
        resynced = true;
        clock.reset();
        await syncClockQuietly();
        continue;
      }
      throw new ApiCallError({
        ...identify(endpoint),
        kind: 'exchange',
        httpStatus,
        code: envelope.code,
        msg: envelope.msg,
        outcomeUnknown: OUTCOME_UNKNOWN_CODES.has(envelope.code),
      });
    }
  }

  /** One request on one slot of the budget. */
  async function attempt(
    request: PreparedRequest,
    priority: PrioritySource,
    cancel: AbortSignal,
  ): Promise<Answer> {
    const { endpoint } = request;
    let lease: RateLease;
    try {
      lease = await budget.acquire(endpoint, request.budgetKey, priority, cancel);
    } catch (error) {
      throw failure(endpoint, 'aborted', LOCAL_ERROR_CODES.aborted, reasonText(error), false);
    }
    let answeredCode: string | null = null;
    const timeout = new AbortController();
    const timer = setTimeout(
      () => timeout.abort(new Error(`no answer within ${request.timeoutMs} ms`)),
      request.timeoutMs,
    );
    timer.unref();
    try {
      const sentAt = clock.localNow();
      let response: Response;
      let text: string;
      try {
        response = await fetchAnswer(request.url, {
          method: endpoint.method,
          headers: headersFor(request),
          body: endpoint.method === 'POST' ? request.body : undefined,
          signal: AbortSignal.any([cancel, timeout.signal]),
        });
        text = await response.text();
      } catch (error) {
        if (timeout.signal.aborted) {
          throw failure(
            endpoint,
            'timeout',
            LOCAL_ERROR_CODES.timeout,
            reasonText(timeout.signal.reason),
            true,
            {
              cause: error,
            },
          );
        }
        if (cancel.aborted) {
          throw failure(endpoint, 'aborted', LOCAL_ERROR_CODES.aborted, reasonText(cancel.reason), true, {
            cause: error,
          });
        }
        const neverSent = connectionNeverOpened(error);
        throw failure(endpoint, 'network', LOCAL_ERROR_CODES.network, networkReason(error), !neverSent, {
          cause: error,
        });
      }
      const receivedAt = clock.localNow();
      const envelope = parseEnvelope(text);
      if (envelope === null) {
        throw new ApiCallError({
          ...identify(endpoint),
          kind: 'http',
          httpStatus: response.status,
          code: `HTTP_${response.status}`,
          msg: text.slice(0, 200).trim() || response.statusText || 'empty answer',
          // A gateway's 5xx may come after the exchange acted.
          outcomeUnknown: response.status >= 500,
        });
      }
      clock.observe(envelope.requestTime, sentAt, receivedAt);
      answeredCode = response.status === 429 ? ERROR_CODES.tooManyRequests.code : envelope.code;
      return { httpStatus: response.status, envelope };
    } finally {
      clearTimeout(timer);
      lease.release(answeredCode);
    }
  }

  function headersFor(request: PreparedRequest): Record<string, string> {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      [AUTH_HEADERS.locale]: options.locale ?? 'en-US',
    };
    if (options.demoTrading === true) headers[AUTH_HEADERS.demo] = '1';
    const credentials = request.credentials;
    if (credentials === null) return headers;
    const timestamp = String(clock.now());
    headers[AUTH_HEADERS.key] = credentials.apiKey;
    headers[AUTH_HEADERS.passphrase] = credentials.passphrase;
    headers[AUTH_HEADERS.timestamp] = timestamp;
    headers[AUTH_HEADERS.sign] = signRequest({
      secretKey: credentials.secretKey,
      timestamp,
      method: request.endpoint.method,
      path: request.endpoint.path,
      query: request.query,
      body: request.body,
    });
    return headers;
  }

  function syncClock(): Promise<void> {
    return clock.sync(async () => Number((await call(serverTime, {}, { priority: 'user' })).serverTime));
  }

  /** A failed read leaves local time in use; the request that needed it reports its own error. */
  async function syncClockQuietly(): Promise<void> {
    try {
      await syncClock();
    } catch {
      // Deliberately ignored, as above.
    }
  }

  return {
    baseUrl,
    call,
    syncClock,
    dispose() {
      lifetime.abort(new Error('the client was stopped'));
    },
  };
}

/** Rate limits count per UID for signed endpoints and per address for public ones. */
function budgetKeyOf(baseUrl: string, credentials: Credentials | null): string {
  if (credentials === null) return `${baseUrl} public`;
  if (credentials.uid !== undefined) return `${baseUrl} uid ${credentials.uid}`;
  // The key itself stays out of stats and logs.
  const fingerprint = createHash('sha256').update(credentials.apiKey).digest('hex').slice(0, 12);
  return `${baseUrl} key ${fingerprint}`;
}

function checkedData(endpoint: EndpointDefinition, data: unknown, httpStatus: number): unknown {
  const parsed = endpoint.response.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return failWith({
    ...identify(endpoint),
    kind: 'bad_response',
    httpStatus,
    code: LOCAL_ERROR_CODES.badResponse,
    msg: `${fieldName(issue?.path ?? [])}: ${issue?.message ?? 'unexpected shape'}`,
    // The exchange reported success: it acted, only its answer cannot be read.
    outcomeUnknown: false,
  });
}

function failWith(details: ApiCallErrorDetails): never {
  throw new ApiCallError(details);
}

/** `data.list[0].pnl` */
function fieldName(path: ReadonlyArray<PropertyKey>): string {
  let name = 'data';
  for (const part of path) name += typeof part === 'number' ? `[${part}]` : `.${String(part)}`;
  return name;
}

function parseEnvelope(text: string): Envelope<unknown> | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = envelopeSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

function identify(endpoint: EndpointDefinition): Pick<ApiCallErrorDetails, 'endpointId' | 'endpointName'> {
  return { endpointId: endpoint.id, endpointName: endpoint.name };
}

function failure(
  endpoint: EndpointDefinition,
  kind: ApiCallErrorDetails['kind'],
  code: string,
  msg: string,
  outcomeUnknown: boolean,
  errorOptions?: { cause?: unknown },
): ApiCallError {
  return new ApiCallError(
    { ...identify(endpoint), kind, httpStatus: null, code, msg, outcomeUnknown },
    errorOptions,
  );
}

function errorCodeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** fetch wraps the socket's error in `cause`; a failed connect may be an AggregateError of tries. */
function causeCodes(error: unknown): string[] {
  const cause =
    typeof error === 'object' && error !== null ? (error as { cause?: unknown }).cause : undefined;
  const codes = [errorCodeOf(error), errorCodeOf(cause)];
  if (cause instanceof AggregateError) codes.push(...cause.errors.map(errorCodeOf));
  return codes.filter((code): code is string => code !== undefined);
}

function connectionNeverOpened(error: unknown): boolean {
  return causeCodes(error).some((code) => NEVER_SENT_CODES.has(code));
}

function networkReason(error: unknown): string {
  const codes = causeCodes(error);
  const cause =
    typeof error === 'object' && error !== null ? (error as { cause?: unknown }).cause : undefined;
  const detail = cause instanceof Error ? cause.message : reasonText(error);
  return codes.length > 0 ? `${codes[codes.length - 1]}: ${detail}` : detail;
}

function reasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return String(reason);
}
