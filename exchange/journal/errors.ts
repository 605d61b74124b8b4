// Errors an operator reads when the exchange cannot start on its journal: each says which file, where,
// what is wrong and what to do about it.

export const RESTORE_OR_START_FRESH =
  'Restore the file from a backup, or move the journal directory aside to start a fresh paper exchange; ' +
  'the files are left untouched for inspection.';

/** The journal holds damage that cannot be a write cut short by a crash, so replaying it would lose or reorder commands. */
export class JournalCorruptError extends Error {
  override readonly name = 'JournalCorruptError';

  constructor(
    readonly file: string,
    readonly offset: number | null,
    readonly problem: string,
    readonly remedy: string = RESTORE_OR_START_FRESH,
  ) {
    super(`Journal is damaged: ${file}${offset === null ? '' : ` at byte ${offset}`}: ${problem}. ${remedy}`);
  }
}

/** Another live process holds the journal directory. */
export class JournalLockedError extends Error {
  override readonly name = 'JournalLockedError';

  constructor(
    readonly lockFile: string,
    readonly ownerPid: number,
  ) {
    super(
      `Journal directory is in use by process ${ownerPid} (lock file ${lockFile}). ` +
        `Stop that process before starting another exchange on the same data; ` +
        `if no such process is running, delete ${lockFile}.`,
    );
  }
}

/** The journal was closed; nothing more can be appended or snapshotted through this instance. */
export class JournalClosedError extends Error {
  override readonly name = 'JournalClosedError';

  constructor() {
    super('The journal is closed; open it again to append.');
  }
}
