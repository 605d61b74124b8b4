// The exact bytes a request carries, and their signature (exchange-facts.md, "Signing"). The
// signature covers the query string and body exactly as sent, so both are built once, here.
import { createHmac } from 'node:crypto';
import { prehash } from '../../../shared/signing';

type QueryValue = string | number | boolean | bigint;

/**
 * `a=1&b=x%20y`: keys sorted, names and values percent-encoded, absent values left out, so the
 * same parameters always give the same text (and coalesce).
 */
export function encodeQuery(params: unknown): string {
  if (params === undefined || params === null) return '';
  if (typeof params !== 'object' || Array.isArray(params)) {
    throw new TypeError('query parameters must be an object of names and values');
  }
  const pairs: string[] = [];
  for (const name of Object.keys(params).sort()) {
    const value: unknown = (params as Record<string, unknown>)[name];
    if (value === undefined || value === null) continue;
    if (!isQueryValue(value)) throw new TypeError(`query parameter ${name} must be a single value`);
    pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return pairs.join('&');
}

/** Compact JSON; fields whose value is undefined are left out. */
export function encodeBody(params: unknown): string {
  return JSON.stringify(params ?? {});
}

export interface SignatureInput {
  readonly secretKey: string;
  /** ACCESS-TIMESTAMP, the same text as sent. */
  readonly timestamp: string;
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly body: string;
}

/** ACCESS-SIGN: base64 HMAC-SHA256 of the prehash. */
export function signRequest(input: SignatureInput): string {
  return createHmac('sha256', input.secretKey)
    .update(prehash(input.timestamp, input.method, input.path, input.query, input.body), 'utf8')
    .digest('base64');
}

function isQueryValue(value: unknown): value is QueryValue {
  return ['string', 'number', 'boolean', 'bigint'].includes(typeof value);
}
