// What the hub pushes to a window: plain data only, so it crosses IPC (structured clone) as is.
import { ApiCallError } from '../api/api-call-error';
import type { ApiCallErrorKind } from '../api/api-call-error';

export interface PollFailure {
  /** The exchange's code, or a local one (NETWORK, TIMEOUT, NO_CREDENTIALS, …). */
  readonly code: string;
  readonly kind: ApiCallErrorKind | 'unexpected';
  /** What went wrong and what to do, for a person. */
  readonly message: string;
  /** When the hub asks again, after backing off. */
  readonly retryInMs: number;
}

interface PollUpdateBase {
  /** The canonical query key id (see canonicalQuery). */
  readonly queryKey: string;
  readonly endpointId: string;
  /** Wall-clock ms when the answer arrived. */
  readonly receivedAt: number;
}

export type PollUpdate =
  | (PollUpdateBase & { readonly ok: true; readonly data: unknown })
  | (PollUpdateBase & { readonly ok: false; readonly error: PollFailure });

export type PollListener = (update: PollUpdate) => void;

export function pollFailureOf(error: unknown, retryInMs: number): PollFailure {
  if (error instanceof ApiCallError) {
    return { code: error.code, kind: error.kind, message: error.message, retryInMs };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    code: 'UNEXPECTED',
    kind: 'unexpected',
    message: `the poll failed unexpectedly (${message}); it is retried automatically`,
    retryInMs,
  };
}
