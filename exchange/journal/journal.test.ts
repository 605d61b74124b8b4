import { spawnSync } from 'node:child_process';
import { mkdir, readdir, rmdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { segmentFileName, snapshotFileName } from './file-names';
import { Journal, JournalClosedError, JournalLockedError } from './journal';
import { SEGMENT_HEADER_BYTES } from './record-format';
import { makeTempDir, removeTempDir } from './test-support/temp-dir';

interface PlaceOrder {
  type: 'place';
  symbol: string;
  price: string;
  size: string;
}

const order = (n: number): PlaceOrder => ({
  type: 'place',
  symbol: 'BTCUSDT',
  price: `95000.${n}`,
  size: '0.001',
});

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeTempDir(dir);
});

describe('Journal append, durable and reopen', () => {
  it('returns the same commands in order after close and reopen, and continues the seqs', async () => {
    const { journal, recovered } = await Journal.open<PlaceOrder>(dir);
    expect(recovered.snapshot).toBeNull();
    expect(recovered.commands).toEqual([]);
    expect(journal.append(order(1))).toBe(1);
    expect(journal.append(order(2))).toBe(2);
    expect(journal.append(order(3))).toBe(3);
    await journal.durable();
    await journal.close();

    const reopened = await Journal.open<PlaceOrder>(dir);
    expect(reopened.recovered.commands).toEqual([
      { seq: 1, command: order(1) },
      { seq: 2, command: order(2) },
      { seq: 3, command: order(3) },
    ]);
    expect(reopened.recovered.report.tornTail).toBeNull();
    expect(reopened.recovered.report.records).toBe(3);
    expect(reopened.journal.lastSeq).toBe(3);
    expect(reopened.journal.append(order(4))).toBe(4);
    await reopened.journal.close();

    const third = await Journal.open<PlaceOrder>(dir);
    expect(third.recovered.commands.map((entry) => entry.seq)).toEqual([1, 2, 3, 4]);
    await third.journal.close();
  });

  it('creates the directory when it does not exist', async () => {
    const nested = join(dir, 'data', 'journal');
    const { journal } = await Journal.open<PlaceOrder>(nested);
    journal.append(order(1));
    await journal.close();
    expect(await readdir(nested)).toContain(segmentFileName(0));
  });

  it('keeps a command as it was when appended, even if the caller changes the object afterwards', async () => {
    const { journal } = await Journal.open<PlaceOrder>(dir);
    const command = order(1);
    journal.append(command);
    command.price = '1';
    await journal.close();
    const { journal: reopened, recovered } = await Journal.open<PlaceOrder>(dir);
    expect(recovered.commands[0]?.command.price).toBe('95000.1');
    await reopened.close();
  });

  it('refuses a command that is not JSON-serialisable without using up a seq', async () => {
    const { journal } = await Journal.open<unknown>(dir);
    expect(() => journal.append({ amount: 1n })).toThrow(TypeError);
    expect(() => journal.append(undefined)).toThrow(TypeError);
    expect(journal.append({ amount: '1' })).toBe(1);
    await journal.close();
  });

  it('durable() resolves at once for durable seqs and rejects a seq never appended', async () => {
    const { journal } = await Journal.open<PlaceOrder>(dir);
    await expect(journal.durable()).resolves.toBeUndefined();
    const seq = journal.append(order(1));
    await journal.durable(seq);
    await expect(journal.durable(seq)).resolves.toBeUndefined();
    await expect(journal.durable(seq + 1)).rejects.toThrow(RangeError);
    await journal.close();
  });

  it('close() flushes what was appended without waiting for durable(); later appends are refused', async () => {
    const { journal } = await Journal.open<PlaceOrder>(dir);
    for (let n = 1; n <= 50; n += 1) journal.append(order(n));
    await journal.close();
    expect(() => journal.append(order(51))).toThrow(JournalClosedError);
    await expect(journal.writeSnapshot(50, {})).rejects.toThrow(JournalClosedError);

    const { journal: reopened, recovered } = await Journal.open<PlaceOrder>(dir);
    expect(recovered.commands).toHaveLength(50);
    await reopened.close();
  });
});

