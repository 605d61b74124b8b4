import type { z } from 'zod';
import type { EndpointDefinition } from '../endpoint';
import { describeParameterError } from '../parameter-error';
import type { ApiError } from '../parameter-error';

export type ParsedRequest<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ApiError };

/**
 * Checks query parameters or a body against the endpoint's request schema. A refusal carries
 * the code and text the live exchange gives for it (40019/40020/40017 on v2, 400172 on v3).
 */
export function parseRequest<Req extends z.ZodType, Res extends z.ZodType>(
  endpoint: EndpointDefinition<Req, Res>,
  input: unknown,
): ParsedRequest<z.output<Req>> {
  // reportInput lets the error mapper tell a missing parameter from a wrong one.
  const result = endpoint.request.safeParse(input, { reportInput: true });
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, error: describeParameterError(result.error, endpoint.version) };
}
