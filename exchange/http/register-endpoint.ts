// Serves one API endpoint: limits, authentication, permission and validation in the exchange's
// order, then the handler, then the faults armed for the path. The handler sees valid input only.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { EndpointDefinition } from '../../shared/api/endpoint';
import { errorEnvelope, successEnvelope } from '../../shared/api/envelope';
import type { Envelope } from '../../shared/api/envelope';
import { ERROR_CODES } from '../../shared/api/error-codes';
import { describeParameterError } from '../../shared/api/parameter-error';
import { ApiError } from './api-error';
import { acceptAnyContentType } from './app';
import { authenticate, requirePermission } from './auth';
import type { ApiKeyRecord, KeyLookup } from './auth';
import { strikeWithFault } from './faults';
import { jsonTextOf } from './pre-serialized';
import type { FaultRegistry } from './faults';
import type { SlidingWindowRateLimiter } from './rate-limit';

export interface EndpointDeps {
  readonly lookupKey: KeyLookup;
  /** Wall clock in ms: `requestTime` of the envelope and the reference for ACCESS-TIMESTAMP. */
  readonly now: () => number;
  readonly rateLimiter: SlidingWindowRateLimiter;
  readonly faults: FaultRegistry;
}

export interface EndpointContext<Params> {
  readonly params: Params;
  /** The authenticated key; null on public endpoints. */
  readonly key: ApiKeyRecord | null;
  readonly ip: string;
  readonly requestTime: number;
}

/** Returns the envelope's `data` as it goes on the wire (the response schema's input). */
export type EndpointHandler<Req extends z.ZodType, Res extends z.ZodType> = (
  context: EndpointContext<z.output<Req>>,
) => Promise<z.input<Res>> | z.input<Res>;

const PARSED_QUERY_CACHE_SIZE = 1_000;

export function registerEndpoint<Req extends z.ZodType, Res extends z.ZodType>(
  app: FastifyInstance,
  endpoint: EndpointDefinition<Req, Res>,
  handler: EndpointHandler<Req, Res>,
  deps: EndpointDeps,
): void {
  const bucket = deps.rateLimiter.bucket(endpoint.id, endpoint.rateLimit.perSecond);
  const isPublic = endpoint.auth === 'public';
  const limitByUid = !isPublic && endpoint.rateLimit.keyedBy === 'uid';
  // Pollers ask the same query again and again: a valid GET query's parse is remembered by its
  // raw URL (parsing is pure), in a small map that starts over when full.
  const parsedQueries = new Map<string, z.output<Req>>();
  const rememberQuery = (rawUrl: string, params: z.output<Req>): void => {
    if (parsedQueries.size >= PARSED_QUERY_CACHE_SIZE) parsedQueries.clear();
    // Handlers only read their params; one object serves every request with the same query.
    parsedQueries.set(rawUrl, params);
  };

  /** Sync when the handler is, so the common path costs no promise. */
  function serve(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Envelope<unknown> | string | Promise<Envelope<unknown> | string | undefined> {
    const requestTime = deps.now();
    const ip = request.ip;
    let key: ApiKeyRecord | null = null;
    let params: z.output<Req>;
    try {
      if (isPublic) {
        if (!bucket.tryAcquire(ip)) return tooManyRequests(reply, requestTime);
      } else {
        key = authenticate(
          {
            method: request.method,
            rawUrl: request.raw.url ?? '',
            headers: request.headers,
            rawBody: request.rawBody,
          },
          deps.lookupKey,
          requestTime,
        );
        if (!bucket.tryAcquire(limitByUid ? key.uid : ip)) return tooManyRequests(reply, requestTime);
        requirePermission(key, endpoint.permission);
      }
      const rawUrl = request.raw.url ?? '';
      const cached = endpoint.method === 'GET' ? parsedQueries.get(rawUrl) : undefined;
      if (cached !== undefined) {
        params = cached;
      } else {
        const input = endpoint.method === 'GET' ? request.query : (request.body ?? {});
        const parsed = endpoint.request.safeParse(input, { reportInput: true });
        if (!parsed.success) {
          const described = describeParameterError(parsed.error, endpoint.version);
          throw new ApiError(described.code, described.msg);
        }
        params = parsed.data;
        if (endpoint.method === 'GET') rememberQuery(rawUrl, params);
      }
    } catch (error) {
      if (error instanceof ApiError) return refuse(reply, error, requestTime);
      throw error;
    }

    let result: ReturnType<typeof handler>;
    try {
      result = handler({ params, key, ip, requestTime });
    } catch (error) {
      return fail(request, reply, error, requestTime);
    }
    if (isThenable(result)) {
      return Promise.resolve(result).then(
        (data) => succeed(reply, data, requestTime),
        (error: unknown) => fail(request, reply, error, requestTime),
      );
    }
    return succeed(reply, result, requestTime);
  }

  function succeed(
    reply: FastifyReply,
    data: unknown,
    requestTime: number,
  ): Envelope<unknown> | string | Promise<Envelope<unknown> | string | undefined> {
    return answer(reply, 200, successEnvelope(data === undefined ? null : data, requestTime));
  }

  function fail(
    request: FastifyRequest,
    reply: FastifyReply,
    error: unknown,
    requestTime: number,
  ): Envelope<unknown> | string | Promise<Envelope<unknown> | string | undefined> {
    if (error instanceof ApiError) {
      return answer(reply, error.httpStatus, errorEnvelope(error.code, error.msg, requestTime));
    }
    request.log.error({ err: error, endpoint: endpoint.id }, 'endpoint handler failed');
    return answer(
      reply,
      500,
      errorEnvelope(ERROR_CODES.unknownError.code, ERROR_CODES.unknownError.msg, requestTime),
    );
  }

  /** The handler has run: a fault armed for the path may now take the answer's place. */
  function answer(
    reply: FastifyReply,
    status: number,
    envelope: Envelope<unknown>,
  ): Envelope<unknown> | string | Promise<Envelope<unknown> | string | undefined> {
    const fault = deps.faults.take(endpoint.path);
    if (fault !== undefined) return strikeWithFault(fault, reply, status, envelope);
    reply.code(status);
    const dataText = jsonTextOf(envelope.data);
    if (dataText !== undefined) {
      // Same bytes JSON.stringify would give, without serialising the data again.
      reply.type('application/json; charset=utf-8');
      return `{"code":${JSON.stringify(envelope.code)},"msg":${JSON.stringify(envelope.msg)},"requestTime":${envelope.requestTime},"data":${dataText}}`;
    }
    return envelope;
  }

  app.route({
    method: endpoint.method,
    url: endpoint.path,
    ...(endpoint.method === 'POST' ? { onRequest: acceptAnyContentType } : {}),
    handler: serve,
  });
}

function tooManyRequests(reply: FastifyReply, requestTime: number): Envelope<null> {
  reply.code(429);
  return errorEnvelope(ERROR_CODES.tooManyRequests.code, ERROR_CODES.tooManyRequests.msg, requestTime);
}

function refuse(reply: FastifyReply, error: ApiError, requestTime: number): Envelope<null> {
  reply.code(error.httpStatus);
  return errorEnvelope(error.code, error.msg, requestTime);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function'
  );
}
