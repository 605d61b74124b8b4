import { parseQueryString } from '../http/query-string';
import { tickersEndpoint } from './http-fixture';
import { SlidingWindowRateLimiter } from '../http/rate-limit';
function bench(name: string, fn: () => unknown, n = 300_000) {
  for (let i = 0; i < 20000; i++) fn();
  const t = performance.now();
  for (let i = 0; i < n; i++) fn();
  const us = ((performance.now() - t) * 1000) / n;
  console.log(name.padEnd(30), us.toFixed(3), 'us');
}
const q = 'productType=USDT-FUTURES';
bench('URLSearchParams parse', () => parseQueryString(q));
bench('split parse', () => {
  const o: Record<string, string> = Object.create(null);
  for (const part of q.split('&')) {
    const i = part.indexOf('=');
    o[part.slice(0, i)] = part.slice(i + 1);
  }
  return o;
});
const input = parseQueryString(q);
bench('zod safeParse', () => tickersEndpoint.request.safeParse(input, { reportInput: true }));
const b = new SlidingWindowRateLimiter().bucket('x', 100000);
bench('limiter', () => b.tryAcquire('127.0.0.1'));
bench('JSON.stringify env', () =>
  JSON.stringify({
    code: '00000',
    msg: 'success',
    requestTime: Date.now(),
    data: [{ symbol: 'BTCUSDT', lastPr: '64000.5' }],
  }),
);
