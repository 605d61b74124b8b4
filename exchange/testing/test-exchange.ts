// A paper exchange started for one test file: its own temporary data folder, 127.0.0.1 on a free
// port, the simulated market paused so only the test's accounts trade, and helpers to sign
// requests and to call the admin interface. `stop()` closes the server and removes the folder.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreateAccountRequest, CreateAccountResult } from '../../shared/api/paper-admin';
import { startExchange, type RunningExchange } from '../server';
import { createSignedClient, type ClientResponse, type SignedClient } from './signed-client';

export interface TestExchange {
  readonly exchange: RunningExchange;
  readonly dataDir: string;
  /** A client signing with the default paper account's key. */
  readonly client: SignedClient;
  /** Calls the admin interface with the admin token. */
  admin(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<ClientResponse>;
  /** Creates an account through the admin interface and returns a client signing with its key. */
  newAccount(
    request?: Partial<CreateAccountRequest>,
  ): Promise<{ account: CreateAccountResult; client: SignedClient }>;
  /** Moves the market (admin `POST /paper/v1/price`). */
  setPrice(symbol: string, price: string, productType?: string): Promise<void>;
  stop(): Promise<void>;
}

export interface TestExchangeOptions {
  /** Keep the simulated market running (default: paused, so only the test's orders trade). */
  readonly liveMarket?: boolean;
  readonly tickMs?: number;
  readonly dataDir?: string;
}

export async function startTestExchange(options: TestExchangeOptions = {}): Promise<TestExchange> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'paper-exchange-')));
  const exchange = await startExchange({
    dataDir,
    port: 0,
    seed: 1,
    tickMs: options.tickMs ?? (options.liveMarket === true ? 100 : 0),
    log: () => {},
  });
  const client = createSignedClient({ baseUrl: exchange.baseUrl, ...exchange.account });
  const admin = async (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => {
    const response = await fetch(`${exchange.baseUrl}${path}`, {
      method,
      headers: { 'X-Paper-Admin': exchange.adminToken, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    let parsed: ClientResponse['body'] = null;
    try {
      parsed = JSON.parse(text) as ClientResponse['body'];
    } catch {
      parsed = null;
    }
    return { status: response.status, body: parsed, text };
  };
  if (options.liveMarket !== true) {
    const paused = await admin('POST', '/paper/v1/market', { paused: true });
    if (paused.status !== 200) throw new Error(`cannot pause the market: ${paused.text}`);
  }
  return {
    exchange,
    dataDir,
    client,
    admin,
    async newAccount(request = {}) {
      const created = await admin('POST', '/paper/v1/accounts', request);
      if (created.status !== 200 || created.body === null)
        throw new Error(`cannot create an account: ${created.text}`);
      const account = created.body.data as CreateAccountResult;
      return { account, client: createSignedClient({ baseUrl: exchange.baseUrl, ...account }) };
    },
    async setPrice(symbol, price, productType = 'USDT-FUTURES') {
      const moved = await admin('POST', '/paper/v1/price', { productType, symbol, price });
      if (moved.status !== 200) throw new Error(`cannot move ${symbol} to ${price}: ${moved.text}`);
    },
    async stop() {
      await exchange.close();
      if (options.dataDir === undefined) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
