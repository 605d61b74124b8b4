// The request signature of the API (exchange-facts.md, "Signing"). The HMAC itself is computed
// by the side that holds the secret (node:crypto in the exchange and in main); this module only
// builds the exact text that is signed, so both sides agree on it.

/** `timestamp + METHOD + requestPath + ("?" + query, only when there is one) + body`. */
export function prehash(
  timestamp: string,
  method: string,
  requestPath: string,
  queryString: string,
  body: string,
): string {
  const query = queryString.length > 0 ? `?${queryString}` : '';
  return `${timestamp}${method.toUpperCase()}${requestPath}${query}${body}`;
}

/** Headers of a signed request, by their wire names. */
export const AUTH_HEADERS = {
  key: 'ACCESS-KEY',
  sign: 'ACCESS-SIGN',
  passphrase: 'ACCESS-PASSPHRASE',
  timestamp: 'ACCESS-TIMESTAMP',
  locale: 'locale',
  demo: 'paptrading',
} as const;
