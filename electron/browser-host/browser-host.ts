// The browser host: the built renderer and the app core on 127.0.0.1, behind a per-launch token.
// Every request must carry the token (query once, cookie after), come to our own Host, and, when
// the browser names an Origin, come from our own page; anything else gets 403.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';
import { startExchange } from '../../exchange/server';
import { createAppCore } from '../core/app/app-core';
import type { AppCore, CredentialStore, PaperExchangeLauncher } from '../core/app/app-core';
import { CredentialVault } from '../core/vault/credential-vault';
import {
  cookieValue,
  newAccessToken,
  TOKEN_QUERY_PARAMETER,
  tokenCookie,
  tokenCookieName,
  tokenMatches,
} from './access-token';
import { serveBridgeSocket } from './bridge-socket';
import { rendererIsBuilt, sendFile } from './static-files';

export const BRIDGE_PATH = '/bridge';
export const DEFAULT_RENDERER_DIR = fileURLToPath(new URL('../../dist/renderer', import.meta.url));
const MAX_MESSAGE_BYTES = 1024 * 1024;
const HOST = '127.0.0.1';

export interface BrowserHostOptions {
  /** 0 picks any free port. */
  readonly port?: number;
  readonly userDataDir: string;
  /** The Vite build of renderer/. */
  readonly rendererDir?: string;
  readonly vault?: CredentialStore;
  readonly launchPaperExchange?: PaperExchangeLauncher;
  /** Where the paper exchange writes its log lines; standard error by default. */
  readonly log?: (message: string) => void;
}

export interface BrowserHost {
  readonly origin: string;
  /** The address to open: it carries the token. */
  readonly url: string;
  readonly core: AppCore;
  close(): Promise<void>;
}

export class RendererNotBuiltError extends Error {
  constructor(readonly rendererDir: string) {
    super(
      `The renderer is not built: ${rendererDir} has no index.html. Run \`npm run build:renderer\` first.`,
    );
    this.name = 'RendererNotBuiltError';
  }
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const rendererDir = options.rendererDir ?? DEFAULT_RENDERER_DIR;
  if (!(await rendererIsBuilt(rendererDir))) throw new RendererNotBuiltError(rendererDir);
  const launchPaperExchange: PaperExchangeLauncher =
    options.launchPaperExchange ??
    ((launch) => startExchange({ dataDir: launch.dataDir, port: 0, log: options.log }));

  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://${HOST}:${port}`;
  const host = `${HOST}:${port}`;
  const token = newAccessToken();
  const cookieName = tokenCookieName(port);

  let core: AppCore;
  try {
    core = await createAppCore({
      userDataDir: options.userDataDir,
      vault: options.vault ?? new CredentialVault(),
      launchPaperExchange,
      allowedOrigins: [origin],
    });
  } catch (error) {
    server.close();
    throw error;
  }

  /** Why a request is refused, or null when it may pass. */
  function refusal(request: IncomingMessage, url: URL, isSocket: boolean): string | null {
    // A foreign Host means a page on another name resolved to us (DNS rebinding).
    if (request.headers.host !== host) return 'unknown host';
    const requestOrigin = request.headers.origin;
    if (isSocket ? requestOrigin !== origin : requestOrigin !== undefined && requestOrigin !== origin) {
      return 'foreign origin';
    }
    if (request.method !== 'GET') return 'only GET is served';
    const fromCookie = cookieValue(request.headers.cookie, cookieName);
    const fromQuery = isSocket ? null : url.searchParams.get(TOKEN_QUERY_PARAMETER);
    if (!tokenMatches(token, fromCookie) && !tokenMatches(token, fromQuery)) return 'no valid token';
    return null;
  }

  function refuse(response: ServerResponse, reason: string): void {
    response
      .writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' })
      .end(
        `Forbidden (${reason}). Open the address that \`npm run web\` printed: it carries the access token.\n`,
      );
  }

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', origin);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Referrer-Policy', 'no-referrer');
    response.setHeader('X-Frame-Options', 'DENY');
    const reason = refusal(request, url, false);
    if (reason !== null) return refuse(response, reason);
    if (url.searchParams.has(TOKEN_QUERY_PARAMETER)) {
      // The token moves into the cookie and out of the address bar and the history.
      response.writeHead(303, { 'Set-Cookie': tokenCookie(port, token), Location: url.pathname }).end();
      return;
    }
    sendFile(response, rendererDir, url.pathname, origin).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });

  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  server.on('upgrade', (request: IncomingMessage, stream: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', origin);
    if (url.pathname !== BRIDGE_PATH || refusal(request, url, true) !== null) {
      stream.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, stream, head, (socket) => serveBridgeSocket(socket, core, `${origin}/`));
  });

  let closing: Promise<void> | null = null;
  return {
    origin,
    url: `${origin}/?${TOKEN_QUERY_PARAMETER}=${token}`,
    core,
    close() {
      closing ??= (async () => {
        for (const socket of sockets.clients) socket.terminate();
        sockets.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await core.close();
      })();
      return closing;
    },
  };
}
