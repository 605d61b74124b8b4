// How often each key of one endpoint may be polled so that all of them together stay within a
// share of the endpoint's limit; the rest of the limit is left for the user's own requests.

/** Share of an endpoint's limit that polling may use. */
export const DEFAULT_POLL_SHARE = 0.7;

export interface PollIntervalInput {
  /** Requests the rate budget grants per second for the endpoint and rate-limit key. */
  readonly perSecond: number;
  /** Keys of that endpoint and rate-limit key being polled now. */
  readonly keys: number;
  /** Share of `perSecond` polling may use, in (0, 1]. */
  readonly share: number;
  /** Floor, so a generous limit does not turn into a busy loop. */
  readonly minIntervalMs: number;
}

/** Milliseconds between the starts of two polls of one key. */
export function pollIntervalMs(input: PollIntervalInput): number {
  const keys = Math.max(1, input.keys);
  const pollsPerSecond = Math.max(input.perSecond, 1) * input.share;
  return Math.max(input.minIntervalMs, Math.ceil((1_000 * keys) / pollsPerSecond));
}

/** The wait after `failures` consecutive failed polls: the interval doubled each time, capped. */
export function backoffIntervalMs(intervalMs: number, failures: number, maxBackoffMs: number): number {
  if (failures <= 0) return intervalMs;
  return Math.max(intervalMs, Math.min(maxBackoffMs, intervalMs * 2 ** failures));
}
