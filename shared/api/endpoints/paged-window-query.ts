// The v2 history queries (E4, E13, E17) page back by idLessThan within a time window that may span
// at most a given length; a missing end of the window is filled in from the other.
import { z } from 'zod';
import { idField, optionalField, timestampField } from '../primitives';
import { checkTimeWindow, completeTimeWindow, type WindowLimit } from './parameter-rules';

/** The paging and window fields, spread where each query lists them. */
export const pagedWindowFields = {
  idLessThan: optionalField(idField),
  startTime: optionalField(timestampField),
  endTime: optionalField(timestampField),
};

/** A v2 query with the window checked against `limit` and completed to its full span. */
export function pagedWindowQuery<S extends z.ZodRawShape & typeof pagedWindowFields>(
  shape: S,
  limit: WindowLimit,
) {
  return z
    .object(shape)
    .superRefine((query, ctx) => checkTimeWindow(ctx, 'v2', query, limit))
    .transform((query) => completeTimeWindow(query, limit.maxSpanMs));
}
