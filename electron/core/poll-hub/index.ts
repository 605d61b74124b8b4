export { DEFAULT_MAX_BACKOFF_MS, DEFAULT_MIN_INTERVAL_MS, PollHub } from './poll-hub';
export type { PolledKeyStats, PollHubOptions } from './poll-hub';
export { backoffIntervalMs, DEFAULT_POLL_SHARE, pollIntervalMs } from './poll-interval';
export type { PollIntervalInput } from './poll-interval';
export { pollFailureOf } from './poll-update';
export type { PollFailure, PollListener, PollUpdate } from './poll-update';
export { canonicalQuery } from './query-key';
export type { CanonicalQuery, QueryKey } from './query-key';
