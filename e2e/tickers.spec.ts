// `npm run web` as a person uses it: open the printed address, see live tickers; without the
// token, nothing. Needs the built renderer (`npm run build:renderer`) and Debian's chromium.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startBrowserHost } from '../electron/browser-host/browser-host';
import type { BrowserHost } from '../electron/browser-host/browser-host';
import { CredentialVault } from '../electron/core/vault/credential-vault';

let host: BrowserHost;
let userDataDir: string;

test.beforeAll(async () => {
  userDataDir = await mkdtemp(join(tmpdir(), 'e2e-web-'));
  host = await startBrowserHost({
    port: 0,
    userDataDir,
    vault: new CredentialVault({ service: `trading-terminal-e2e-${randomUUID()}` }),
    log: () => {},
  });
});

test.afterAll(async () => {
  await host?.close();
  await rm(userDataDir, { recursive: true, force: true });
});

test('the ready address opens a page with live USDT-FUTURES tickers', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });

  await page.goto(host.url);
  // The token left the address bar for the cookie.
  expect(page.url()).toBe(`${host.origin}/`);

  const table = page.getByRole('table', { name: 'USDT-FUTURES tickers' });
  const btc = table.locator('tr[data-symbol="BTCUSDT"]');
  await expect(btc.getByRole('rowheader')).toHaveText('BTCUSDT');
  const last = btc.locator('td[data-column="last"]');
  await expect(last).toHaveText(/^\d+(\.\d+)?$/);
  await expect(btc.locator('td[data-column="mark"]')).toHaveText(/^\d+(\.\d+)?$/);
  await expect(btc.locator('td[data-column="change"]')).toHaveText(/^[+-]?\d+\.\d{2}%$/);

  const firstPrice = await last.textContent();
  await expect(last).not.toHaveText(firstPrice ?? '', { timeout: 20_000 });
  expect(problems).toEqual([]);
});

test('without the token every request is refused', async ({ browser }) => {
  const stranger = await browser.newContext();
  try {
    const page = await stranger.newPage();
    const answer = await page.goto(`${host.origin}/`);
    expect(answer?.status()).toBe(403);
    expect(await page.textContent('body')).toContain('access token');
    expect((await stranger.request.get(`${host.origin}/index.html`)).status()).toBe(403);
    const socketRefused = await page.evaluate(
      (url) =>
        new Promise<boolean>((resolve) => {
          const socket = new WebSocket(url);
          socket.onopen = () => resolve(false);
          socket.onerror = () => resolve(true);
        }),
      `${host.origin.replace('http', 'ws')}/bridge`,
    );
    expect(socketRefused).toBe(true);
  } finally {
    await stranger.close();
  }
});
