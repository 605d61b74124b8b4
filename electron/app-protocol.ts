// The renderer is served from app://trading-terminal/ instead of file://, so it has a real origin
// the IPC router can check, and only files inside the built renderer folder can be loaded.
import { net, protocol } from 'electron';
import { join, normalize, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

import { APP_HOST, APP_SCHEME } from './app-origin';

const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/** Serves `rendererDir` under app://trading-terminal/, with the app's Content-Security-Policy. */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return new Response('not found', { status: 404 });
    const wanted = normalize(join(rendererDir, decodeURIComponent(url.pathname)));
    const inside = relative(rendererDir, wanted);
    if (inside.startsWith('..') || inside.includes(`..${sep}`))
      return new Response('not found', { status: 404 });
    const file = inside === '' || url.pathname.endsWith('/') ? join(wanted, 'index.html') : wanted;
    const response = await net.fetch(pathToFileURL(file).toString());
    const headers = new Headers(response.headers);
    headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    return new Response(response.body, { status: response.status, headers });
  });
}
