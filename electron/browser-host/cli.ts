// `npm run web`: the terminal in a browser. Prints one JSON "ready" line with the address to open.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { RendererNotBuiltError, startBrowserHost } from './browser-host';

const usage = 'usage: npm run web -- [--port 0] [--user-data DIR]';

function fail(message: string, exitCode = 2): never {
  process.stderr.write(`${message}\n${usage}\n`);
  process.exit(exitCode);
}

let values: { port: string; 'user-data': string };
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'user-data': { type: 'string', default: '.data/web' },
    },
    strict: true,
  }));
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}

const port = Number(values.port);
if (!/^\d+$/.test(values.port) || port > 65_535)
  fail(`--port must be a whole number from 0 to 65535, not "${values.port}"`);

try {
  const host = await startBrowserHost({ port, userDataDir: resolve(values['user-data']) });
  process.stdout.write(`${JSON.stringify({ event: 'ready', url: host.url })}\n`);
  const stop = () => {
    host.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  if (error instanceof RendererNotBuiltError) fail(error.message, 1);
  fail(`The browser host did not start: ${error instanceof Error ? error.message : String(error)}`, 1);
}
