import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ContractSpec } from './engine/contracts';
import { ExchangeService } from './exchange-service';
import { createHttpApp } from './http/app';
import { FaultRegistry } from './http/faults';
import { SlidingWindowRateLimiter } from './http/rate-limit';
import { registerAccountRoutes } from './routes/account-routes';
import { registerAdminRoutes } from './routes/admin-routes';
import { registerMarketRoutes } from './routes/market-routes';
import { registerTradeRoutes } from './routes/trade-routes';
import type { RouteContext } from './routes/context';

export interface ExchangeOptions {
  readonly host?: string;
  /** 0 picks any free port. */
  readonly port?: number;
  /** Where the journal, snapshots and settings live. */
  readonly dataDir: string;
  /** Seed of the simulated market; kept in the data folder after the first start. */
  readonly seed?: number;
  /** Milliseconds between steps of the simulated market; 0 stops the clock (tests drive it). */
  readonly tickMs?: number;
  readonly contracts?: readonly ContractSpec[];
  readonly log?: (message: string) => void;
  /**
   * Enforce the spec's rate limits (default). Benchmarks turn them off to measure what the server
   * itself can carry; a paper exchange for trading never should.
   */
  readonly rateLimits?: boolean;
}

/** Limits so high they never bind: for benchmarks only. */
const UNLIMITED_WINDOW_MS = 0.01;

export interface DefaultAccount {
  readonly uid: string;
  readonly apiKey: string;
  readonly secretKey: string;
  readonly passphrase: string;
}

export interface RunningExchange {
  readonly baseUrl: string;
  readonly adminToken: string;
  readonly account: DefaultAccount;
  readonly service: ExchangeService;
  readonly app: FastifyInstance;
  /** Stops the market clock and the server, and closes the journal. */
  close(): Promise<void>;
}

export const DEFAULT_TICK_MS = 250;
const CLOSE_GRACE_MS = 2_000;

/** Starts the paper exchange: recovers its state, serves the API and runs the simulated market. */
export async function startExchange(options: ExchangeOptions): Promise<RunningExchange> {
  const log = options.log ?? ((message: string) => process.stderr.write(`[exchange] ${message}\n`));
  const service = await ExchangeService.open({
    dataDir: options.dataDir,
    seed: options.seed,
    contracts: options.contracts,
    log,
  });
  let app: FastifyInstance | null = null;
  let timer: NodeJS.Timeout | null = null;
  try {
    const uid = await service.ensureDefaultAccount();
    const account = service.engine.state.accounts.get(uid);
    const key = account?.keys[0];
    if (key === undefined) throw new Error(`the default account ${uid} has no API key`);

    const adminToken = randomBytes(24).toString('base64url');
    const faults = new FaultRegistry();
    app = createHttpApp({ logger: false });
    const context: RouteContext = {
      app,
      service,
      deps: {
        lookupKey: (apiKey) => service.engine.state.keys.get(apiKey),
        now: Date.now,
        rateLimiter: new SlidingWindowRateLimiter(
          options.rateLimits === false ? { windowMs: UNLIMITED_WINDOW_MS } : {},
        ),
        faults,
      },
    };
    registerMarketRoutes(context);
    registerTradeRoutes(context);
    registerAccountRoutes(context);
    registerAdminRoutes(context, faults, { adminToken });

    await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
    const address = app.server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const baseUrl = `http://${host}:${address.port}`;

    const tickMs = options.tickMs ?? DEFAULT_TICK_MS;
    if (tickMs > 0) {
      await service.execute({ type: 'tick' });
      timer = setInterval(() => {
        service
          .execute({ type: 'tick' })
          .catch((error: unknown) => log(`market step failed: ${String(error)}`));
      }, tickMs);
    }

    const running = app;
    let closing: Promise<void> | null = null;
    return {
      baseUrl,
      adminToken,
      account: { uid, apiKey: key.apiKey, secretKey: key.secretKey, passphrase: key.passphrase },
      service,
      app: running,
      close() {
        closing ??= (async () => {
          if (timer !== null) clearInterval(timer);
          // Requests under way may finish; connections still open after a grace period are cut,
          // so a client holding keep-alive connections cannot keep the exchange from stopping.
          const force = setTimeout(() => running.server.closeAllConnections(), CLOSE_GRACE_MS);
          await running.close();
          clearTimeout(force);
          await service.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    if (timer !== null) clearInterval(timer);
    await app?.close();
    await service.close();
    throw error;
  }
}
