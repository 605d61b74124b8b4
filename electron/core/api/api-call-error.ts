// Every way a call can fail, as one error type whose message says what went wrong and what to do.
import { ERROR_CODES } from '../../../shared/api/error-codes';

export type ApiCallErrorKind =
  /** The exchange answered with an error envelope; `code` is its code. */
  | 'exchange'
  /** An HTTP answer that is not the API's envelope (a proxy's error page, a bad gateway). */
  | 'http'
  /** No answer: the connection failed or broke. */
  | 'network'
  /** No answer within the time allowed. */
  | 'timeout'
  /** The caller cancelled the call (its AbortSignal), or the client or budget was stopped. */
  | 'aborted'
  /** The parameters break the endpoint's rules; nothing was sent. */
  | 'bad_request'
  /** The exchange said success but its data does not have the documented shape. */
  | 'bad_response'
  /** A signed endpoint was called with no API key set up; nothing was sent. */
  | 'no_credentials';

export interface ApiCallErrorDetails {
  readonly kind: ApiCallErrorKind;
  readonly endpointId: string;
  readonly endpointName: string;
  readonly httpStatus: number | null;
  /** The exchange's code for 'exchange'; otherwise a local code such as BAD_REQUEST. */
  readonly code: string;
  /** The exchange's message, or the local reason. */
  readonly msg: string;
  /** True when the request may have taken effect although no success was seen. */
  readonly outcomeUnknown: boolean;
}

export const LOCAL_ERROR_CODES = {
  badRequest: 'BAD_REQUEST',
  badResponse: 'BAD_RESPONSE',
  noCredentials: 'NO_CREDENTIALS',
  network: 'NETWORK',
  timeout: 'TIMEOUT',
  aborted: 'ABORTED',
} as const;

/** Codes after which the exchange may or may not have acted (spec E2 rule 10). */
export const OUTCOME_UNKNOWN_CODES: ReadonlySet<string> = new Set([
  ERROR_CODES.requestTimedOut.code,
  ERROR_CODES.serviceError.code,
  ERROR_CODES.unknownError.code,
]);

const LOOK_UP_BEFORE_RESENDING =
  'it may or may not have taken effect: look the order up by its clientOid before sending it again';

/** What a person can do about an exchange code; codes not listed speak for themselves. */
const ADVICE: Readonly<Record<string, string>> = {
  [ERROR_CODES.timestampExpired.code]:
    "the clock differs from the exchange's by more than 30 s; turn on automatic time sync in the system settings and try again",
  [ERROR_CODES.signatureError.code]:
    'the signature was refused: the secret key does not belong to this API key; enter the key again in Settings',
  [ERROR_CODES.invalidAccessKey.code]:
    'the exchange does not know this API key; check it in Settings (a demo key on the live exchange, or the reverse?)',
  [ERROR_CODES.passphraseIncorrect.code]:
    'the passphrase does not match this API key; enter it again in Settings',
  [ERROR_CODES.permissionDenied.code]:
    'the API key lacks the permission this needs; create a key with that permission on the exchange',
  [ERROR_CODES.wrongEnvironment.code]:
    'demo and live are mixed up: a demo key works only with demo trading on, a live key only with it off',
  [ERROR_CODES.tooManyRequests.code]:
    'too many requests: another program may be using the same account; wait a few seconds and try again',
  [ERROR_CODES.requestTimedOut.code]: LOOK_UP_BEFORE_RESENDING,
  [ERROR_CODES.serviceError.code]: LOOK_UP_BEFORE_RESENDING,
  [ERROR_CODES.unknownError.code]: LOOK_UP_BEFORE_RESENDING,
};

export class ApiCallError extends Error implements ApiCallErrorDetails {
  readonly kind: ApiCallErrorKind;
  readonly endpointId: string;
  readonly endpointName: string;
  readonly httpStatus: number | null;
  readonly code: string;
  readonly msg: string;
  readonly outcomeUnknown: boolean;

  constructor(details: ApiCallErrorDetails, options?: { cause?: unknown }) {
    super(describe(details), options);
    this.name = 'ApiCallError';
    this.kind = details.kind;
    this.endpointId = details.endpointId;
    this.endpointName = details.endpointName;
    this.httpStatus = details.httpStatus;
    this.code = details.code;
    this.msg = details.msg;
    this.outcomeUnknown = details.outcomeUnknown;
  }
}

function describe(details: ApiCallErrorDetails): string {
  const what = `${details.endpointName} (${details.endpointId})`;
  switch (details.kind) {
    case 'exchange': {
      const advice = ADVICE[details.code];
      const said = `the exchange refused it with code ${details.code} "${details.msg}"`;
      return advice === undefined ? `${what}: ${said}.` : `${what}: ${said}; ${advice}.`;
    }
    case 'http':
      return `${what}: the server answered HTTP ${details.httpStatus ?? '?'} without the API's answer (${details.msg}); check the exchange address and try again${details.outcomeUnknown ? `; ${LOOK_UP_BEFORE_RESENDING}` : ''}.`;
    case 'network':
      return details.outcomeUnknown
        ? `${what}: the connection broke before the answer arrived (${details.msg}); ${LOOK_UP_BEFORE_RESENDING}.`
        : `${what}: cannot reach the exchange (${details.msg}); check the network connection and the exchange address. Nothing was sent.`;
    case 'timeout':
      return `${what}: no answer within the time allowed (${details.msg}); ${LOOK_UP_BEFORE_RESENDING}.`;
    case 'aborted':
      return details.outcomeUnknown
        ? `${what}: cancelled after it was sent (${details.msg}); ${LOOK_UP_BEFORE_RESENDING}.`
        : `${what}: cancelled before it was sent (${details.msg}).`;
    case 'bad_request':
      return `${what}: not sent, the parameters are invalid: ${details.msg}.`;
    case 'bad_response':
      return `${what}: the exchange's answer does not have the expected shape (${details.msg}); the terminal may need an update.`;
    case 'no_credentials':
      return `${what}: no API key is set up; add one in Settings. Nothing was sent.`;
  }
}
