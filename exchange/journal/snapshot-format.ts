// A snapshot file is one header line of JSON, then the state as JSON:
//
//   {"format":"paper-exchange-snapshot","version":1,"seq":1200,"stateBytes":5123,"sha256":"…"}\n
//   {…state…}
//
// The sha256 covers "<seq>\n" followed by the exact state bytes, so a damaged state or a seq that no
// longer matches its state is caught without re-serialising anything.

import { createHash } from 'node:crypto';

const FORMAT = 'paper-exchange-snapshot';
const VERSION = 1;

export type SnapshotCheck = { ok: true; seq: number; state: unknown } | { ok: false; problem: string };

/** Serialises synchronously, so later changes to `state` cannot leak into the snapshot. */
export function encodeSnapshot(seq: number, state: unknown): Buffer {
  const stateText = JSON.stringify(state);
  if (stateText === undefined) throw new TypeError('A snapshot state must be JSON-serialisable');
  const stateBytes = Buffer.from(stateText, 'utf8');
  const header = {
    format: FORMAT,
    version: VERSION,
    seq,
    stateBytes: stateBytes.length,
    sha256: digest(seq, stateBytes),
  };
  return Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`, 'utf8'), stateBytes]);
}

export function decodeSnapshot(bytes: Buffer, expectedSeq: number): SnapshotCheck {
  const newline = bytes.indexOf(0x0a);
  if (newline < 0) return { ok: false, problem: 'the header line is missing' };
  let header: unknown;
  try {
    header = JSON.parse(bytes.toString('utf8', 0, newline));
  } catch {
    return { ok: false, problem: 'the header line is not valid JSON' };
  }
  if (!isHeader(header))
    return { ok: false, problem: 'the header line lacks format, version, seq, size or checksum' };
  if (header.version !== VERSION) {
    return {
      ok: false,
      problem: `the snapshot uses format version ${header.version}; this build reads ${VERSION}`,
    };
  }
  if (header.seq !== expectedSeq) {
    return { ok: false, problem: `the header says seq ${header.seq} but the file name says ${expectedSeq}` };
  }
  const stateBytes = bytes.subarray(newline + 1);
  if (stateBytes.length !== header.stateBytes) {
    return {
      ok: false,
      problem: `the state has ${stateBytes.length} bytes; the header says ${header.stateBytes}`,
    };
  }
  const actual = digest(header.seq, stateBytes);
  if (actual !== header.sha256) {
    return { ok: false, problem: `the sha256 does not match (stored ${header.sha256}, computed ${actual})` };
  }
  try {
    return { ok: true, seq: header.seq, state: JSON.parse(stateBytes.toString('utf8')) };
  } catch {
    return { ok: false, problem: 'the state is not valid JSON although its checksum matches' };
  }
}

interface SnapshotHeader {
  format: string;
  version: number;
  seq: number;
  stateBytes: number;
  sha256: string;
}

function isHeader(value: unknown): value is SnapshotHeader {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    record.format === FORMAT &&
    typeof record.version === 'number' &&
    Number.isSafeInteger(record.seq) &&
    Number.isSafeInteger(record.stateBytes) &&
    typeof record.sha256 === 'string'
  );
}

function digest(seq: number, stateBytes: Buffer): string {
  return createHash('sha256').update(`${seq}\n`).update(stateBytes).digest('hex');
}
