import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Permission } from '../../shared/api/enums';
import { prehash } from '../../shared/signing';
import { apiError } from './api-error';

export interface ApiKeyRecord {
  readonly apiKey: string;
  readonly secretKey: string;
  readonly passphrase: string;
  readonly uid: string;
  readonly permissions: readonly Permission[];
}

export type KeyLookup = (apiKey: string) => ApiKeyRecord | undefined;

/** The parts of a request its signature covers, as they came over the wire. */
export interface SignedRequest {
  readonly method: string;
  /** `request.raw.url`: path and query exactly as sent. */
  readonly rawUrl: string;
  readonly headers: IncomingHttpHeaders;
  /** The body bytes as received, '' for none. */
  readonly rawBody: string;
}

/** Largest accepted difference between ACCESS-TIMESTAMP and the server clock. */
export const MAX_CLOCK_SKEW_MS = 30_000;

const TIMESTAMP_PATTERN = /^\d{1,16}$/;

/** base64 HMAC-SHA256 of the prehash text: the value of ACCESS-SIGN. */
export function signPrehash(secretKey: string, prehashText: string): string {
  return createHmac('sha256', secretKey).update(prehashText, 'utf8').digest('base64');
}

/**
 * Verifies ACCESS-KEY, ACCESS-SIGN, ACCESS-PASSPHRASE and ACCESS-TIMESTAMP and returns the key,
 * or throws the exchange's error for the first check that fails, in the exchange's order.
 */
export function authenticate(request: SignedRequest, lookupKey: KeyLookup, now: number): ApiKeyRecord {
  const apiKey = headerValue(request.headers, 'access-key');
  if (apiKey === '') throw apiError('accessKeyEmpty');
  const sign = headerValue(request.headers, 'access-sign');
  if (sign === '') throw apiError('accessSignEmpty');
  const passphrase = headerValue(request.headers, 'access-passphrase');
  if (passphrase === '') throw apiError('accessPassphraseEmpty');
  const timestamp = headerValue(request.headers, 'access-timestamp');
  if (!TIMESTAMP_PATTERN.test(timestamp)) throw apiError('invalidTimestamp');
  if (Math.abs(now - Number(timestamp)) > MAX_CLOCK_SKEW_MS) throw apiError('timestampExpired');
  const key = lookupKey(apiKey);
  if (key === undefined) throw apiError('invalidAccessKey');
  if (!equalInConstantTime(passphrase, key.passphrase)) throw apiError('passphraseIncorrect');
  if (!signatureMatches(request, key.secretKey, timestamp, sign)) throw apiError('signatureError');
  return key;
}

/**
 * Clients differ in the query they sign: most sign it as sent, some send it percent-encoded but
 * sign it decoded. Both are accepted.
 */
function signatureMatches(
  request: SignedRequest,
  secretKey: string,
  timestamp: string,
  sign: string,
): boolean {
  const url = request.rawUrl;
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const query = queryStart === -1 ? '' : url.slice(queryStart + 1);
  const method = request.method.toUpperCase();
  const asSent = signPrehash(secretKey, prehash(timestamp, method, path, query, request.rawBody));
  if (equalInConstantTime(asSent, sign)) return true;
  const decoded = decodeQuery(query);
  if (decoded === undefined || decoded === query) return false;
  const asDecoded = signPrehash(secretKey, prehash(timestamp, method, path, decoded, request.rawBody));
  return equalInConstantTime(asDecoded, sign);
}

function decodeQuery(query: string): string | undefined {
  try {
    return decodeURIComponent(query);
  } catch {
    return undefined;
  }
}

/** A write permission implies its read; `trade` implies `read`. */
const IMPLIED_BY: Readonly<Record<Permission, readonly Permission[]>> = {
  read: ['read', 'trade'],
  trade: ['trade'],
  uta_trade_read: ['uta_trade_read', 'uta_trade_write'],
  uta_trade_write: ['uta_trade_write'],
  uta_mgt_read: ['uta_mgt_read', 'uta_mgt_write'],
  uta_mgt_write: ['uta_mgt_write'],
};

export function hasPermission(granted: readonly Permission[], needed: Permission): boolean {
  return IMPLIED_BY[needed].some((permission) => granted.includes(permission));
}

/** Throws 40014 naming the missing permission. */
export function requirePermission(key: ApiKeyRecord, needed: Permission | null): void {
  if (needed !== null && !hasPermission(key.permissions, needed)) throw apiError('permissionDenied', needed);
}

function headerValue(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  if (value === undefined) return '';
  return typeof value === 'string' ? value : (value[0] ?? '');
}

/** Compares digests, so neither the content nor the length of the secret leaks through timing. */
export function equalInConstantTime(actual: string, expected: string): boolean {
  return timingSafeEqual(digest(actual), digest(expected));
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
