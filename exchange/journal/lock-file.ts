// Single-writer lock: `dir/LOCK` holds the pid of the process writing the journal. The file is created
// complete in one step (written under a private name, then hard-linked into place, which fails if a lock
// exists), so nobody ever reads a half-written pid. A lock whose process is gone was left by a crash and
// is taken over. Two processes taking over the same stale lock at the same instant is not guarded
// against; starting two exchanges on one directory at once is an operator error the live lock catches.

import { link, readFile, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { JournalLockedError } from './errors';
import { LOCK_FILE } from './file-names';
import { errorCode } from './system-error';

export interface JournalLock {
  readonly path: string;
  release(): Promise<void>;
}

/** Lock files this process holds: a lock naming our own pid but not listed here was left by an earlier
 * process that had the same pid (common in containers, where the server often gets the same pid). */
const heldByThisProcess = new Set<string>();
let attemptCounter = 0;

export async function acquireJournalLock(dir: string, log: (message: string) => void): Promise<JournalLock> {
  const path = resolve(dir, LOCK_FILE);
  const ownContent = `${process.pid}\n`;
  attemptCounter += 1;
  const privateCopy = join(dir, `${LOCK_FILE}.${process.pid}-${attemptCounter}.tmp`);
  await writeFile(privateCopy, ownContent);
  try {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        await link(privateCopy, path);
        heldByThisProcess.add(path);
        return lockHandle(path, ownContent);
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
      }
      const ownerPid = await readOwnerPid(path);
      if (ownerPid === null) continue; // released between our attempt and the read
      const earlierProcessWithOurPid = ownerPid === process.pid && !heldByThisProcess.has(path);
      if (!earlierProcessWithOurPid && processIsAlive(ownerPid)) throw new JournalLockedError(path, ownerPid);
      log(
        `Removing stale journal lock ${path}: ` +
          (earlierProcessWithOurPid
            ? `it names process ${ownerPid}, this process's own pid, so an earlier process with the same pid left it.`
            : `process ${ownerPid} is no longer running.`),
      );
      await unlinkIfPresent(path);
    }
    throw new Error(
      `Could not take the journal lock ${path}: it keeps reappearing; is another exchange starting?`,
    );
  } finally {
    await unlinkIfPresent(privateCopy);
  }
}

function lockHandle(path: string, ownContent: string): JournalLock {
  let released = false;
  return {
    path,
    async release() {
      if (released) return;
      released = true;
      heldByThisProcess.delete(path);
      // Never remove a lock another process has taken over meanwhile.
      const content = await readFile(path, 'utf8').catch(() => null);
      if (content === ownContent) await unlinkIfPresent(path);
    },
  };
}

async function readOwnerPid(path: string): Promise<number | null> {
  let content: string;
  try {
    content = await readFile(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
  const pid = Number.parseInt(content.trim(), 10);
  // Unreadable content cannot name a live owner; report it as pid 0 so it is treated as stale.
  return Number.isSafeInteger(pid) && pid > 0 ? pid : 0;
}

function processIsAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return errorCode(error) === 'EPERM';
  }
}

async function unlinkIfPresent(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}
