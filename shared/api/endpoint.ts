import type { z } from 'zod';
import type { Permission } from './enums';

export type ApiVersion = 'v2' | 'v3';
export type HttpMethod = 'GET' | 'POST';

/**
 * One endpoint of the API, shared by the paper exchange (validates requests with `request`)
 * and the client (validates responses with `response`).
 */
export interface EndpointDefinition<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  /** E1…E18 for the spec's endpoints, C1… for the companion endpoints of exchange-facts.md. */
  readonly id: string;
  readonly name: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly version: ApiVersion;
  /** `public` endpoints need no key and are limited per IP. */
  readonly auth: 'public' | 'signed';
  /** The key permission the endpoint needs; null for public endpoints. */
  readonly permission: Permission | null;
  readonly rateLimit: { readonly perSecond: number; readonly keyedBy: 'uid' | 'ip' };
  /** Query parameters (GET) or body (POST), normalised to canonical spellings. */
  readonly request: Req;
  /** The envelope's `data`. */
  readonly response: Res;
}

export function defineEndpoint<Req extends z.ZodType, Res extends z.ZodType>(
  definition: EndpointDefinition<Req, Res>,
): EndpointDefinition<Req, Res> {
  return definition;
}

export type RequestOf<E> = E extends EndpointDefinition<infer Req, z.ZodType> ? z.output<Req> : never;
export type RequestInputOf<E> = E extends EndpointDefinition<infer Req, z.ZodType> ? z.input<Req> : never;
export type ResponseOf<E> = E extends EndpointDefinition<z.ZodType, infer Res> ? z.output<Res> : never;
