// A process that places one order through the outbox and is killed by the test while the order
// is in flight. Settings come as JSON in OUTBOX_CHILD; it prints "sent" once the entry is
// recorded as sent. With holdPlaceRequests the place request never leaves the process.
import { batchPlaceOrder } from '../../../shared/api/endpoints/e01-batch-place-order';
import { RateBudget } from '../api/rate-budget';
import { ServerClock } from '../api/server-clock';
import { createApiClient } from '../api/signed-client';
import type { Credentials } from '../api/signed-client';
import { OrderOutbox } from './order-outbox';

interface ChildSettings {
  readonly baseUrl: string;
  readonly credentials: Credentials;
  readonly filePath: string;
  readonly holdPlaceRequests: boolean;
}

const settings = JSON.parse(process.env.OUTBOX_CHILD ?? '{}') as ChildSettings;
const holding: typeof fetch = (input, init) =>
  settings.holdPlaceRequests && String(input).includes(batchPlaceOrder.path)
    ? new Promise<Response>(() => {})
    : fetch(input, init);
const clock = new ServerClock();
const client = createApiClient({
  baseUrl: settings.baseUrl,
  credentials: () => settings.credentials,
  clock,
  budget: new RateBudget({ clock }),
  fetch: holding,
  timeoutMs: 60_000,
});
await client.syncClock();
const outbox = await OrderOutbox.open({ filePath: settings.filePath, client });
outbox.onChange((entry) => {
  if (entry.state === 'sent') process.stdout.write(`sent ${entry.clientOid}\n`);
});
await outbox.placeOrders({
  symbol: 'BTCUSDT',
  productType: 'USDT-FUTURES',
  marginCoin: 'USDT',
  marginMode: 'crossed',
  orderList: [{ side: 'buy', orderType: 'limit', price: '80000', size: '0.01' }],
});
process.stdout.write('answered\n');
