import { createHttpApp } from '../http/app';
import { FaultRegistry } from '../http/faults';
import { SlidingWindowRateLimiter } from '../http/rate-limit';
import { registerEndpoint } from '../http/register-endpoint';
import { tickersEndpoint } from './http-fixture';
const app = createHttpApp({ logger: false });
const bigLimit = { ...tickersEndpoint, rateLimit: { perSecond: 100_000, keyedBy: 'ip' as const } };
registerEndpoint(app, bigLimit, () => [{ symbol: 'BTCUSDT', lastPr: '64000.5' }], {
  lookupKey: () => undefined,
  now: Date.now,
  rateLimiter: new SlidingWindowRateLimiter(),
  faults: new FaultRegistry(),
});
app.get('/plain', async () => ({
  code: '00000',
  msg: 'success',
  requestTime: Date.now(),
  data: [{ symbol: 'BTCUSDT', lastPr: '64000.5' }],
}));
console.log(await app.listen({ host: '127.0.0.1', port: 0 }));
process.on('SIGINT', () => process.exit(0));
