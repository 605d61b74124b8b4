// The browser host against a real app core and paper exchange: what a browser, and a page that
// is not ours, would get.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { CredentialVault } from '../core/vault/credential-vault';
import { BRIDGE_PATH, RendererNotBuiltError, startBrowserHost } from './browser-host';
import type { BrowserHost } from './browser-host';

const folders: string[] = [];
let host: BrowserHost;
let cookie: string;

async function folder(): Promise<string> {
  const created = await mkdtemp(join(tmpdir(), 'browser-host-'));
  folders.push(created);
  return created;
}

function openSocket(headers: Record<string, string>): Promise<WebSocket> {
  const socket = new WebSocket(`${host.origin.replace('http', 'ws')}${BRIDGE_PATH}`, { headers });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`HTTP ${response.statusCode}`)),
    );
    socket.once('error', reject);
  });
}

beforeAll(async () => {
  const rendererDir = await folder();
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Terminal</title>');
  await writeFile(join(rendererDir, 'app.js'), 'export {};');
  host = await startBrowserHost({
    port: 0,
    userDataDir: await folder(),
    rendererDir,
    vault: new CredentialVault({ service: 'trading-terminal-browser-host-test' }),
    log: () => {},
  });
  const first = await fetch(host.url, { redirect: 'manual' });
  cookie = (first.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
});

afterAll(async () => {
  await host.close();
  for (const created of folders) await rm(created, { recursive: true, force: true });
});

describe('browser host', () => {
  it('refuses to start without a built renderer and says how to build it', async () => {
    await expect(
      startBrowserHost({ userDataDir: await folder(), rendererDir: await folder() }),
    ).rejects.toThrow(RendererNotBuiltError);
  });

  it('refuses every request without the token', async () => {
    for (const path of ['/', '/index.html', '/app.js', '/missing', `${BRIDGE_PATH}`]) {
      expect((await fetch(`${host.origin}${path}`)).status).toBe(403);
    }
    expect((await fetch(`${host.origin}/?token=wrong`)).status).toBe(403);
    expect(
      (await fetch(`${host.origin}/`, { headers: { cookie: `${cookie.split('=')[0]}=wrong` } })).status,
    ).toBe(403);
  });

  it('moves the token into a strict HttpOnly cookie, then serves the page with a CSP', async () => {
    const first = await fetch(host.url, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/');
    expect(first.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);

    const page = await fetch(`${host.origin}/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Terminal</title>');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const script = await fetch(`${host.origin}/app.js`, { headers: { cookie } });
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await fetch(`${host.origin}/%2e%2e/package.json`, { headers: { cookie } })).status).toBe(404);
  });

  it('refuses writes and foreign origins even with the token', async () => {
    expect((await fetch(`${host.origin}/`, { method: 'POST', headers: { cookie } })).status).toBe(403);
    const foreign = await fetch(`${host.origin}/`, { headers: { cookie, origin: 'http://evil.example' } });
    expect(foreign.status).toBe(403);
    await expect(openSocket({ cookie, origin: 'http://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(openSocket({ origin: host.origin })).rejects.toThrow('HTTP 403');
  });

  it('answers bridge calls and pushes live tickers over the socket', async () => {
    const socket = await openSocket({ cookie, origin: host.origin });
    const messages: Array<Record<string, unknown>> = [];
    const arrived = (matches: (message: Record<string, unknown>) => boolean) =>
      new Promise<Record<string, unknown>>((resolve) => {
        const check = () => {
          const found = messages.find(matches);
          if (found !== undefined) return resolve(found);
          socket.once('message', check);
        };
        check();
      });
    socket.on('message', (data) => messages.push(JSON.parse(String(data)) as Record<string, unknown>));

    socket.send(JSON.stringify({ id: 1, channel: 'profiles.list' }));
    expect(await arrived((message) => message.id === 1)).toMatchObject({
      result: { ok: true, value: [{ id: 'paper', selected: true }] },
    });

    socket.send(
      JSON.stringify({
        id: 2,
        channel: 'poll.subscribe',
        input: { key: { endpointId: 'E11', params: { productType: 'USDT-FUTURES' } } },
      }),
    );
    expect(await arrived((message) => message.id === 2)).toMatchObject({ result: { ok: true } });
    const pushed = await arrived((message) => message.event === 'poll.data');
    expect(JSON.stringify(pushed.payload)).toContain('BTCUSDT');

    // A hidden tab gets no more data; shown again, the data flows again.
    socket.send(JSON.stringify({ visible: false }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const countWhileHidden = messages.filter((message) => message.event === 'poll.data').length;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(messages.filter((message) => message.event === 'poll.data').length).toBe(countWhileHidden);
    socket.send(JSON.stringify({ visible: true }));
    const resumedAfter = messages.length;
    await arrived((message) => message.event === 'poll.data' && messages.indexOf(message) >= resumedAfter);

    socket.send(JSON.stringify({ id: 3, channel: 'no.such.channel' }));
    expect(await arrived((message) => message.id === 3)).toMatchObject({
      result: { ok: false, error: { code: 'IPC_UNKNOWN_CHANNEL' } },
    });

    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send('not json');
    expect(await closed).toBe(1008);
  });
});
