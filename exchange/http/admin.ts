// Routes of the paper exchange's own admin interface (faults, accounts, clock), kept apart from
// the API: one shared token instead of signed keys, and no rate limits.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { errorEnvelope, successEnvelope } from '../../shared/api/envelope';
import type { Envelope } from '../../shared/api/envelope';
import { describeParameterError } from '../../shared/api/parameter-error';
import { ApiError } from './api-error';
import { acceptAnyContentType } from './app';
import { equalInConstantTime } from './auth';

export const ADMIN_TOKEN_HEADER = 'X-Paper-Admin';

export interface AdminRoute<Req extends z.ZodType> {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** May hold path parameters such as `:uid`. */
  readonly path: string;
  /** Validates the query (GET) or the JSON body (POST, DELETE). */
  readonly request: Req;
}

export interface AdminContext<Params> {
  readonly params: Params;
  readonly pathParams: Readonly<Record<string, string>>;
  readonly requestTime: number;
}

export type AdminHandler<Req extends z.ZodType> = (context: AdminContext<z.output<Req>>) => unknown;

export interface AdminOptions {
  readonly adminToken: string;
  readonly now?: () => number;
}

export function registerAdminRoute<Req extends z.ZodType>(
  app: FastifyInstance,
  route: AdminRoute<Req>,
  handler: AdminHandler<Req>,
  options: AdminOptions,
): void {
  if (options.adminToken.length === 0) throw new Error('the admin token must not be empty');
  const now = options.now ?? Date.now;
  const headerName = ADMIN_TOKEN_HEADER.toLowerCase();

  async function serve(request: FastifyRequest, reply: FastifyReply): Promise<Envelope<unknown>> {
    const requestTime = now();
    const token = request.headers[headerName];
    if (typeof token !== 'string' || !equalInConstantTime(token, options.adminToken)) {
      reply.code(401);
      return errorEnvelope('40006', `Invalid or missing ${ADMIN_TOKEN_HEADER} token`, requestTime);
    }
    const input = route.method === 'GET' ? request.query : (request.body ?? {});
    const parsed = route.request.safeParse(input, { reportInput: true });
    if (!parsed.success) {
      const described = describeParameterError(parsed.error, 'v2');
      reply.code(400);
      return errorEnvelope(described.code, described.msg, requestTime);
    }
    try {
      const pathParams = (request.params ?? {}) as Readonly<Record<string, string>>;
      return successEnvelope(await handler({ params: parsed.data, pathParams, requestTime }), requestTime);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      reply.code(error.httpStatus);
      return errorEnvelope(error.code, error.msg, requestTime);
    }
  }

  app.route({
    method: route.method,
    url: route.path,
    ...(route.method === 'GET' ? {} : { onRequest: acceptAnyContentType }),
    handler: serve,
  });
}
