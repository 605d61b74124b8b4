export { ApiCallError, LOCAL_ERROR_CODES, OUTCOME_UNKNOWN_CODES } from './api-call-error';
export type { ApiCallErrorDetails, ApiCallErrorKind } from './api-call-error';
export { RateBudget, RateBudgetDisposedError } from './rate-budget';
export type {
  EndpointBudgetStats,
  Priority,
  PrioritySource,
  RateBudgetOptions,
  RateBudgetStats,
  RateLease,
} from './rate-budget';
export { RequestCoalescer } from './request-coalescer';
export type { SharedRequest } from './request-coalescer';
export { encodeBody, encodeQuery, signRequest } from './request-signing';
export type { SignatureInput } from './request-signing';
export { ServerClock } from './server-clock';
export type { ClockState, ServerClockOptions, ServerTimeReader } from './server-clock';
export { createApiClient, DEFAULT_RATE_LIMIT_RETRIES, DEFAULT_TIMEOUT_MS } from './signed-client';
export type { ApiClient, ApiClientOptions, CallOptions, Credentials } from './signed-client';
