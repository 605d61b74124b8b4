// Serves the built renderer: files inside its folder only, with their types and the page's CSP.
import { readFile, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

export const RENDERER_ENTRY = 'index.html';

/** Scripts, styles and the socket come from this host only; nothing may frame the page. */
export function contentSecurityPolicy(origin: string): string {
  const socketOrigin = origin.replace(/^http/, 'ws');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${socketOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export async function rendererIsBuilt(rendererDir: string): Promise<boolean> {
  try {
    return (await stat(join(rendererDir, RENDERER_ENTRY))).isFile();
  } catch {
    return false;
  }
}

/** The file a URL path names, or null when it leaves the folder or names a hidden file. */
export function fileForPath(rendererDir: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.split('/').some((segment) => segment.startsWith('.'))) return null;
  const root = resolve(rendererDir);
  const file = resolve(root, `.${decoded === '/' ? `/${RENDERER_ENTRY}` : decoded}`);
  return file.startsWith(root + sep) ? file : null;
}

export async function sendFile(
  response: ServerResponse,
  rendererDir: string,
  pathname: string,
  origin: string,
): Promise<void> {
  const file = fileForPath(rendererDir, pathname);
  let body: Buffer | null = null;
  if (file !== null) body = await readFile(file).catch(() => null);
  if (file === null || body === null) {
    response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found.\n');
    return;
  }
  const extension = extname(file);
  const headers: Record<string, string> = {
    'Content-Type': CONTENT_TYPES[extension] ?? 'application/octet-stream',
    'Content-Length': String(body.length),
  };
  if (extension === '.html') {
    headers['Content-Security-Policy'] = contentSecurityPolicy(origin);
    headers['Cache-Control'] = 'no-store';
  }
  response.writeHead(200, headers).end(body);
}
