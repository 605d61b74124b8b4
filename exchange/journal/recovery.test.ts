import { appendFile, readFile, readdir, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { segmentFileName, snapshotFileName } from './file-names';
import { Journal, JournalCorruptError } from './journal';
import { SEGMENT_HEADER_BYTES, encodeRecord, encodeSegmentHeader, readRecordAt } from './record-format';
import { encodeSnapshot } from './snapshot-format';
import { makeTempDir, removeTempDir } from './test-support/temp-dir';

interface Deposit {
  n: number;
  amount: string;
}

const deposit = (n: number): Deposit => ({ n, amount: `${n}.5` });

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeTempDir(dir);
});

async function writeJournal(count: number): Promise<string> {
  const { journal } = await Journal.open<Deposit>(dir);
  for (let n = 1; n <= count; n += 1) journal.append(deposit(n));
  await journal.close();
  return join(dir, segmentFileName(0));
}

/** Byte offsets of the records of a segment, in order. */
async function recordOffsets(file: string): Promise<number[]> {
  const bytes = await readFile(file);
  const offsets: number[] = [];
  let offset = SEGMENT_HEADER_BYTES;
  while (offset < bytes.length) {
    const record = readRecordAt(bytes, offset);
    if (!record.ok) throw new Error(record.problem);
    offsets.push(offset);
    offset = record.end;
  }
  return offsets;
}

async function flipByte(file: string, offset: number): Promise<void> {
  const bytes = await readFile(file);
  bytes[offset] = (bytes[offset] ?? 0) ^ 0x20;
  await writeFile(file, bytes);
}

/** Writes a segment by hand, for layouts the journal itself never produces. */
async function writeSegment(baseSeq: number, seqs: number[]): Promise<string> {
  const file = join(dir, segmentFileName(baseSeq));
  const records = seqs.map((seq) => encodeRecord(seq, Buffer.from(JSON.stringify(deposit(seq)))));
  await writeFile(file, Buffer.concat([encodeSegmentHeader(baseSeq), ...records]));
  return file;
}

async function openExpectingCorruption(): Promise<JournalCorruptError> {
  const error: unknown = await Journal.open<Deposit>(dir).then(
    async ({ journal }) => {
      await journal.close();
      return null;
    },
    (reason: unknown) => reason,
  );
  if (!(error instanceof JournalCorruptError))
    throw new Error(`expected JournalCorruptError, got ${String(error)}`);
  return error;
}

