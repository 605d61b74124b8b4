/*
 * Durable command journal of the paper exchange.
 *
 * Files, all in the one directory given to Journal.open:
 *
 *   LOCK                                   pid of the single process writing here (lock-file.ts)
 *   segment-0000000000000000.journal       commands 1..N; the name is the seq before its first record
 *   segment-000000000000000N.journal       commands N+1..; a new segment starts at each snapshot
 *   snapshot-000000000000000N.json         the whole state as of seq N (snapshot-format.ts)
 *   *.tmp                                  a file still being written; only a crash leaves one, and
 *                                          it is deleted at open without being read
 *   segment-….journal.torn-<offset>        damaged tail bytes cut off a segment at recovery
 *   snapshot-….json.corrupt                a damaged snapshot set aside at recovery
 *
 * Segment header and record framing (length, crc32, seq, JSON payload) are in record-format.ts.
 *
 * Write path: append() frames the command and queues it; one flush loop writes everything queued with
 * one write and one fdatasync, resolves the durable() waiters that covers, and loops while more arrived
 * meanwhile (group commit). writeSnapshot() queues a segment rotation at the current seq in the same
 * queue, so earlier records stay in the old segment and later ones go to the new one; the snapshot is
 * written to a temp file, fsync'ed, and published by rename only once the journal is durable up to its
 * seq, so a snapshot is never ahead of the journal. Afterwards only the newest two snapshots are kept,
 * with the segments needed to replay from the older one (the empty state counts as the snapshot before
 * the first).
 *
 * Recovery (recovery.ts): the newest intact snapshot plus every record after it. A damaged record with
 * nothing intact after it at the end of the newest segment is what a crash mid-write leaves: it is cut
 * off, its bytes kept aside, and reported. Any other damage refuses to open with a JournalCorruptError.
 */

