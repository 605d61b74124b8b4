// The yardstick: a bare node:http server answering one fixed JSON document of the size of a
// tickers answer. Whatever the exchange does beyond that is its own cost.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const size = Number(process.argv[2] ?? '2000');
const body = JSON.stringify({
  code: '00000',
  msg: 'success',
  requestTime: Date.now(),
  data: 'x'.repeat(size),
});

const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ event: 'ready', baseUrl: `http://127.0.0.1:${port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
