// The HTTP server of the paper exchange. Every answer, whatever goes wrong, is the API's JSON
// envelope: a client parses one shape only, as with the live exchange.
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import type { ServerResponse } from 'node:http';
import Fastify, { LogController } from 'fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { ERROR_CODES, formatMessage } from '../../shared/api/error-codes';
import { errorEnvelope } from '../../shared/api/envelope';
import { ApiError, apiError, apiErrorWithStatus } from './api-error';
import { parseQueryString } from './query-string';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as received ('' when there is none): signatures cover these bytes. */
    rawBody: string;
  }
}

export interface HttpAppOptions {
  readonly bodyLimitBytes?: number;
  /** Logs server events and unexpected errors, never one line per request. Default true. */
  readonly logger?: boolean;
}

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

const ROUTABLE_METHODS: readonly HTTPMethods[] = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];

export function createHttpApp(options: HttpAppOptions = {}): FastifyInstance {
  const bodyLimit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const app = Fastify({
    bodyLimit,
    logger: options.logger ?? true,
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: false,
    exposeHeadRoutes: false,
    return503OnClosing: false,
    routerOptions: { querystringParser: parseQueryString },
    // Paths the router cannot even decode.
    frameworkErrors: (error, _request, reply) => {
      const msg = `${ERROR_CODES.notFound.msg}: ${error.message}`;
      writeEnvelope(
        reply.raw,
        400,
        JSON.stringify(errorEnvelope(ERROR_CODES.notFound.code, msg, Date.now())),
      );
    },
    clientErrorHandler: answerMalformedHttp,
  });

  app.decorateRequest('rawBody', '');

  // One parser for every Content-Type (live clients send json, text/plain, or none at all).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    request.rawBody = text;
    if (request.is404) return done(null, undefined);
    if (text.length === 0) return done(null, {});
    parseJson(request, text, (error, value) => {
      if (error === null) done(null, value);
      else done(apiError('malformedBody'), undefined);
    });
  });

  app.setNotFoundHandler((request, reply) => answerNotFound(app, request, reply));

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) return sendApiError(reply, error);
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendApiError(reply, apiErrorWithStatus(413, 'bodyTooLarge', bodyLimit));
    }
    if (request.is404) return answerNotFound(app, request, reply);
    const status = error.statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      const msg = `${formatMessage(ERROR_CODES.paramVerifyV2.msg, '').trimEnd()}: ${error.message}`;
      return sendApiError(reply, new ApiError(ERROR_CODES.paramVerifyV2.code, msg, status));
    }
    request.log.error({ err: error, method: request.method, url: request.raw.url }, 'unexpected error');
    return sendApiError(reply, apiErrorWithStatus(500, 'unknownError'));
  });

  return app;
}

/**
 * Hook for routes that take a body: whatever Content-Type a client declares (none, text/plain,
 * even an invalid one), the body is read as JSON, and an empty or absent body becomes `{}`.
 */
export function acceptAnyContentType(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  request.raw.headers['content-type'] = 'application/json';
  done();
}

function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(error.httpStatus).send(errorEnvelope(error.code, error.msg, Date.now()));
}

/** 405 naming the allowed methods when the path exists with another method, 404 otherwise. */
function answerNotFound(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const url = request.raw.url ?? '/';
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const allowed = ROUTABLE_METHODS.filter(
    (method) => method !== request.method && app.findRoute({ method, url: path }) !== null,
  );
  if (allowed.length === 0) {
    return reply
      .code(404)
      .send(errorEnvelope(ERROR_CODES.notFound.code, ERROR_CODES.notFound.msg, Date.now()));
  }
  const msg = `${formatMessage(ERROR_CODES.methodNotAllowed.msg, request.method, path)}, use ${allowed.join(' or ')}`;
  return reply
    .code(405)
    .header('allow', allowed.join(', '))
    .send(errorEnvelope(ERROR_CODES.methodNotAllowed.code, msg, Date.now()));
}

/** Requests too broken to reach fastify (bad HTTP, oversized headers) still get an envelope. */
function answerMalformedHttp(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status =
    error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify(
    errorEnvelope(
      ERROR_CODES.paramVerifyV2.code,
      `Malformed HTTP request (${error.code ?? 'unknown'})`,
      Date.now(),
    ),
  );
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

function writeEnvelope(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}