describe('Journal group commit', () => {
  it('writes 1,000 appends issued in one go with far fewer fsyncs than records', async () => {
    const { journal } = await Journal.open<PlaceOrder>(dir);
    for (let n = 1; n <= 1000; n += 1) journal.append(order(n));
    await journal.durable();
    const stats = journal.stats;
    expect(stats.records).toBe(1000);
    expect(stats.batches).toBeLessThanOrEqual(2);
    expect(stats.fsyncs).toBeLessThanOrEqual(2);
    const segment = await stat(join(dir, segmentFileName(0)));
    expect(stats.bytes).toBe(segment.size - SEGMENT_HEADER_BYTES);
    await journal.close();
  });

  it('lets concurrent writers that each await their own record share fsyncs', async () => {
    const { journal } = await Journal.open<PlaceOrder>(dir);
    const writer = async () => {
      for (let i = 0; i < 100; i += 1) await journal.durable(journal.append(order(i)));
    };
    await Promise.all(Array.from({ length: 10 }, writer));
    const stats = journal.stats;
    expect(stats.records).toBe(1000);
    expect(stats.batches).toBeLessThan(stats.records / 4);
    await journal.close();

    const { journal: reopened, recovered } = await Journal.open<PlaceOrder>(dir);
    expect(recovered.commands.map((entry) => entry.seq)).toEqual(
      Array.from({ length: 1000 }, (_, i) => i + 1),
    );
    await reopened.close();
  });
});

describe('Journal snapshots', () => {
  it('replays the snapshot plus the records after it', async () => {
    const { journal } = await Journal.open<PlaceOrder>(dir);
    for (let n = 1; n <= 5; n += 1) journal.append(order(n));
    await journal.writeSnapshot(5, { orders: 5 });
    journal.append(order(6));
    journal.append(order(7));
    await journal.close();

    const { journal: reopened, recovered } = await Journal.open<PlaceOrder, { orders: number }>(dir);
    expect(recovered.snapshot).toEqual({ seq: 5, state: { orders: 5 } });
    expect(recovered.commands).toEqual([
      { seq: 6, command: order(6) },
      { seq: 7, command: order(7) },
    ]);
    expect(recovered.report.snapshot).toBe(join(dir, snapshotFileName(5)));
    expect(reopened.lastSeq).toBe(7);
    await reopened.close();
  });

  it('takes the state as it was at the call, and sends appends made meanwhile to the new segment', async () => {
    const { journal } = await Journal.open<PlaceOrder>(dir);
    for (let n = 1; n <= 3; n += 1) journal.append(order(n));
    const state = { orders: [1, 2, 3] };
    const snapshotWritten = journal.writeSnapshot(3, state);
    state.orders.push(4);
    journal.append(order(4));
    await snapshotWritten;
    await journal.close();

    expect(await readdir(dir)).toEqual(
      expect.arrayContaining([segmentFileName(0), segmentFileName(3), snapshotFileName(3)]),
    );
    expect((await stat(join(dir, segmentFileName(3)))).size).toBeGreaterThan(SEGMENT_HEADER_BYTES);
    const { journal: reopened, recovered } = await Journal.open<PlaceOrder>(dir);
    expect(recovered.snapshot).toEqual({ seq: 3, state: { orders: [1, 2, 3] } });
    expect(recovered.commands).toEqual([{ seq: 4, command: order(4) }]);
    await reopened.close();
  });

  it('deletes segments and snapshots made obsolete, keeping the previous snapshot and what replays from it', async () => {
    const { journal } = await Journal.open<PlaceOrder>(dir);
    for (let round = 1; round <= 3; round += 1) {
      for (let i = 0; i < 10; i += 1) journal.append(order(i));
      await journal.writeSnapshot(journal.lastSeq, { round });
    }
    for (let i = 0; i < 5; i += 1) journal.append(order(i));
    await journal.close();

    const files = (await readdir(dir)).sort();
    expect(files).toEqual([
      segmentFileName(20),
      segmentFileName(30),
      snapshotFileName(20),
      snapshotFileName(30),
    ]);
    const { journal: reopened, recovered } = await Journal.open<PlaceOrder, { round: number }>(dir);
    expect(recovered.snapshot).toEqual({ seq: 30, state: { round: 3 } });
    expect(recovered.commands.map((entry) => entry.seq)).toEqual([31, 32, 33, 34, 35]);
    expect(recovered.report.segments).toEqual([
      join(dir, segmentFileName(20)),
      join(dir, segmentFileName(30)),
    ]);
    await reopened.close();
  });

  it('does not start an empty segment when nothing was appended since the last snapshot', async () => {
    const { journal } = await Journal.open<PlaceOrder>(dir);
    journal.append(order(1));
    await journal.writeSnapshot(1, { a: 1 });
    await journal.writeSnapshot(1, { a: 1 });
    await journal.close();
    expect((await readdir(dir)).filter((name) => name.startsWith('segment-'))).toHaveLength(2);
  });

  it('survives a snapshot that cannot be written: appends go on, and the snapshot can be retried', async () => {
    const { journal } = await Journal.open<PlaceOrder>(dir);
    journal.append(order(1));
    journal.append(order(2));
    const blocker = join(dir, `${snapshotFileName(2)}.tmp`);
    await mkdir(blocker);
    await expect(journal.writeSnapshot(2, { orders: 2 })).rejects.toThrow(/EISDIR/);
    expect(await readdir(dir)).not.toContain(snapshotFileName(2));
    await journal.durable(journal.append(order(3)));
    await rmdir(blocker);
    await journal.writeSnapshot(2, { orders: 2 });
    await journal.close();

    const { journal: reopened, recovered } = await Journal.open<PlaceOrder>(dir);
    expect(recovered.snapshot).toEqual({ seq: 2, state: { orders: 2 } });
    expect(recovered.commands).toEqual([{ seq: 3, command: order(3) }]);
    await reopened.close();
  });

  it('refuses a snapshot beyond the last seq or older than the newest snapshot', async () => {
    const { journal } = await Journal.open<PlaceOrder>(dir);
    journal.append(order(1));
    journal.append(order(2));
    await expect(journal.writeSnapshot(3, {})).rejects.toThrow(RangeError);
    await journal.writeSnapshot(2, {});
    await expect(journal.writeSnapshot(1, {})).rejects.toThrow(RangeError);
    await journal.close();
  });
});

