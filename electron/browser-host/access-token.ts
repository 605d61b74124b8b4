// The per-launch secret that gates the browser host (the Jupyter model): it arrives once in the
// address, then lives in an HttpOnly, SameSite=Strict cookie that assets and the socket carry.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_QUERY_PARAMETER = 'token';

export function newAccessToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Compared by digest, so neither the length nor the first differing byte leaks through timing. */
export function tokenMatches(expected: string, candidate: string | null | undefined): boolean {
  if (typeof candidate !== 'string' || candidate === '') return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(expected), digest(candidate));
}

/** Cookies ignore ports, so each host names its own: two hosts side by side keep their tokens apart. */
export function tokenCookieName(port: number): string {
  return `terminal_token_${port}`;
}

export function tokenCookie(port: number, token: string): string {
  return `${tokenCookieName(port)}=${token}; Path=/; HttpOnly; SameSite=Strict`;
}

export function cookieValue(header: string | undefined, name: string): string | null {
  if (header === undefined) return null;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return null;
}
