// One paper exchange per test file, and traders whose resting orders are cancelled after each
// test, so one test's orders are never matched by the next test's (the market is paused, so
// only the test's own accounts trade, at exact prices).
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { CreateAccountRequest } from '../../shared/api/paper-admin';
import type { SignedClient } from './signed-client';
import { startTestExchange, type TestExchange } from './test-exchange';

export interface TraderPool {
  /** The file's exchange; available from the first beforeAll on. */
  readonly exchange: TestExchange;
  /** A fresh account whose open orders are cancelled after the test. */
  newTrader(request?: Partial<CreateAccountRequest>): Promise<SignedClient>;
}

const PRODUCT_TYPES_TRADED = ['USDT-FUTURES', 'USDC-FUTURES'] as const;

/** Registers the file's hooks; call it once at the top level of a test file. */
export function useTraderPool(): TraderPool {
  let exchange: TestExchange | undefined;
  const tradersOfTest: SignedClient[] = [];
  beforeAll(async () => {
    exchange = await startTestExchange();
  });
  afterAll(async () => {
    await exchange?.stop();
  });
  afterEach(async () => {
    for (const client of tradersOfTest.splice(0)) {
      for (const productType of PRODUCT_TYPES_TRADED) {
        const cancelled = await client.post('/api/v2/mix/order/batch-cancel-orders', { productType });
        expect(cancelled.body?.code).toBe('00000');
      }
    }
  });
  return {
    get exchange(): TestExchange {
      if (exchange === undefined) throw new Error('the test exchange starts in beforeAll');
      return exchange;
    },
    async newTrader(request = {}) {
      if (exchange === undefined) throw new Error('the test exchange starts in beforeAll');
      const { client } = await exchange.newAccount(request);
      tradersOfTest.push(client);
      return client;
    },
  };
}
