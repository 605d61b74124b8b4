// `npm run exchange` as a user runs it: one ready line to read the address and credentials from,
// the same account on every start with the same data folder, a live market, and clear refusals.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tickers } from '../shared/api/endpoints';
import { createSignedClient } from './testing/signed-client';

const PROJECT_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

const readyLineSchema = z.strictObject({
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

interface CliRun {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children = new Set<ChildProcess>();
const dataDirs: string[] = [];

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
});

async function newDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'paper-cli-'));
  dataDirs.push(dir);
  return dir;
}

function runCli(args: readonly string[]): CliRun {
  const child = spawn(process.execPath, ['--import', 'tsx', 'exchange/cli.ts', ...args], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Waits for the first full stdout line, failing with stderr if the process ends first. */
async function readyOf(run: CliRun, timeoutMs = 15_000) {
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

async function tickerOf(baseUrl: string, symbol: string) {
  const response = await fetch(`${baseUrl}${tickers.path}?productType=USDT-FUTURES`);
  expect(response.status).toBe(200);
  const envelope = (await response.json()) as { data: unknown };
  const ticker = tickers.response.parse(envelope.data).find((entry) => entry.symbol === symbol);
  if (ticker === undefined) throw new Error(`no ticker for ${symbol}`);
  return ticker;
}

describe('exchange command line', () => {
  it('prints exactly one ready line whose credentials work, runs a live market and stops cleanly', async () => {
    const dataDir = await newDataDir();
    const run = runCli(['--port', '0', '--data', dataDir, '--seed', '1']);
    const ready = await readyOf(run);

    const client = createSignedClient({ baseUrl: ready.baseUrl, ...ready.account });
    const positions = await client.get('/api/v2/mix/position/all-position', { productType: 'USDT-FUTURES' });
    expect(positions.status).toBe(200);
    expect(positions.body).toMatchObject({ code: '00000', data: [] });
    const admin = await client.admin('GET', '/paper/v1/accounts', undefined, ready.adminToken);
    expect(admin.status).toBe(200);

    const first = await tickerOf(ready.baseUrl, 'BTCUSDT');
    await sleep(1_000);
    const second = await tickerOf(ready.baseUrl, 'BTCUSDT');
    expect(Number(second.ts)).toBeGreaterThan(Number(first.ts));
    expect([second.lastPr, second.ts]).not.toEqual([first.lastPr, first.ts]);

    expect(
      run
        .stdout()
        .split('\n')
        .filter((line) => line.length > 0),
    ).toHaveLength(1);
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(
      run
        .stdout()
        .split('\n')
        .filter((line) => line.length > 0),
    ).toHaveLength(1);
  });

  it('reuses the account and its credentials on a second start with the same data folder', async () => {
    const dataDir = await newDataDir();
    const first = runCli(['--port', '0', '--data', dataDir]);
    const firstReady = await readyOf(first);

    // A second exchange on the same folder while the first runs is refused.
    const rival = runCli(['--port', '0', '--data', dataDir]);
    expect((await rival.exited).code).toBe(1);
    expect(rival.stdout()).toBe('');
    expect(rival.stderr()).toContain('cannot start');

    first.child.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });

    const again = runCli(['--port', '0', '--data', dataDir]);
    const secondReady = await readyOf(again);
    expect(secondReady.account).toEqual(firstReady.account);
    const client = createSignedClient({ baseUrl: secondReady.baseUrl, ...secondReady.account });
    const positions = await client.get('/api/v2/mix/position/all-position', { productType: 'USDT-FUTURES' });
    expect(positions.status).toBe(200);
    again.child.kill('SIGTERM');
    expect(await again.exited).toEqual({ code: 0, signal: null });
  });

  it.each([
    { args: ['--port', 'abc'], message: '--port must be a whole number from 0 to 65535, not "abc"' },
    { args: ['--bogus'], message: "Unknown option '--bogus'" },
  ])('refuses $args with exit code 2 and says why', async ({ args, message }) => {
    const run = runCli(args);
    expect(await run.exited).toEqual({ code: 2, signal: null });
    expect(run.stdout()).toBe('');
    expect(run.stderr()).toContain(message);
    expect(run.stderr()).toContain('usage: npm run exchange');
  });
});
