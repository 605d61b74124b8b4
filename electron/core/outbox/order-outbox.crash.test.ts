// An outbox whose process is killed (SIGKILL) after it recorded an order: the next start finds
// the entry and resolves it by lookups alone, never sending the order a second time.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchPlaceOrder } from '../../../shared/api/endpoints/e01-batch-place-order';
import { ordersPending } from '../../../shared/api/endpoints/e17-orders-pending';
import type { CreateAccountResult } from '../../../shared/api/paper-admin';
import { startTestExchange, type TestExchange } from '../../../exchange/testing/test-exchange';
import { RateBudget } from '../api/rate-budget';
import { ServerClock } from '../api/server-clock';
import { createApiClient, type ApiClient } from '../api/signed-client';
import { OrderOutbox } from './order-outbox';

const CHILD = fileURLToPath(new URL('./outbox-crash-child.ts', import.meta.url));

let exchange: TestExchange;
let folder: string;
const clock = new ServerClock();
const budget = new RateBudget({ clock });

beforeAll(async () => {
  exchange = await startTestExchange();
  folder = await mkdtemp(join(tmpdir(), 'outbox-crash-'));
});
afterAll(async () => {
  budget.dispose();
  await exchange.stop();
  await rm(folder, { recursive: true, force: true });
});

/** Runs the child until it has recorded the order as sent and `ready` holds, then SIGKILLs it. */
async function placeAndKill(
  account: CreateAccountResult,
  filePath: string,
  holdPlaceRequests: boolean,
  ready: () => Promise<boolean>,
): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    env: {
      ...process.env,
      OUTBOX_CHILD: JSON.stringify({
        baseUrl: exchange.exchange.baseUrl,
        credentials: account,
        filePath,
        holdPlaceRequests,
      }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_code, signal) => resolve(signal)),
  );
  const deadline = Date.now() + 20_000;
  for (;;) {
    const sent = /sent (\S+)/.exec(output);
    if (sent?.[1] !== undefined && (await ready())) {
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      expect(output).not.toContain('answered');
      return sent[1];
    }
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the child ended or stalled: ${output} ${errors}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function clientFor(account: CreateAccountResult): ApiClient {
  return createApiClient({ baseUrl: exchange.exchange.baseUrl, credentials: () => account, clock, budget });
}

async function openOrders(client: ApiClient): Promise<Array<{ orderId: string; clientOid: string }>> {
  const page = await client.call(ordersPending, { productType: 'USDT-FUTURES' });
  return page.entrustedList.map(({ orderId, clientOid }) => ({ orderId, clientOid }));
}

describe('an outbox killed with an order in flight', () => {
  it('resolves the order the exchange accepted as accepted at restart, one order on the exchange', async () => {
    const { account } = await exchange.newAccount();
    const client = clientFor(account);
    const filePath = join(folder, 'accepted.jsonl');
    // The exchange acts at once, then holds its answer: the kill lands while the answer is due.
    await exchange.admin('POST', '/paper/v1/faults', {
      path: batchPlaceOrder.path,
      count: 1,
      kind: 'delay',
      delayMs: 5_000,
    });
    const clientOid = await placeAndKill(
      account,
      filePath,
      false,
      async () => (await openOrders(client)).length > 0,
    );

    const outbox = await OrderOutbox.open({
      filePath,
      client,
      firstLookupDelayMs: 50,
      notReceivedAfterMs: 300,
    });
    expect(outbox.get(clientOid)?.state).toBe('sent');
    const [resolved] = await outbox.recover();
    expect(resolved).toMatchObject({ clientOid, state: 'accepted' });
    // Long enough for a resent order to show up, were one sent.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await openOrders(client)).toEqual([{ orderId: resolved?.orderId, clientOid }]);
    await outbox.close();
  });

  it('resolves an order that never left the killed process as not received, and sends nothing', async () => {
    const { account } = await exchange.newAccount();
    const client = clientFor(account);
    const filePath = join(folder, 'held.jsonl');
    const clientOid = await placeAndKill(account, filePath, true, () => Promise.resolve(true));

    const outbox = await OrderOutbox.open({
      filePath,
      client,
      firstLookupDelayMs: 50,
      notReceivedAfterMs: 300,
    });
    expect(outbox.get(clientOid)?.state).toBe('sent');
    const [resolved] = await outbox.recover();
    expect(resolved).toMatchObject({ clientOid, state: 'rejected', error: { code: 'not_received' } });
    expect(await openOrders(client)).toEqual([]);
    await outbox.close();
    const reopened = await OrderOutbox.open({ filePath, client });
    expect(reopened.get(clientOid)?.state).toBe('rejected');
    await reopened.close();
  });
});
