import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { envelopeSchema } from '../../shared/api/envelope';
import { listenOnLoopback } from '../testing/listen';
import { acceptAnyContentType, createHttpApp } from './app';

let app: FastifyInstance;
let baseUrl: string;

beforeEach(async () => {
  app = createHttpApp({ logger: false, bodyLimitBytes: 1024 });
  app.post('/echo', { onRequest: acceptAnyContentType }, (request) => ({
    raw: request.rawBody,
    parsed: request.body ?? null,
  }));
  app.get('/ip', (request) => ({ ip: request.ip }));
  app.get('/explode', () => {
    throw new Error('secret internals');
  });
  baseUrl = await listenOnLoopback(app);
});
afterEach(() => app.close());

async function call(
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; json: unknown; type: string }> {
  const response = await fetch(`${baseUrl}${path}`, init);
  return {
    status: response.status,
    json: (await response.json()) as unknown,
    type: response.headers.get('content-type') ?? '',
  };
}

function expectEnvelope(json: unknown, code: string): void {
  const parsed = envelopeSchema.parse(json);
  expect(parsed.code).toBe(code);
  expect(parsed.data).toBeNull();
  expect(Object.keys(json as object).sort()).toEqual(['code', 'data', 'msg', 'requestTime']);
}

describe('createHttpApp: errors are envelopes', () => {
  it('answers an unknown path with a 404 envelope, for GET and POST', async () => {
    const get = await call('/api/v2/nothing');
    const post = await call('/api/v2/nothing', { method: 'POST', body: '{not json' });
    expect(get.status).toBe(404);
    expect(post.status).toBe(404);
    expectEnvelope(get.json, '40404');
    expectEnvelope(post.json, '40404');
    expect(get.type).toMatch(/^application\/json/);
  });

  it('answers a known path with the wrong method with 405 naming the allowed one', async () => {
    const response = await fetch(`${baseUrl}/echo`);
    const json = (await response.json()) as { msg: string };
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expectEnvelope(json, '40405');
    expect(json.msg).toBe('Method GET not allowed for /echo, use POST');
  });

  it('answers a malformed JSON body with 400 and code 40017', async () => {
    const answer = await call('/echo', { method: 'POST', body: '{"a": 1,' });
    expect(answer.status).toBe(400);
    expectEnvelope(answer.json, '40017');
    expect((answer.json as { msg: string }).msg).toBe(
      'Parameter verification failed: body is not valid JSON',
    );
  });

  it('refuses a body that would poison prototypes', async () => {
    const answer = await call('/echo', { method: 'POST', body: '{"__proto__": {"admin": true}}' });
    expect(answer.status).toBe(400);
    expectEnvelope(answer.json, '40017');
  });

  it('answers a body over the limit with a 413 envelope and goes on serving', async () => {
    const answer = await call('/echo', { method: 'POST', body: JSON.stringify({ pad: 'x'.repeat(2048) }) });
    expect(answer.status).toBe(413);
    expectEnvelope(answer.json, '40413');
    const after = await call('/echo', { method: 'POST', body: '{"small":true}' });
    expect(after.status).toBe(200);
  });

  it('answers an unexpected exception with a generic 500 envelope, then serves the next request', async () => {
    const response = await fetch(`${baseUrl}/explode`);
    const text = await response.text();
    expect(response.status).toBe(500);
    expectEnvelope(JSON.parse(text), '45001');
    expect(text).not.toContain('secret internals');
    expect((await call('/ip')).status).toBe(200);
  });

  it('answers an undecodable URL with a 400 envelope', async () => {
    const answer = await call('/api/%zz');
    expect(answer.status).toBe(400);
    expectEnvelope(answer.json, '40404');
  });

  it('answers a request that is not valid HTTP with a 400 envelope', async () => {
    const { port } = new URL(baseUrl);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write('GET /ip HTTP/1.1\r\nHost: x\r\nNot A Header\r\n\r\n');
      });
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expectEnvelope(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)), '40017');
  });
});

describe('createHttpApp: bodies', () => {
  it('keeps the raw body byte for byte and parses it as JSON', async () => {
    const raw = '{ "symbol" :\n "BTCUSDT",  "note": "prix € — 価格" }';
    const answer = await call('/echo', {
      method: 'POST',
      body: raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.json).toEqual({ raw, parsed: { symbol: 'BTCUSDT', note: 'prix € — 価格' } });
  });

  it.each([
    ['application/json; charset=utf-8'],
    ['text/plain'],
    ['application/x-www-form-urlencoded'],
    ['json'],
    [''],
  ])('reads the body as JSON whatever the Content-Type says (%j)', async (contentType) => {
    const headers: Record<string, string> = contentType === '' ? {} : { 'content-type': contentType };
    const answer = await call('/echo', { method: 'POST', body: '{"a":"1"}', headers });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ raw: '{"a":"1"}', parsed: { a: '1' } });
  });

  it('takes an empty or absent body as {}', async () => {
    const declared = await call('/echo', {
      method: 'POST',
      body: '',
      headers: { 'content-type': 'application/json' },
    });
    const bare = await call('/echo', { method: 'POST' });
    expect(declared.json).toEqual({ raw: '', parsed: {} });
    expect(bare.json).toEqual({ raw: '', parsed: {} });
  });
});

describe('createHttpApp: connection', () => {
  it('takes the client IP from the socket, never from proxy headers', async () => {
    const answer = await call('/ip', {
      headers: { 'x-forwarded-for': '203.0.113.9', 'x-real-ip': '203.0.113.9' },
    });
    expect(answer.json).toEqual({ ip: '127.0.0.1' });
  });

  it('keeps connections alive', async () => {
    const header = await new Promise<string | undefined>((resolve, reject) => {
      const outgoing = httpRequest(`${baseUrl}/ip`, { headers: { connection: 'keep-alive' } }, (response) => {
        response.resume();
        resolve(response.headers.connection);
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
    expect(header).toBe('keep-alive');
  });
});
