// The exchange command line (`exchange/cli.ts`) as a child process, run as a user runs it: tests
// read its one ready line for the address and credentials, and end it with a signal.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { z } from 'zod';

const PROJECT_ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

/** The one line the command prints on stdout once it serves. */
export const readyLineSchema = z.strictObject({
  event: z.literal('ready'),
  baseUrl: z.string().regex(/^http:\/\/127\.0\.0\.1:\d{2,5}$/),
  adminToken: z.string().min(16),
  account: z.strictObject({
    uid: z.string().regex(/^\d{10}$/),
    apiKey: z.string().min(1),
    secretKey: z.string().min(1),
    passphrase: z.string().min(1),
  }),
});
export type ReadyLine = z.output<typeof readyLineSchema>;

export interface CliExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface CliRun {
  readonly child: ChildProcess;
  /** Everything the child wrote to stdout so far. */
  stdout(): string;
  /** Everything the child wrote to stderr so far. */
  stderr(): string;
  readonly exited: Promise<CliExit>;
}

/** A run that printed its ready line. */
export interface ChildExchange extends CliRun {
  readonly ready: ReadyLine;
}

export interface ChildExchanges {
  /** Runs the command with `args`, waiting for nothing. */
  run(args: readonly string[]): CliRun;
  /** Starts an exchange on `dataDir` (a free port, seed 1) and waits for its ready line. */
  start(dataDir: string): Promise<ChildExchange>;
  /** A new temporary data folder, removed after the file's tests. */
  newDataDir(): Promise<string>;
}

/**
 * Registers an afterAll that kills every child still running and removes the data folders; call it
 * once at the top level of a test file.
 */
export function useChildExchanges(dataDirPrefix: string): ChildExchanges {
  const children = new Set<ChildProcess>();
  const dataDirs: string[] = [];

  afterAll(async () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  });

  function run(args: readonly string[]): CliRun {
    const child = spawn(process.execPath, ['--import', 'tsx', 'exchange/cli.ts', ...args], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<CliExit>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    return { child, stdout: () => stdout, stderr: () => stderr, exited };
  }

  return {
    run,
    async start(dataDir) {
      const started = run(['--port', '0', '--data', dataDir, '--seed', '1']);
      return { ...started, ready: await readyOf(started) };
    },
    async newDataDir() {
      const dir = await mkdtemp(join(tmpdir(), dataDirPrefix));
      dataDirs.push(dir);
      return dir;
    },
  };
}

/** Waits for the first full stdout line, failing with stderr if the process ends first. */
export async function readyOf(run: CliRun, timeoutMs = 15_000): Promise<ReadyLine> {
  const deadline = Date.now() + timeoutMs;
  while (!run.stdout().includes('\n')) {
    if (run.child.exitCode !== null || run.child.signalCode !== null) {
      throw new Error(`the exchange exited before it was ready; stderr:\n${run.stderr()}`);
    }
    if (Date.now() > deadline) throw new Error(`no ready line in ${timeoutMs} ms; stderr:\n${run.stderr()}`);
    await sleep(20);
  }
  const firstLine = run.stdout().slice(0, run.stdout().indexOf('\n'));
  return readyLineSchema.parse(JSON.parse(firstLine));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
