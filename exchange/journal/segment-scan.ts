// Reads one segment file and tells a write cut short by a crash (a damaged record with nothing intact
// after it) from real damage (anything else), which it refuses with a JournalCorruptError.

import { JournalCorruptError } from './errors';
import {
  RECORD_HEADER_BYTES,
  SEGMENT_HEADER_BYTES,
  decodeSegmentHeader,
  readRecordAt,
} from './record-format';

export interface ScannedRecord {
  seq: number;
  offset: number;
  payload: Buffer;
}

export interface DamagedTail {
  offset: number;
  bytes: number;
  problem: string;
}

export interface SegmentScan {
  baseSeq: number;
  records: ScannedRecord[];
  /** Seq of the last intact record, or the base seq when there is none. */
  lastSeq: number;
  /** Length of the file up to the end of the last intact record. */
  intactBytes: number;
  /** Damaged bytes at the end of the file, or null when it ends cleanly. */
  damagedTail: DamagedTail | null;
}

export function scanSegment(path: string, bytes: Buffer, baseSeqFromName: number): SegmentScan {
  const header = decodeSegmentHeader(bytes);
  if (!header.ok) throw new JournalCorruptError(path, 0, `the segment header is damaged: ${header.problem}`);
  if (header.baseSeq !== baseSeqFromName) {
    throw new JournalCorruptError(
      path,
      0,
      `the header says the segment starts after seq ${header.baseSeq} but its name says ${baseSeqFromName}`,
    );
  }

  const records: ScannedRecord[] = [];
  let lastSeq = header.baseSeq;
  let offset = SEGMENT_HEADER_BYTES;
  while (offset < bytes.length) {
    const record = readRecordAt(bytes, offset);
    if (!record.ok) {
      const intact = findIntactRecordAfter(bytes, offset + 1, lastSeq);
      if (intact !== null) {
        throw new JournalCorruptError(
          path,
          offset,
          `the record after seq ${lastSeq} is damaged (${record.problem}), yet an intact record ` +
            `(seq ${intact.seq}) follows at byte ${intact.offset}, so this is not a write cut short by a crash`,
        );
      }
      return {
        baseSeq: header.baseSeq,
        records,
        lastSeq,
        intactBytes: offset,
        damagedTail: { offset, bytes: bytes.length - offset, problem: record.problem },
      };
    }
    if (record.seq !== lastSeq + 1) {
      throw new JournalCorruptError(
        path,
        offset,
        `the record has seq ${record.seq} where seq ${lastSeq + 1} was expected: commands are missing or out of order`,
      );
    }
    records.push({ seq: record.seq, offset, payload: record.payload });
    lastSeq = record.seq;
    offset = record.end;
  }
  return { baseSeq: header.baseSeq, records, lastSeq, intactBytes: offset, damagedTail: null };
}

/** Looks for any intact record past a damaged one; the seq bound keeps the search cheap on garbage. */
function findIntactRecordAfter(
  bytes: Buffer,
  from: number,
  lastIntactSeq: number,
): { seq: number; offset: number } | null {
  const highestPossibleSeq = lastIntactSeq + 1 + Math.ceil((bytes.length - from) / RECORD_HEADER_BYTES);
  for (let offset = from; offset + RECORD_HEADER_BYTES <= bytes.length; offset += 1) {
    const seq = bytes.readUInt32LE(offset + 8) + bytes.readUInt32LE(offset + 12) * 2 ** 32;
    if (seq <= lastIntactSeq || seq > highestPossibleSeq) continue;
    const record = readRecordAt(bytes, offset);
    if (record.ok) return { seq: record.seq, offset };
  }
  return null;
}
