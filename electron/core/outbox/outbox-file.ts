// The outbox on disk: an append-only file of JSON lines, each the whole entry as it now stands
// (the last line of a clientOid wins). Appending one short line and fsyncing it is cheaper than
// rewriting the file at every state change, and a kill -9 cannot lose a line whose fsync
// returned. A line cut short by a power loss is the last one and is skipped on reading.
// Compaction rewrites the file atomically: temporary file, fsync, rename, fsync of the folder.
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { OutboxEntry } from '../../../shared/ipc/outbox-entry';

export class OutboxFile {
  private queue: Promise<void> = Promise.resolve();

  private constructor(
    readonly path: string,
    private handle: FileHandle,
  ) {}

  /** Opens (creating) the file and reads the latest state of every entry in it. */
  static async open(
    path: string,
  ): Promise<{ file: OutboxFile; entries: Map<string, OutboxEntry>; lines: number }> {
    await mkdir(dirname(path), { recursive: true });
    const { entries, lines } = await readEntries(path);
    const handle = await open(path, 'a');
    return { file: new OutboxFile(path, handle), entries, lines };
  }

  /** Resolves once the entries are on disk, in one write. Writes happen one at a time, in call order. */
  append(entries: readonly OutboxEntry[]): Promise<void> {
    const write = this.queue.then(async () => {
      if (entries.length === 0) return;
      await this.handle.write(entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
      await this.handle.datasync();
    });
    this.queue = write.catch(() => {});
    return write;
  }

  /** Replaces the whole file with one line per entry. */
  rewrite(entries: Iterable<OutboxEntry>): Promise<void> {
    const write = this.queue.then(async () => {
      const temporary = `${this.path}.tmp`;
      const out = await open(temporary, 'w');
      try {
        let text = '';
        for (const entry of entries) text += `${JSON.stringify(entry)}\n`;
        await out.write(text);
        await out.sync();
      } finally {
        await out.close();
      }
      await this.handle.close();
      await rename(temporary, this.path);
      await syncFolder(dirname(this.path));
      this.handle = await open(this.path, 'a');
    });
    this.queue = write.catch(() => {});
    return write;
  }

  async close(): Promise<void> {
    await this.queue;
    await this.handle.close();
  }
}

async function readEntries(path: string): Promise<{ entries: Map<string, OutboxEntry>; lines: number }> {
  const entries = new Map<string, OutboxEntry>();
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries, lines: 0 };
    throw error;
  }
  let lines = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    lines += 1;
    const entry = parseEntry(line);
    if (entry !== null) entries.set(entry.clientOid, entry);
  }
  return { entries, lines };
}

function parseEntry(line: string): OutboxEntry | null {
  try {
    const value = JSON.parse(line) as Partial<OutboxEntry> | null;
    if (value === null || typeof value !== 'object') return null;
    if (typeof value.clientOid !== 'string' || typeof value.state !== 'string') return null;
    return value as OutboxEntry;
  } catch {
    return null;
  }
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } catch {
    // Some platforms (Windows) cannot fsync a folder; the rename is still atomic there.
  } finally {
    await handle.close();
  }
}
