// File operations that survive power loss: data is fsync'ed before a rename publishes it, and the
// directory is fsync'ed so the rename (or deletion) itself is on disk.

import { open, rename } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { TEMP_SUFFIX } from './file-names';

export async function fsyncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes all of `data` at the handle's current position, looping over short writes. */
export async function writeFully(handle: FileHandle, data: Buffer): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset, null);
    if (bytesWritten <= 0) throw new Error(`Write made no progress after ${offset} of ${data.length} bytes`);
    offset += bytesWritten;
  }
}

/** Writes `data` to a new file and fsyncs it, replacing any file of that name. */
export async function writeSyncedFile(path: string, data: Buffer): Promise<void> {
  const handle = await open(path, 'w');
  try {
    await writeFully(handle, data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes `dir/name` appear with exactly `data`, or not at all, even across a crash. */
export async function createFileAtomically(dir: string, name: string, data: Buffer): Promise<void> {
  const temporary = join(dir, name + TEMP_SUFFIX);
  await writeSyncedFile(temporary, data);
  await rename(temporary, join(dir, name));
  await fsyncDirectory(dir);
}
