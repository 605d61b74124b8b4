// The Electron shell: windows, the app:// protocol, the security checklist and the IPC wiring.
// Everything else (profiles, keys, signed calls, outbox, polling) is the plain-Node app core.
import { app, BrowserWindow, ipcMain, Menu, type IpcMainInvokeEvent } from 'electron';
import { join } from 'node:path';
import { createAppCore, type AppCore } from './core/app/app-core';
import { CredentialVault } from './core/vault';
import { startExchange } from '../exchange/server';
import { APP_ORIGIN } from './app-origin';
import { registerAppScheme, serveRenderer } from './app-protocol';
import { hardenSessions } from './security';

const RENDERER_DIR = join(__dirname, '..', 'renderer');
const PRELOAD = join(__dirname, 'preload.cjs');

registerAppScheme();
app.enableSandbox();

let core: AppCore | null = null;

function createWindow(kind: 'dashboard' | 'monitor', alwaysOnTop = false): BrowserWindow {
  const window = new BrowserWindow({
    width: kind === 'dashboard' ? 1440 : 420,
    height: kind === 'dashboard' ? 900 : 560,
    title: kind === 'dashboard' ? 'Trading Terminal' : 'Position monitor',
    alwaysOnTop,
    show: false,
    webPreferences: { preload: PRELOAD, contextIsolation: true, sandbox: true, nodeIntegration: false },
  });
  const windowId = String(window.webContents.id);
  const stopEvents = core?.events.subscribe(windowId, (event, payload) => {
    if (!window.isDestroyed()) window.webContents.send('bridge:event', event, payload);
  });
  const visible = (value: boolean) => () => core?.setWindowVisible(windowId, value);
  window.on('hide', visible(false));
  window.on('minimize', visible(false));
  window.on('show', visible(true));
  window.on('restore', visible(true));
  window.on('closed', () => {
    stopEvents?.();
    core?.windowClosed(windowId);
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(`${APP_ORIGIN}/${kind === 'dashboard' ? '' : '#/monitor'}`);
  return window;
}

async function onInvoke(event: IpcMainInvokeEvent, channel: unknown, input: unknown): Promise<unknown> {
  if (core === null)
    return { ok: false, error: { code: 'APP_STARTING', message: 'The app is still starting.' } };
  const frame = event.senderFrame;
  return core.router.handle(typeof channel === 'string' ? channel : '', input, {
    frameUrl: frame?.url ?? '',
    isMainFrame: frame !== null && frame === event.sender.mainFrame,
    windowId: String(event.sender.id),
  });
}

app.whenReady().then(
  async () => {
    hardenSessions();
    serveRenderer(RENDERER_DIR);
    core = await createAppCore({
      userDataDir: app.getPath('userData'),
      vault: new CredentialVault(),
      launchPaperExchange: ({ dataDir }) => startExchange({ dataDir, port: 0 }),
      allowedOrigins: [APP_ORIGIN],
    });
    ipcMain.handle('bridge:invoke', onInvoke);
    Menu.setApplicationMenu(
      Menu.buildFromTemplate([
        { role: 'fileMenu' },
        { role: 'editMenu' },
        {
          label: 'Window',
          submenu: [
            { label: 'Position monitor', click: () => createWindow('monitor') },
            { label: 'Position monitor, always on top', click: () => createWindow('monitor', true) },
            { type: 'separator' },
            { role: 'minimize' },
            { role: 'close' },
          ],
        },
      ]),
    );
    createWindow('dashboard');
  },
  (error: unknown) => {
    console.error('the app could not start:', error);
    app.exit(1);
  },
);

app.on('window-all-closed', () => {
  const closing = core?.close() ?? Promise.resolve();
  core = null;
  void closing.finally(() => app.quit());
});
