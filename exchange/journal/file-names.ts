// Names of the files a journal directory holds. Seqs are zero-padded so a plain listing sorts them.

const SEQ_DIGITS = 16; // Number.MAX_SAFE_INTEGER has 16 digits
const SEGMENT_PATTERN = /^segment-(\d{16})\.journal$/;
const SNAPSHOT_PATTERN = /^snapshot-(\d{16})\.json$/;

export const LOCK_FILE = 'LOCK';
/** Suffix of files still being written; a crash can leave them behind, and they are never read. */
export const TEMP_SUFFIX = '.tmp';

export function segmentFileName(baseSeq: number): string {
  return `segment-${pad(baseSeq)}.journal`;
}

export function snapshotFileName(seq: number): string {
  return `snapshot-${pad(seq)}.json`;
}

export function tornTailFileName(segmentName: string, offset: number): string {
  return `${segmentName}.torn-${offset}`;
}

export function corruptSnapshotFileName(snapshotName: string): string {
  return `${snapshotName}.corrupt`;
}

export function parseSegmentFileName(name: string): number | null {
  return parseSeq(SEGMENT_PATTERN.exec(name));
}

export function parseSnapshotFileName(name: string): number | null {
  return parseSeq(SNAPSHOT_PATTERN.exec(name));
}

/** True for an unfinished segment or snapshot, which a crash may leave behind. */
export function isUnfinishedJournalFile(name: string): boolean {
  if (!name.endsWith(TEMP_SUFFIX)) return false;
  const finalName = name.slice(0, -TEMP_SUFFIX.length);
  return parseSegmentFileName(finalName) !== null || parseSnapshotFileName(finalName) !== null;
}

function pad(seq: number): string {
  if (!Number.isSafeInteger(seq) || seq < 0) throw new RangeError(`Not a journal seq: ${seq}`);
  return String(seq).padStart(SEQ_DIGITS, '0');
}

function parseSeq(match: RegExpExecArray | null): number | null {
  const digits = match?.[1];
  if (digits === undefined) return null;
  const seq = Number(digits);
  return Number.isSafeInteger(seq) ? seq : null;
}
