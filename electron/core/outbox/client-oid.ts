// clientOids valid for v2 (1..64 printable) and v3 (^[.A-Z:/a-z0-9_-]{1,32}$) alike.
import { randomBytes } from 'node:crypto';

export const CLIENT_OID_PATTERN = /^tt-[0-9a-z]{1,11}-[0-9a-z]{16}$/;

/** `tt-<ms since epoch, base 36>-<80 random bits, base 32>`: unique without coordination, ≤ 31 chars. */
export function newClientOid(now: number = Date.now()): string {
  const random = BigInt(`0x${randomBytes(10).toString('hex')}`)
    .toString(32)
    .padStart(16, '0');
  return `tt-${now.toString(36)}-${random}`;
}