import { mkdir, open, rename, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { createFileAtomically, fsyncDirectory, writeFully, writeSyncedFile } from './durable-files';
import { JournalClosedError } from './errors';
import { TEMP_SUFFIX, segmentFileName, snapshotFileName } from './file-names';
import { acquireJournalLock } from './lock-file';
import type { JournalLock } from './lock-file';
import { encodeRecord, encodeSegmentHeader } from './record-format';
import { recoverJournal } from './recovery';
import type { RecoveredState } from './recovery';
import { encodeSnapshot } from './snapshot-format';
import { errorCode } from './system-error';

export { JournalClosedError, JournalCorruptError, JournalLockedError } from './errors';
export type { RecoveredState, RecoveryReport, SkippedSnapshot, TornTail } from './recovery';

export interface JournalOptions {
  /** Receives one line per notable recovery event (torn tail cut, damaged snapshot skipped, stale lock). */
  log?: (message: string) => void;
}

export interface JournalStats {
  /** Records written and fsync'ed since open. */
  records: number;
  /** Group-commit batches: each is one write followed by one fdatasync. */
  batches: number;
  /** Every fsync and fdatasync issued since open, including those of snapshots and new segments. */
  fsyncs: number;
  /** Record bytes written since open. */
  bytes: number;
}

type QueuedItem = { kind: 'record'; seq: number; frame: Buffer } | { kind: 'rotation'; baseSeq: number };

interface Waiter {
  seq: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class Journal<C> {
  private queue: QueuedItem[] = [];
  private flushRunning: Promise<void> | null = null;
  private waiters: Waiter[] = [];
  private rotationWaiters = new Map<number, Waiter>();
  private appendedSeq: number;
  private durableSeq: number;
  /** Base seq of the segment that the next appended record will land in. */
  private queueTailSegmentBase: number;
  private newestSnapshotSeq: number;
  private snapshotChain: Promise<void> = Promise.resolve();
  private latestSnapshot: { seq: number; task: Promise<void> } | null = null;
  private failure: unknown = null;
  private closing: Promise<void> | null = null;
  private readonly counters: JournalStats = { records: 0, batches: 0, fsyncs: 0, bytes: 0 };

  private constructor(
    private readonly dir: string,
    private readonly lock: JournalLock,
    private segment: FileHandle,
    private readonly segmentBases: number[],
    private readonly snapshotSeqs: number[],
    lastSeq: number,
    private readonly log: (message: string) => void,
  ) {
    this.appendedSeq = lastSeq;
    this.durableSeq = lastSeq;
    this.queueTailSegmentBase = segmentBases[segmentBases.length - 1] ?? 0;
    this.newestSnapshotSeq = snapshotSeqs[snapshotSeqs.length - 1] ?? -1;
  }

  /** Opens (creating if needed) the journal in `dir`, taking its lock, and returns what it holds. */
  static async open<C, S = unknown>(
    dir: string,
    options: JournalOptions = {},
  ): Promise<{ journal: Journal<C>; recovered: RecoveredState<C, S> }> {
    const log = options.log ?? (() => {});
    await mkdir(dir, { recursive: true });
    const lock = await acquireJournalLock(dir, log);
    try {
      const found = await recoverJournal<C, S>(dir, log);
      const segmentBases = [...found.segmentBases];
      if (segmentBases.length === 0) {
        await createFileAtomically(dir, segmentFileName(0), encodeSegmentHeader(0));
        segmentBases.push(0);
      }
      const currentBase = segmentBases[segmentBases.length - 1] ?? 0;
      const segment = await open(join(dir, segmentFileName(currentBase)), 'a');
      const journal = new Journal<C>(
        dir,
        lock,
        segment,
        segmentBases,
        [...found.snapshotSeqs],
        found.lastSeq,
        log,
      );
      return { journal, recovered: found.recovered };
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  get lastSeq(): number {
    return this.appendedSeq;
  }

  get stats(): JournalStats {
    return { ...this.counters };
  }

  /**
   * Queues a command and returns its seq; it is written by the flush loop, never here. Throws when the
   * journal is closed or has failed (nothing appended then can become durable), or when the command is
   * not JSON-serialisable.
   */
  append(command: C): number {
    this.assertWritable();
    const text = JSON.stringify(command);
    if (text === undefined) throw new TypeError('A journal command must be JSON-serialisable');
    const seq = this.appendedSeq + 1;
    const frame = encodeRecord(seq, Buffer.from(text, 'utf8'));
    this.appendedSeq = seq;
    this.queue.push({ kind: 'record', seq, frame });
    this.startFlush();
    return seq;
  }

  /** Resolves once every record up to `seq` (default: all appended so far) is written and fsync'ed. */
  durable(seq: number = this.appendedSeq): Promise<void> {
    if (this.failure !== null) return Promise.reject(this.failure);
    if (seq <= this.durableSeq) return Promise.resolve();
    if (seq > this.appendedSeq) {
      return Promise.reject(new RangeError(`Seq ${seq} has not been appended (last is ${this.appendedSeq})`));
    }
    return new Promise((resolve, reject) => this.waiters.push({ seq, resolve, reject }));
  }

  /**
   * Writes a snapshot of `state` as of `seq` (normally `lastSeq`: the state right after the last append).
   * `state` is serialised before this returns. A new segment starts after the current `lastSeq`, so
   * appends may continue at once and land there; the snapshot is published once the journal is durable
   * up to `seq`, then files it made obsolete are deleted. A failed snapshot leaves the journal usable and
   * may be retried.
   */
  writeSnapshot(seq: number, state: unknown): Promise<void> {
    try {
      this.assertWritable();
      if (!Number.isSafeInteger(seq) || seq < 0 || seq > this.appendedSeq) {
        throw new RangeError(`Cannot snapshot at seq ${seq}: the journal runs to seq ${this.appendedSeq}`);
      }
      if (seq < this.newestSnapshotSeq) {
        throw new RangeError(
          `Cannot snapshot at seq ${seq}: a snapshot at seq ${this.newestSnapshotSeq} exists`,
        );
      }
    } catch (error) {
      return Promise.reject(error);
    }
    if (seq === this.newestSnapshotSeq) {
      return this.latestSnapshot?.seq === seq ? this.latestSnapshot.task : Promise.resolve();
    }
    let bytes: Buffer;
    try {
      bytes = encodeSnapshot(seq, state);
    } catch (error) {
      return Promise.reject(error);
    }
    this.newestSnapshotSeq = seq;
    const rotation = this.queueRotation();
    // A failed rotation is reported through durable() and the snapshot task; never as an unhandled rejection.
    rotation.catch(() => {});
    const task = this.snapshotChain.then(() => this.persistSnapshot(seq, bytes, rotation));
    this.latestSnapshot = { seq, task };
    this.snapshotChain = task.catch(() => {
      // Let the caller retry at the same seq; the journal itself is unharmed by a failed snapshot.
      if (this.newestSnapshotSeq === seq)
        this.newestSnapshotSeq = this.snapshotSeqs[this.snapshotSeqs.length - 1] ?? -1;
    });
    return task;
  }

  /** Flushes and fsyncs what was appended, waits for a snapshot in progress, closes and releases the lock. */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    try {
      while (this.flushRunning !== null) await this.flushRunning;
      await this.snapshotChain;
      await this.segment.close();
    } finally {
      await this.lock.release();
    }
    if (this.failure !== null) throw this.failure;
  }

  private assertWritable(): void {
    if (this.failure !== null) throw this.failure;
    if (this.closing !== null) throw new JournalClosedError();
  }

  private startFlush(): void {
    if (this.flushRunning === null) this.flushRunning = this.flushLoop();
  }

  private async flushLoop(): Promise<void> {
    // Let the rest of the current tick append first, so its records share this batch.
    await Promise.resolve();
    try {
      while (this.queue.length > 0 && this.failure === null) {
        const items = this.queue;
        this.queue = [];
        await this.writeItems(items);
      }
    } catch (error) {
      this.fail(error);
    } finally {
      // Runs in the same turn as the loop's last check, so an append can never find a loop that is
      // about to end without picking up its record.
      this.flushRunning = null;
    }
  }

  private async writeItems(items: QueuedItem[]): Promise<void> {
    let frames: Buffer[] = [];
    let lastSeq = this.durableSeq;
    for (const item of items) {
      if (item.kind === 'record') {
        frames.push(item.frame);
        lastSeq = item.seq;
        continue;
      }
      await this.writeBatch(frames, lastSeq);
      frames = [];
      await this.rotate(item.baseSeq);
    }
    await this.writeBatch(frames, lastSeq);
  }

  private async writeBatch(frames: Buffer[], lastSeq: number): Promise<void> {
    if (frames.length === 0) return;
    const data = frames.length === 1 && frames[0] !== undefined ? frames[0] : Buffer.concat(frames);
    await writeFully(this.segment, data);
    await this.segment.datasync();
    this.counters.records += frames.length;
    this.counters.batches += 1;
    this.counters.fsyncs += 1;
    this.counters.bytes += data.length;
    this.durableSeq = lastSeq;
    const covered = this.waiters.filter((waiter) => waiter.seq <= lastSeq);
    this.waiters = this.waiters.filter((waiter) => waiter.seq > lastSeq);
    for (const waiter of covered) waiter.resolve();
  }

  private queueRotation(): Promise<void> {
    const baseSeq = this.appendedSeq;
    if (baseSeq === this.queueTailSegmentBase) return Promise.resolve(); // that segment is still empty
    this.queueTailSegmentBase = baseSeq;
    this.queue.push({ kind: 'rotation', baseSeq });
    this.startFlush();
    return new Promise((resolve, reject) =>
      this.rotationWaiters.set(baseSeq, { seq: baseSeq, resolve, reject }),
    );
  }

  private async rotate(baseSeq: number): Promise<void> {
    const name = segmentFileName(baseSeq);
    await createFileAtomically(this.dir, name, encodeSegmentHeader(baseSeq));
    this.counters.fsyncs += 2;
    const next = await open(join(this.dir, name), 'a');
    const previous = this.segment;
    this.segment = next;
    this.segmentBases.push(baseSeq);
    await previous.close();
    this.rotationWaiters.get(baseSeq)?.resolve();
    this.rotationWaiters.delete(baseSeq);
  }

  private async persistSnapshot(seq: number, bytes: Buffer, rotation: Promise<void>): Promise<void> {
    const name = snapshotFileName(seq);
    const temporary = join(this.dir, name + TEMP_SUFFIX);
    try {
      await writeSyncedFile(temporary, bytes);
      this.counters.fsyncs += 1;
      await this.durable(seq);
      await rename(temporary, join(this.dir, name));
      await fsyncDirectory(this.dir);
      this.counters.fsyncs += 1;
    } catch (error) {
      await unlink(temporary).catch(() => {});
      throw error;
    }
    this.snapshotSeqs.push(seq);
    await rotation;
    await this.removeObsoleteFiles();
  }

  /** Keeps the newest two snapshots and the segments that replay from the older of them. */
  private async removeObsoleteFiles(): Promise<void> {
    const keepFromSeq =
      this.snapshotSeqs.length >= 2 ? (this.snapshotSeqs[this.snapshotSeqs.length - 2] ?? 0) : 0;
    const obsoleteSnapshots = this.snapshotSeqs.filter((seq) => seq < keepFromSeq);
    // A segment is obsolete when the next one starts at or before keepFromSeq: all its records are older.
    const obsoleteSegments = this.segmentBases.filter((_, index) => {
      const nextBase = this.segmentBases[index + 1];
      return nextBase !== undefined && nextBase <= keepFromSeq;
    });
    if (obsoleteSnapshots.length === 0 && obsoleteSegments.length === 0) return;
    for (const seq of obsoleteSnapshots) await removeFile(join(this.dir, snapshotFileName(seq)));
    for (const baseSeq of obsoleteSegments) await removeFile(join(this.dir, segmentFileName(baseSeq)));
    removeAll(this.snapshotSeqs, obsoleteSnapshots);
    removeAll(this.segmentBases, obsoleteSegments);
    await fsyncDirectory(this.dir);
    this.counters.fsyncs += 1;
  }

  /** A failed write or fsync leaves the file in an unknown state: nothing may be acknowledged after it. */
  private fail(error: unknown): void {
    if (this.failure !== null) return;
    this.failure = error;
    this.log(`Journal write failed; no further command can be made durable: ${String(error)}`);
    this.queue = [];
    for (const waiter of [...this.waiters, ...this.rotationWaiters.values()]) waiter.reject(error);
    this.waiters = [];
    this.rotationWaiters.clear();
  }
}

async function removeFile(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}

function removeAll(list: number[], removed: number[]): void {
  for (const value of removed) {
    const index = list.indexOf(value);
    if (index >= 0) list.splice(index, 1);
  }
}
