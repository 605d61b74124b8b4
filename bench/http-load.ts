// Loopback HTTP load: requests per second and latency percentiles, measured with autocannon.
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { prehash } from '../shared/signing';
import { startChildServer } from './child-server';

export interface LoadFigures {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

interface ExchangeReady {
  baseUrl: string;
  adminToken: string;
  account: { uid: string; apiKey: string; secretKey: string; passphrase: string };
}

const DURATION_S = 5;
const CONNECTIONS = 32;

async function load(name: string, options: autocannon.Options): Promise<LoadFigures> {
  const result = await autocannon({ duration: DURATION_S, connections: CONNECTIONS, ...options });
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export async function runHttpBench(root: string): Promise<LoadFigures[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-exchange-'));
  const exchange = await startChildServer<ExchangeReady>(
    ['exchange/cli.ts', '--port', '0', '--data', dataDir, '--seed', '1', '--no-rate-limits'],
    root,
  );
  const figures: LoadFigures[] = [];
  try {
    const tickersUrl = `${exchange.ready.baseUrl}/api/v2/mix/market/tickers?productType=USDT-FUTURES`;
    const sample = await (await fetch(tickersUrl)).text();
    const bare = await startChildServer<{ baseUrl: string }>(
      ['bench/bare-json-server.ts', String(sample.length)],
      root,
    );
    try {
      await load('warm-up', { url: tickersUrl, duration: 1 });
      figures.push(await load('bare node:http JSON (same size)', { url: `${bare.ready.baseUrl}/` }));
      figures.push(await load('public tickers (E11)', { url: tickersUrl }));
    } finally {
      await bare.stop();
    }
    figures.push(await signedBatchOrders(exchange.ready));
  } finally {
    await exchange.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  return figures;
}

/** Signed E1 batches of 10 IOC orders priced away from the market: the full path, journal included. */
async function signedBatchOrders(ready: ExchangeReady): Promise<LoadFigures> {
  const path = '/api/v2/mix/order/batch-place-order';
  const { apiKey, secretKey, passphrase } = ready.account;
  return load('signed batch-place-order (E1, 10 orders)', {
    url: `${ready.baseUrl}${path}`,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const body = JSON.stringify({
            symbol: 'BTCUSDT',
            productType: 'USDT-FUTURES',
            marginCoin: 'USDT',
            marginMode: 'crossed',
            orderList: Array.from({ length: 10 }, (_, index) => ({
              side: index % 2 === 0 ? 'buy' : 'sell',
              orderType: 'limit',
              force: 'ioc',
              price: index % 2 === 0 ? '50000' : '150000',
              size: '0.001',
              clientOid: randomUUID(),
            })),
          });
          const timestamp = String(Date.now());
          const sign = createHmac('sha256', secretKey)
            .update(prehash(timestamp, 'POST', path, '', body))
            .digest('base64');
          return {
            ...request,
            body,
            headers: {
              'content-type': 'application/json',
              'ACCESS-KEY': apiKey,
              'ACCESS-SIGN': sign,
              'ACCESS-PASSPHRASE': passphrase,
              'ACCESS-TIMESTAMP': timestamp,
            },
          };
        },
      },
    ],
  });
}
