// Real directories for journal tests, removed afterwards.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function makeTempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'journal-test-'));
}

export async function removeTempDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
