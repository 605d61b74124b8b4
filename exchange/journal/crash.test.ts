// Crash and failure behaviour against real processes: a writer killed with SIGKILL mid-stream, and a
// writer whose writes the operating system refuses (file-size limit).

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal } from './journal';
import { makeTempDir, removeTempDir } from './test-support/temp-dir';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const crashWriter = fileURLToPath(new URL('./test-support/crash-writer.ts', import.meta.url));
const sizeLimitedWriter = fileURLToPath(new URL('./test-support/size-limited-writer.ts', import.meta.url));
const childEnv = { ...process.env, TSX_DISABLE_CACHE: '1' };

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeTempDir(dir);
});

interface KilledRun {
  openedAt: number;
  acknowledged: number[];
}

/** Runs the crash writer until it has acknowledged `records` seqs, then kills it with SIGKILL. */
function runAndKill(records: number, deadlineMs: number): Promise<KilledRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', crashWriter, dir], {
      cwd: projectRoot,
      env: childEnv,
    });
    let buffered = '';
    let openedAt = -1;
    const acknowledged: number[] = [];
    let stderr = '';
    let killed = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`writer acknowledged only ${acknowledged.length} records in ${deadlineMs} ms: ${stderr}`),
      );
    }, deadlineMs);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? ''; // a line without its newline was not fully reported
      for (const line of lines) {
        if (line.startsWith('opened ')) openedAt = Number(line.slice('opened '.length));
        else acknowledged.push(Number(line));
      }
      if (!killed && acknowledged.length >= records) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    // 'exit' fires once the process is reaped, so its pid no longer looks alive to the lock check.
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL' && killed) resolve({ openedAt, acknowledged });
      else reject(new Error(`writer ended on its own (code ${code}, signal ${signal}): ${stderr}`));
    });
  });
}

describe('Journal under kill -9', () => {
  it('recovers every acknowledged record, in order and contiguous, after the writer is killed twice', async () => {
    const first = await runAndKill(450, 8_000);
    expect(first.openedAt).toBe(0);
    const second = await runAndKill(250, 8_000);
    expect(second.openedAt).toBeGreaterThanOrEqual(Math.max(...first.acknowledged));

    const { journal, recovered } = await Journal.open<{ n: number }, { seq: number; sum: number }>(dir);
    const snapshot = recovered.snapshot;
    const firstReplayed = (snapshot?.seq ?? 0) + 1;
    const seqs = recovered.commands.map((entry) => entry.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => firstReplayed + i));
    for (const { seq, command } of recovered.commands) expect(command.n).toBe(seq);
    if (snapshot !== null)
      expect(snapshot.state).toEqual({ seq: snapshot.seq, sum: (snapshot.seq * (snapshot.seq + 1)) / 2 });

    for (const seq of [...first.acknowledged, ...second.acknowledged])
      expect(seq).toBeLessThanOrEqual(journal.lastSeq);
    expect(Math.min(...second.acknowledged)).toBeGreaterThan(second.openedAt);
    expect(journal.lastSeq).toBeGreaterThanOrEqual(first.acknowledged.length + second.acknowledged.length);
    await journal.close();
  }, 20_000);
});

describe('Journal on a failing disk', () => {
  it('rejects every later durable(), append and snapshot once a write fails, and keeps all acknowledged records', async () => {
    const report = await new Promise<string>((resolve, reject) => {
      // ulimit -f 64: writes past 64 KiB fail with EFBIG, as they would on a full disk.
      const child = spawn(
        'bash',
        ['-c', 'ulimit -f 64 && exec "$0" "$@"', process.execPath, '--import', 'tsx', sizeLimitedWriter, dir],
        { cwd: projectRoot, env: childEnv },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('exit', (code) =>
        code === 0 ? resolve(stdout) : reject(new Error(`writer failed: ${stderr}`)),
      );
    });
    const outcome = JSON.parse(report) as {
      acknowledged: number;
      firstFailure: string;
      laterDurable: string;
      laterAppend: string;
      laterSnapshot: string;
      close: string;
    };
    expect(outcome.firstFailure).toBe('EFBIG');
    expect(outcome.acknowledged).toBeGreaterThan(30);
    expect(outcome.laterDurable).toBe('EFBIG');
    expect(outcome.laterAppend).toBe('EFBIG');
    expect(outcome.laterSnapshot).toBe('EFBIG');
    expect(outcome.close).toBe('EFBIG');

    const { journal, recovered } = await Journal.open<{ n: number }>(dir);
    expect(recovered.report.tornTail).not.toBeNull();
    expect(recovered.commands.map((entry) => entry.command.n)).toEqual(
      Array.from({ length: outcome.acknowledged }, (_, i) => i + 1),
    );
    await journal.close();
  }, 20_000);
});