describe('Journal lock', () => {
  it('refuses a second writer while the first holds the directory, and frees it on close', async () => {
    const { journal } = await Journal.open<PlaceOrder>(dir);
    const second = Journal.open<PlaceOrder>(dir);
    await expect(second).rejects.toThrow(JournalLockedError);
    await expect(second).rejects.toThrow(`in use by process ${process.pid}`);
    await journal.close();
    expect(await readdir(dir)).not.toContain('LOCK');

    const again = await Journal.open<PlaceOrder>(dir);
    await again.journal.close();
  });

  it('takes over a lock left by a process that is no longer running', async () => {
    const exited = spawnSync(process.execPath, ['-e', '']);
    await writeFile(join(dir, 'LOCK'), `${exited.pid}\n`);
    const messages: string[] = [];
    const { journal } = await Journal.open<PlaceOrder>(dir, { log: (message) => messages.push(message) });
    expect(messages.join('\n')).toContain(`process ${exited.pid} is no longer running`);
    journal.append(order(1));
    await journal.close();
  });

  it('takes over a lock naming its own pid that an earlier process with the same pid left behind', async () => {
    await writeFile(join(dir, 'LOCK'), `${process.pid}\n`);
    const messages: string[] = [];
    const { journal } = await Journal.open<PlaceOrder>(dir, { log: (message) => messages.push(message) });
    expect(messages.join('\n')).toContain('an earlier process with the same pid left it');
    await expect(Journal.open<PlaceOrder>(dir)).rejects.toThrow(JournalLockedError);
    await journal.close();
  });
});
