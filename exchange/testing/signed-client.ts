// A signing HTTP client for tests and benchmarks of the paper exchange. It signs exactly as
// exchange-facts.md "Signing" says, and lets a test bend each part (timestamp, headers, the query
// it signs, the body bytes) to play the clients that differ.
import { createHmac } from 'node:crypto';
import { envelopeSchema } from '../../shared/api/envelope';
import type { Envelope } from '../../shared/api/envelope';
import { prehash } from '../../shared/signing';

export interface SignedClientOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly secretKey: string;
  readonly passphrase: string;
  /** Added to the local clock for ACCESS-TIMESTAMP. */
  readonly clockOffsetMs?: number;
  /** Sends `paptrading: 1`, as clients of the live demo do. */
  readonly paptrading?: boolean;
}

export interface RequestOptions {
  /** ACCESS-TIMESTAMP to send and sign instead of the clock's. */
  readonly timestamp?: string;
  /** Extra or replaced headers; `undefined` removes a header the client would send. */
  readonly headers?: Readonly<Record<string, string | undefined>>;
  /** Sends the query as given but signs its percent-decoded form, as one widely used client does. */
  readonly signDecodedQuery?: boolean;
  /** Secret to sign with instead of the client's own. */
  readonly signWithSecret?: string;
}

export interface ClientResponse {
  readonly status: number;
  /** The envelope, or null when the answer is not one. */
  readonly body: Envelope<unknown> | null;
  readonly text: string;
}

/** Query parameters in the order given, or a raw query string sent and signed exactly as given. */
export type QueryInput = Readonly<Record<string, string>> | string;

/** Body bytes sent exactly as given instead of serialised JSON. */
export interface RawBody {
  readonly raw: string;
}

export interface SignedClient {
  get(path: string, query?: QueryInput, options?: RequestOptions): Promise<ClientResponse>;
  post(path: string, body: unknown, options?: RequestOptions): Promise<ClientResponse>;
  publicGet(path: string, query?: QueryInput): Promise<ClientResponse>;
  admin(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body: unknown,
    adminToken: string | undefined,
  ): Promise<ClientResponse>;
}

export function createSignedClient(options: SignedClientOptions): SignedClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');

  async function signed(
    method: 'GET' | 'POST',
    path: string,
    query: string,
    body: string,
    requestOptions: RequestOptions = {},
  ): Promise<ClientResponse> {
    const timestamp = requestOptions.timestamp ?? String(Date.now() + (options.clockOffsetMs ?? 0));
    const signedQuery = requestOptions.signDecodedQuery === true ? decodeURIComponent(query) : query;
    const secret = requestOptions.signWithSecret ?? options.secretKey;
    const sign = createHmac('sha256', secret)
      .update(prehash(timestamp, method, path, signedQuery, body), 'utf8')
      .digest('base64');
    const headers = new Headers({
      'ACCESS-KEY': options.apiKey,
      'ACCESS-SIGN': sign,
      'ACCESS-TIMESTAMP': timestamp,
      'ACCESS-PASSPHRASE': options.passphrase,
      'Content-Type': 'application/json',
      locale: 'en-US',
    });
    if (options.paptrading === true) headers.set('paptrading', '1');
    applyOverrides(headers, requestOptions.headers);
    return send(method, urlOf(path, query), headers, method === 'POST' ? body : undefined);
  }

  async function send(
    method: string,
    url: string,
    headers: Headers,
    body: string | undefined,
  ): Promise<ClientResponse> {
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    return { status: response.status, body: parseEnvelope(text), text };
  }

  function urlOf(path: string, query: string): string {
    return query.length > 0 ? `${baseUrl}${path}?${query}` : `${baseUrl}${path}`;
  }

  return {
    get: (path, query, requestOptions) => signed('GET', path, encodeQuery(query), '', requestOptions),
    post: (path, body, requestOptions) => signed('POST', path, '', encodeBody(body), requestOptions),
    publicGet: (path, query) => send('GET', urlOf(path, encodeQuery(query)), new Headers(), undefined),
    admin: (method, path, body, adminToken) => {
      const headers = new Headers({ 'Content-Type': 'application/json' });
      if (adminToken !== undefined) headers.set('X-Paper-Admin', adminToken);
      if (method === 'GET') {
        const query = body === undefined ? '' : encodeQuery(body as QueryInput);
        return send(method, urlOf(path, query), headers, undefined);
      }
      return send(method, urlOf(path, ''), headers, body === undefined ? undefined : encodeBody(body));
    },
  };
}

/** Keys in the order given, names and values percent-encoded. */
export function encodeQuery(query: QueryInput | undefined): string {
  if (query === undefined) return '';
  if (typeof query === 'string') return query;
  return Object.entries(query)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
}

function encodeBody(body: unknown): string {
  if (isRawBody(body)) return body.raw;
  return JSON.stringify(body);
}

function isRawBody(body: unknown): body is RawBody {
  if (typeof body !== 'object' || body === null) return false;
  const keys = Object.keys(body);
  return keys.length === 1 && keys[0] === 'raw' && typeof (body as { raw: unknown }).raw === 'string';
}

function applyOverrides(headers: Headers, overrides: RequestOptions['headers']): void {
  if (overrides === undefined) return;
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) headers.delete(name);
    else headers.set(name, value);
  }
}

function parseEnvelope(text: string): Envelope<unknown> | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = envelopeSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}
