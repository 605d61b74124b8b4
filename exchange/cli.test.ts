// `npm run exchange` as a user runs it: one ready line to read the address and credentials from,
// the same account on every start with the same data folder, a live market, and clear refusals.
import { describe, expect, it } from 'vitest';
import { tickers } from '../shared/api/endpoints';
import { readyOf, useChildExchanges } from './testing/child-exchange';
import { createSignedClient } from './testing/signed-client';

const cli = useChildExchanges('paper-cli-');

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
    const dataDir = await cli.newDataDir();
    const run = cli.run(['--port', '0', '--data', dataDir, '--seed', '1']);
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
    const dataDir = await cli.newDataDir();
    const first = cli.run(['--port', '0', '--data', dataDir]);
    const firstReady = await readyOf(first);

    // A second exchange on the same folder while the first runs is refused.
    const rival = cli.run(['--port', '0', '--data', dataDir]);
    expect((await rival.exited).code).toBe(1);
    expect(rival.stdout()).toBe('');
    expect(rival.stderr()).toContain('cannot start');

    first.child.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });

    const again = cli.run(['--port', '0', '--data', dataDir]);
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
    const run = cli.run(args);
    expect(await run.exited).toEqual({ code: 2, signal: null });
    expect(run.stdout()).toBe('');
    expect(run.stderr()).toContain(message);
    expect(run.stderr()).toContain('usage: npm run exchange');
  });
});
