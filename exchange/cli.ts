// `npm run exchange`: the paper exchange on its own. Prints one JSON "ready" line on stdout.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startExchange } from './server';

const usage =
  'usage: npm run exchange -- [--host 127.0.0.1] [--port 0] [--data DIR] [--seed N] [--no-rate-limits (benchmarks only)]';

function fail(message: string): never {
  process.stderr.write(`${message}\n${usage}\n`);
  process.exit(2);
}

function integer(text: string | undefined, name: string, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    fail(`--${name} must be a whole number from ${min} to ${max}, not "${text}"`);
  return value;
}

let parsed;
try {
  parsed = parseArgs({
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '0' },
      data: { type: 'string', default: '.data/exchange' },
      seed: { type: 'string' },
      'no-rate-limits': { type: 'boolean', default: false },
    },
    strict: true,
  });
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}

const { values } = parsed;
try {
  const exchange = await startExchange({
    host: values.host,
    port: integer(values.port, 'port', 0, 65_535),
    dataDir: resolve(values.data),
    seed: integer(values.seed, 'seed', 0, 4_294_967_295),
    rateLimits: values['no-rate-limits'] !== true,
  });
  process.stdout.write(
    `${JSON.stringify({ event: 'ready', baseUrl: exchange.baseUrl, adminToken: exchange.adminToken, account: exchange.account })}\n`,
  );
  const stop = (signal: string) => {
    process.stderr.write(`[exchange] ${signal}: closing\n`);
    exchange.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`[exchange] close failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
} catch (error) {
  process.stderr.write(
    `[exchange] cannot start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}
