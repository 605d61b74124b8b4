// Rebuilds what a journal directory holds: the newest intact snapshot and every command after it.
// Everything is checked before anything is changed, so a refused recovery leaves the files as found.

import { open, readFile, readdir, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { createFileAtomically, fsyncDirectory } from './durable-files';
import { JournalCorruptError } from './errors';
import {
  corruptSnapshotFileName,
  isUnfinishedJournalFile,
  parseSegmentFileName,
  parseSnapshotFileName,
  segmentFileName,
  snapshotFileName,
  tornTailFileName,
} from './file-names';
import { scanSegment } from './segment-scan';
import type { SegmentScan } from './segment-scan';
import { decodeSnapshot } from './snapshot-format';

export interface TornTail {
  /** The segment that ended in a damaged record. */
  file: string;
  offset: number;
  bytes: number;
  reason: string;
  /** Where the damaged bytes were kept for inspection before the segment was truncated. */
  preservedAs: string;
}

export interface SkippedSnapshot {
  file: string;
  reason: string;
  /** The damaged snapshot was renamed to this, so it is never read again but stays for inspection. */
  preservedAs: string;
}

export interface RecoveryReport {
  /** Segment files read, oldest first. */
  segments: string[];
  /** Intact records found in them, including those the snapshot already covers. */
  records: number;
  /** The snapshot the state starts from, or null when replay starts from the empty state. */
  snapshot: string | null;
  /** Damaged snapshots passed over for an older one (or for the start of the journal). */
  skippedSnapshots: SkippedSnapshot[];
  tornTail: TornTail | null;
}

export interface RecoveredState<C, S> {
  snapshot: { seq: number; state: S } | null;
  /** Journaled commands after the snapshot, in seq order, seqs contiguous. */
  commands: Array<{ seq: number; command: C }>;
  report: RecoveryReport;
}

export interface RecoveredJournal<C, S> {
  recovered: RecoveredState<C, S>;
  /** Seq of the last command in the journal (0 for an empty one). */
  lastSeq: number;
  /** Base seqs of the segments on disk, ascending; empty when the directory holds none yet. */
  segmentBases: number[];
  /** Seqs of the snapshots on disk that were not found damaged, ascending. */
  snapshotSeqs: number[];
}

export async function recoverJournal<C, S>(
  dir: string,
  log: (message: string) => void,
): Promise<RecoveredJournal<C, S>> {
  const names = await readdir(dir);
  for (const name of names.filter(isUnfinishedJournalFile))
    await rm(join(dir, name), { recursive: true, force: true });

  const segmentBases = collectSeqs(names, parseSegmentFileName);
  const snapshotSeqs = collectSeqs(names, parseSnapshotFileName);
  const snapshotChoice = await chooseSnapshot(dir, snapshotSeqs);
  const { chosen, damaged } = snapshotChoice;
  const journalStart = segmentBases[0];
  const replayAfter = chosen?.seq ?? 0;

  const newestDamaged = damaged[0];
  // The empty state is the oldest snapshot of all: a journal starting at seq 1 rebuilds the state alone.
  if (chosen === null && newestDamaged !== undefined && journalStart !== 0) {
    throw new JournalCorruptError(
      newestDamaged.file,
      null,
      `the snapshot is damaged (${newestDamaged.reason}) and no older intact snapshot exists; ` +
        (journalStart === undefined
          ? 'there is no journal segment either'
          : `the journal starts after seq ${journalStart}, so it cannot rebuild the state on its own`),
      'Restore the snapshot from a backup, or move the journal directory aside to start a fresh paper exchange; ' +
        'the files are left untouched for inspection.',
    );
  }
  if (journalStart === undefined) {
    if (chosen !== null) {
      throw new JournalCorruptError(
        dir,
        null,
        `snapshot ${chosen.file} exists but no journal segment does, so commands after seq ${chosen.seq} may be lost`,
      );
    }
    return {
      recovered: { snapshot: null, commands: [], report: emptyReport() },
      lastSeq: 0,
      segmentBases: [],
      snapshotSeqs: [],
    };
  }
  if (journalStart > replayAfter) {
    throw new JournalCorruptError(
      join(dir, segmentFileName(journalStart)),
      null,
      `the oldest segment starts after seq ${journalStart} but replay must start after seq ${replayAfter} ` +
        `(${chosen === null ? 'there is no snapshot' : `snapshot ${chosen.file}`}): ` +
        `the segments holding seq ${replayAfter + 1} to ${journalStart} are missing`,
    );
  }

  const segmentFiles: string[] = [];
  const commands: Array<{ seq: number; command: C }> = [];
  let records = 0;
  let previous: { file: string; scan: SegmentScan } | null = null;
  for (const [index, baseSeq] of segmentBases.entries()) {
    const file = join(dir, segmentFileName(baseSeq));
    if (previous !== null && baseSeq !== previous.scan.lastSeq) {
      throw new JournalCorruptError(
        file,
        null,
        baseSeq > previous.scan.lastSeq
          ? `the segment starts after seq ${baseSeq} but the previous segment ${previous.file} ends at seq ` +
              `${previous.scan.lastSeq}: the records in between are missing`
          : `the segment starts after seq ${baseSeq} but the previous segment ${previous.file} already runs to seq ` +
              `${previous.scan.lastSeq}: the segments overlap`,
      );
    }
    const scan = scanSegment(file, await readFile(file), baseSeq);
    if (scan.damagedTail !== null && index !== segmentBases.length - 1) {
      throw new JournalCorruptError(
        file,
        scan.damagedTail.offset,
        `the segment ends in a damaged record (${scan.damagedTail.problem}) but newer segments follow it, ` +
          `so records after seq ${scan.lastSeq} are missing`,
      );
    }
    for (const record of scan.records) {
      if (record.seq <= replayAfter) continue;
      commands.push({ seq: record.seq, command: parseCommand(file, record.offset, record.payload) as C });
    }
    records += scan.records.length;
    segmentFiles.push(file);
    previous = { file, scan };
  }
  if (previous === null) throw new Error('unreachable: at least one segment was read');

  const lastSeq = previous.scan.lastSeq;
  if (chosen !== null && lastSeq < chosen.seq) {
    throw new JournalCorruptError(
      previous.file,
      null,
      `the journal ends at seq ${lastSeq} but snapshot ${chosen.file} is at seq ${chosen.seq}; ` +
        `a snapshot is only written once its records are durable, so records are missing`,
    );
  }

  const tornTail = await cutTornTail(dir, previous.file, previous.scan, log);
  const skippedSnapshots = await setAsideDamagedSnapshots(dir, damaged, chosen?.file ?? null, log);
  const damagedSeqs = new Set(damaged.map((snapshot) => snapshot.seq));
  return {
    recovered: {
      snapshot: chosen === null ? null : { seq: chosen.seq, state: chosen.state as S },
      commands,
      report: { segments: segmentFiles, records, snapshot: chosen?.file ?? null, skippedSnapshots, tornTail },
    },
    lastSeq,
    segmentBases,
    snapshotSeqs: snapshotSeqs.filter((seq) => !damagedSeqs.has(seq)),
  };
}

interface IntactSnapshot {
  file: string;
  seq: number;
  state: unknown;
}

interface DamagedSnapshot {
  file: string;
  seq: number;
  reason: string;
}

/** Picks the newest intact snapshot; damaged ones newer than it are returned newest first. */
async function chooseSnapshot(
  dir: string,
  ascendingSeqs: number[],
): Promise<{ chosen: IntactSnapshot | null; damaged: DamagedSnapshot[] }> {
  const damaged: DamagedSnapshot[] = [];
  for (const seq of [...ascendingSeqs].reverse()) {
    const file = join(dir, snapshotFileName(seq));
    const check = decodeSnapshot(await readFile(file), seq);
    if (check.ok) return { chosen: { file, seq, state: check.state }, damaged };
    damaged.push({ file, seq, reason: check.problem });
  }
  return { chosen: null, damaged };
}

async function cutTornTail(
  dir: string,
  file: string,
  scan: SegmentScan,
  log: (message: string) => void,
): Promise<TornTail | null> {
  const tail = scan.damagedTail;
  if (tail === null) return null;
  const preservedName = tornTailFileName(basename(file), tail.offset);
  const bytes = await readFile(file);
  await createFileAtomically(dir, preservedName, bytes.subarray(tail.offset));
  const handle = await open(file, 'r+');
  try {
    await handle.truncate(scan.intactBytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fsyncDirectory(dir);
  const preservedAs = join(dir, preservedName);
  log(
    `Journal segment ${file} ended in ${tail.bytes} damaged bytes at byte ${tail.offset} (${tail.problem}), ` +
      `as a write cut short by a crash leaves it; kept them in ${preservedAs} and truncated the segment ` +
      `after its last intact record, seq ${scan.lastSeq}.`,
  );
  return { file, offset: tail.offset, bytes: tail.bytes, reason: tail.problem, preservedAs };
}

async function setAsideDamagedSnapshots(
  dir: string,
  damaged: DamagedSnapshot[],
  replacement: string | null,
  log: (message: string) => void,
): Promise<SkippedSnapshot[]> {
  const skipped: SkippedSnapshot[] = [];
  for (const snapshot of damaged) {
    const preservedAs = join(dir, corruptSnapshotFileName(snapshotFileName(snapshot.seq)));
    await rename(snapshot.file, preservedAs);
    log(
      `Snapshot ${snapshot.file} is damaged (${snapshot.reason}); moved it to ${preservedAs} and recovered ` +
        `from ${replacement ?? 'the start of the journal'} instead.`,
    );
    skipped.push({ file: snapshot.file, reason: snapshot.reason, preservedAs });
  }
  if (skipped.length > 0) await fsyncDirectory(dir);
  return skipped;
}

function parseCommand(file: string, offset: number, payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    throw new JournalCorruptError(
      file,
      offset,
      'the record checksum matches but its payload is not valid JSON',
    );
  }
}

function collectSeqs(names: string[], parse: (name: string) => number | null): number[] {
  return names
    .map(parse)
    .filter((seq): seq is number => seq !== null)
    .sort((a, b) => a - b);
}

function emptyReport(): RecoveryReport {
  return { segments: [], records: 0, snapshot: null, skippedSnapshots: [], tornTail: null };
}
