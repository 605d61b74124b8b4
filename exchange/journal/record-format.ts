// Binary framing of journal segments. All integers are little-endian.
//
// Segment header (24 bytes): magic "PXJOURNL" | u32 format version | u64 base seq | u32 crc32 of the 20
// bytes before it. The first record of a segment carries seq = base seq + 1.
//
// Record: u32 crc32 | u32 payload length | u64 seq | payload (the command as UTF-8 JSON). The crc covers
// everything after itself (length, seq and payload), so a damaged length or seq is caught as surely as
// a damaged payload.

import { crc32 } from 'node:zlib';

export const SEGMENT_MAGIC = 'PXJOURNL';
export const SEGMENT_FORMAT_VERSION = 1;
export const SEGMENT_HEADER_BYTES = 24;
export const RECORD_HEADER_BYTES = 16;
/** Bounds the length field so a damaged one cannot make the reader trust gigabytes of garbage. */
export const MAX_RECORD_PAYLOAD_BYTES = 64 * 1024 * 1024;

export type SegmentHeaderCheck = { ok: true; baseSeq: number } | { ok: false; problem: string };

export type RecordCheck =
  { ok: true; seq: number; payload: Buffer; end: number } | { ok: false; problem: string };

export function encodeSegmentHeader(baseSeq: number): Buffer {
  const header = Buffer.alloc(SEGMENT_HEADER_BYTES);
  header.write(SEGMENT_MAGIC, 0, 'ascii');
  header.writeUInt32LE(SEGMENT_FORMAT_VERSION, 8);
  header.writeBigUInt64LE(BigInt(baseSeq), 12);
  header.writeUInt32LE(crc32(header.subarray(0, 20)), 20);
  return header;
}

export function decodeSegmentHeader(bytes: Buffer): SegmentHeaderCheck {
  if (bytes.length < SEGMENT_HEADER_BYTES) {
    return {
      ok: false,
      problem: `the file has ${bytes.length} bytes, less than the ${SEGMENT_HEADER_BYTES}-byte header`,
    };
  }
  if (bytes.toString('ascii', 0, 8) !== SEGMENT_MAGIC) {
    return { ok: false, problem: `the file does not start with the journal magic "${SEGMENT_MAGIC}"` };
  }
  const storedCrc = bytes.readUInt32LE(20);
  const actualCrc = crc32(bytes.subarray(0, 20));
  if (storedCrc !== actualCrc) {
    return {
      ok: false,
      problem: `the header checksum does not match (stored ${hex(storedCrc)}, computed ${hex(actualCrc)})`,
    };
  }
  const version = bytes.readUInt32LE(8);
  if (version !== SEGMENT_FORMAT_VERSION) {
    return {
      ok: false,
      problem: `the segment uses format version ${version}; this build reads version ${SEGMENT_FORMAT_VERSION}`,
    };
  }
  const baseSeq = bytes.readBigUInt64LE(12);
  if (baseSeq > BigInt(Number.MAX_SAFE_INTEGER)) {
    return { ok: false, problem: `the base seq ${baseSeq} is out of range` };
  }
  return { ok: true, baseSeq: Number(baseSeq) };
}

export function encodeRecord(seq: number, payload: Buffer): Buffer {
  if (payload.length > MAX_RECORD_PAYLOAD_BYTES) {
    throw new RangeError(
      `A journal record holds at most ${MAX_RECORD_PAYLOAD_BYTES} bytes; this one has ${payload.length}`,
    );
  }
  const frame = Buffer.alloc(RECORD_HEADER_BYTES + payload.length);
  frame.writeUInt32LE(payload.length, 4);
  frame.writeBigUInt64LE(BigInt(seq), 8);
  payload.copy(frame, RECORD_HEADER_BYTES);
  frame.writeUInt32LE(crc32(frame.subarray(4)), 0);
  return frame;
}

/** Reads the record starting at `offset`, or says why the bytes there are not a whole, intact record. */
export function readRecordAt(bytes: Buffer, offset: number): RecordCheck {
  const remaining = bytes.length - offset;
  if (remaining < RECORD_HEADER_BYTES) {
    return {
      ok: false,
      problem: `only ${remaining} bytes remain, less than a ${RECORD_HEADER_BYTES}-byte record header`,
    };
  }
  const length = bytes.readUInt32LE(offset + 4);
  if (length > MAX_RECORD_PAYLOAD_BYTES) {
    return { ok: false, problem: `the length field says ${length} bytes, more than any record may hold` };
  }
  const end = offset + RECORD_HEADER_BYTES + length;
  if (end > bytes.length) {
    return {
      ok: false,
      problem: `the length field says ${length} payload bytes but only ${remaining - RECORD_HEADER_BYTES} follow`,
    };
  }
  const storedCrc = bytes.readUInt32LE(offset);
  const actualCrc = crc32(bytes.subarray(offset + 4, end));
  if (storedCrc !== actualCrc) {
    return {
      ok: false,
      problem: `the checksum does not match (stored ${hex(storedCrc)}, computed ${hex(actualCrc)})`,
    };
  }
  const seq = bytes.readBigUInt64LE(offset + 8);
  if (seq > BigInt(Number.MAX_SAFE_INTEGER)) {
    return { ok: false, problem: `the seq ${seq} is out of range` };
  }
  return { ok: true, seq: Number(seq), payload: bytes.subarray(offset + RECORD_HEADER_BYTES, end), end };
}

function hex(value: number): string {
  return `0x${value.toString(16).padStart(8, '0')}`;
}