describe('recovery from a torn tail', () => {
  it('cuts a record truncated by a crash, keeps its bytes aside, and appends cleanly after it', async () => {
    const segment = await writeJournal(20);
    const offsets = await recordOffsets(segment);
    const lastRecordOffset = offsets[19] ?? -1;
    const original = await readFile(segment);
    await truncate(segment, original.length - 5);

    const messages: string[] = [];
    const { journal, recovered } = await Journal.open<Deposit>(dir, {
      log: (message) => messages.push(message),
    });
    const tornTail = recovered.report.tornTail;
    expect(tornTail).toMatchObject({
      file: segment,
      offset: lastRecordOffset,
      bytes: original.length - 5 - lastRecordOffset,
    });
    expect(tornTail?.reason).toContain('length field');
    expect(tornTail?.preservedAs).toBe(`${segment}.torn-${lastRecordOffset}`);
    expect(await readFile(tornTail?.preservedAs ?? '')).toEqual(
      original.subarray(lastRecordOffset, original.length - 5),
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(segment);
    expect(recovered.commands.map((entry) => entry.seq)).toEqual(Array.from({ length: 19 }, (_, i) => i + 1));
    expect((await stat(segment)).size).toBe(lastRecordOffset);

    expect(journal.append(deposit(20))).toBe(20);
    await journal.close();

    const again = await Journal.open<Deposit>(dir);
    expect(again.recovered.report.tornTail).toBeNull();
    expect(again.recovered.commands.map((entry) => entry.seq)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect(again.recovered.commands[19]?.command).toEqual(deposit(20));
    await again.journal.close();
  });

  it('cuts garbage written after the last intact record', async () => {
    const segment = await writeJournal(20);
    const intactSize = (await stat(segment)).size;
    await appendFile(segment, Buffer.from('half-written batch \u0000\u0000\u0000 of records'));

    const { journal, recovered } = await Journal.open<Deposit>(dir);
    expect(recovered.report.tornTail).toMatchObject({ file: segment, offset: intactSize });
    expect(recovered.commands).toHaveLength(20);
    expect((await stat(segment)).size).toBe(intactSize);
    await journal.close();
  });

  it('cuts a final record whose checksum fails', async () => {
    const segment = await writeJournal(5);
    const offsets = await recordOffsets(segment);
    const lastRecordOffset = offsets[4] ?? -1;
    await flipByte(segment, lastRecordOffset + 20);

    const { journal, recovered } = await Journal.open<Deposit>(dir);
    expect(recovered.report.tornTail).toMatchObject({ offset: lastRecordOffset });
    expect(recovered.report.tornTail?.reason).toContain('checksum');
    expect(recovered.commands).toHaveLength(4);
    await journal.close();
  });
});

describe('recovery refuses damage that is not a torn tail', () => {
  it('rejects a flipped byte in the middle of a segment, naming the file and the offset', async () => {
    const segment = await writeJournal(20);
    const offsets = await recordOffsets(segment);
    const damagedOffset = offsets[9] ?? -1;
    await flipByte(segment, damagedOffset + 20);
    const sizeBefore = (await stat(segment)).size;

    const error = await openExpectingCorruption();
    expect(error.file).toBe(segment);
    expect(error.offset).toBe(damagedOffset);
    expect(error.message).toContain(`${segment} at byte ${damagedOffset}`);
    expect(error.message).toContain('checksum does not match');
    expect(error.message).toContain('an intact record (seq 11)');
    expect(error.message).toContain('Restore the file from a backup');
    expect((await stat(segment)).size).toBe(sizeBefore);
    expect(await readdir(dir)).not.toContain('LOCK');
  });

  it('rejects a damaged length field in the middle rather than mistaking it for a torn tail', async () => {
    const segment = await writeJournal(20);
    const offsets = await recordOffsets(segment);
    const damagedOffset = offsets[3] ?? -1;
    await flipByte(segment, damagedOffset + 7); // the length's most significant byte: a huge length

    const error = await openExpectingCorruption();
    expect(error.offset).toBe(damagedOffset);
    expect(error.message).toContain('more than any record may hold');
  });

  it('rejects a gap in the seqs inside a segment', async () => {
    const segment = await writeSegment(0, [1, 2, 4, 5]);
    const offsets = await recordOffsets(segment);

    const error = await openExpectingCorruption();
    expect(error.file).toBe(segment);
    expect(error.offset).toBe(offsets[2]);
    expect(error.message).toContain('seq 4 where seq 3 was expected');
  });

  it('rejects a missing segment between two others', async () => {
    await writeSegment(0, [1, 2, 3]);
    await writeSegment(3, [4, 5]);
    const later = await writeSegment(7, [8, 9]);

    const error = await openExpectingCorruption();
    expect(error.file).toBe(later);
    expect(error.message).toContain('ends at seq 5');
    expect(error.message).toContain('the records in between are missing');
  });

  it('rejects a journal whose oldest segment starts after the state it must replay from', async () => {
    const segment = await writeSegment(4, [5, 6]);

    const error = await openExpectingCorruption();
    expect(error.file).toBe(segment);
    expect(error.message).toContain('the segments holding seq 1 to 4 are missing');
  });

  it('rejects a damaged record at the end of a segment that newer segments follow', async () => {
    const older = await writeSegment(0, [1, 2, 3]);
    await appendFile(older, Buffer.from('torn'));
    await writeSegment(3, [4, 5]);

    const error = await openExpectingCorruption();
    expect(error.file).toBe(older);
    expect(error.message).toContain('newer segments follow it');
  });

  it('rejects a segment whose header is damaged', async () => {
    const segment = await writeJournal(3);
    await flipByte(segment, 2);

    const error = await openExpectingCorruption();
    expect(error.file).toBe(segment);
    expect(error.offset).toBe(0);
    expect(error.message).toContain('journal magic');
  });
});

describe('recovery with damaged snapshots', () => {
  async function journalWithSnapshots(snapshotSeqs: number[], lastSeq: number): Promise<void> {
    const { journal } = await Journal.open<Deposit>(dir);
    for (let n = 1; n <= lastSeq; n += 1) {
      journal.append(deposit(n));
      if (snapshotSeqs.includes(n)) await journal.writeSnapshot(n, { total: n });
    }
    await journal.close();
  }

  it('falls back to the previous snapshot and the journal after it, and reports it', async () => {
    await journalWithSnapshots([10, 20], 25);
    const newest = join(dir, snapshotFileName(20));
    const size = (await stat(newest)).size;
    await flipByte(newest, size - 3);

    const messages: string[] = [];
    const { journal, recovered } = await Journal.open<Deposit, { total: number }>(dir, {
      log: (message) => messages.push(message),
    });
    expect(recovered.snapshot).toEqual({ seq: 10, state: { total: 10 } });
    expect(recovered.commands.map((entry) => entry.seq)).toEqual(
      Array.from({ length: 15 }, (_, i) => i + 11),
    );
    expect(recovered.report.skippedSnapshots).toEqual([
      {
        file: newest,
        reason: expect.stringContaining('sha256 does not match'),
        preservedAs: `${newest}.corrupt`,
      },
    ]);
    expect(messages.join('\n')).toContain(newest);
    expect(await readdir(dir)).toContain(`${snapshotFileName(20)}.corrupt`);
    await journal.close();

    const again = await Journal.open<Deposit>(dir);
    expect(again.recovered.report.skippedSnapshots).toEqual([]);
    expect(again.recovered.snapshot?.seq).toBe(10);
    await again.journal.close();
  });

  it('falls back to the empty state when the only snapshot is damaged and the journal starts at seq 1', async () => {
    await journalWithSnapshots([10], 15);
    await flipByte(join(dir, snapshotFileName(10)), 30);

    const { journal, recovered } = await Journal.open<Deposit>(dir);
    expect(recovered.snapshot).toBeNull();
    expect(recovered.commands.map((entry) => entry.seq)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    expect(recovered.report.skippedSnapshots).toHaveLength(1);
    await journal.close();
  });

  it('rejects a damaged snapshot when no older snapshot or complete journal can replace it', async () => {
    await journalWithSnapshots([10, 20, 30], 35);
    const newest = join(dir, snapshotFileName(30));
    await flipByte(newest, (await stat(newest)).size - 3);
    await flipByte(join(dir, snapshotFileName(20)), 40);

    const error = await openExpectingCorruption();
    expect(error.file).toBe(newest);
    expect(error.message).toContain('no older intact snapshot exists');
    expect(error.message).toContain('the journal starts after seq 20');
    expect(await readdir(dir)).toContain(snapshotFileName(30));
  });

  it('rejects a snapshot newer than the end of the journal, since its records were lost', async () => {
    const segment = await writeSegment(0, [1, 2, 3]);
    await writeFile(join(dir, snapshotFileName(5)), encodeSnapshot(5, { total: 5 }));

    const error = await openExpectingCorruption();
    expect(error.file).toBe(segment);
    expect(error.message).toContain('the journal ends at seq 3');
  });

  it('ignores unfinished files left by a crash while writing a snapshot or a segment', async () => {
    await journalWithSnapshots([], 3);
    await writeFile(join(dir, `${snapshotFileName(3)}.tmp`), 'half a snap');
    await writeFile(join(dir, `${segmentFileName(3)}.tmp`), 'PXJ');

    const { journal, recovered } = await Journal.open<Deposit>(dir);
    expect(recovered.snapshot).toBeNull();
    expect(recovered.commands).toHaveLength(3);
    expect(await readdir(dir)).not.toContain(`${snapshotFileName(3)}.tmp`);
    await journal.close();
  });
});
