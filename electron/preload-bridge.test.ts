// The renderer's Electron bridge against the real app core, wired the way main.ts and preload.ts
// wire it: invoke goes through the router with the window's sender, events come back per window.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExchange } from '../exchange/server';
import { BridgeCallError } from '../renderer/bridge/bridge';
import { createPreloadBridge, type PreloadApi } from '../renderer/bridge/preload-bridge';
import { APP_ORIGIN } from './app-origin';
import { createAppCore, type AppCore } from './core/app/app-core';
import { CredentialVault } from './core/vault';

let folder: string;
let core: AppCore;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'preload-bridge-'));
  core = await createAppCore({
    userDataDir: folder,
    vault: new CredentialVault({ service: `trading-terminal-test-${process.pid}` }),
    launchPaperExchange: ({ dataDir }) => startExchange({ dataDir, port: 0, log: () => {} }),
    allowedOrigins: [APP_ORIGIN],
  });
});

afterAll(async () => {
  await core.close();
  await rm(folder, { recursive: true, force: true });
});

/** What preload.ts and main.ts do for one window, minus Electron's own IPC transport. */
function windowApi(windowId: string, frameUrl = `${APP_ORIGIN}/`): PreloadApi {
  return {
    invoke: (channel, input) => core.router.handle(channel, input, { frameUrl, isMainFrame: true, windowId }),
    onEvent: (listener) => core.events.subscribe(windowId, (event, payload) => listener(event, payload)),
  };
}

describe('the Electron bridge', () => {
  it('answers calls and delivers pushed tickers to the window that subscribed', async () => {
    const bridge = createPreloadBridge(windowApi('dashboard'));
    const profiles = await bridge.invoke('profiles.list', undefined);
    expect(profiles).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: 'paper', selected: true })]),
    );
    const pushed = new Promise<unknown>((resolve) => {
      const stop = bridge.on('poll.data', (payload) => {
        stop();
        resolve(payload);
      });
    });
    await bridge.invoke('poll.subscribe', {
      key: { endpointId: 'E11', params: { productType: 'USDT-FUTURES' } },
    });
    expect(JSON.stringify(await pushed)).toContain('BTCUSDT');
  });

  it('turns a refusal into an error with main’s code', async () => {
    const foreign = createPreloadBridge(windowApi('intruder', 'https://evil.example/'));
    await expect(foreign.invoke('profiles.list', undefined)).rejects.toBeInstanceOf(BridgeCallError);
    await expect(foreign.invoke('profiles.list', undefined)).rejects.toMatchObject({
      code: 'IPC_FOREIGN_SENDER',
    });
  });
});
