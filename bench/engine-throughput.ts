// In-process throughput of the paper exchange's engine: a mix of placing, cancelling and
// matching orders, applied as commands exactly as the server applies them (no HTTP, no journal).
import { DEFAULT_CONTRACTS } from '../exchange/engine/contracts';
import { Engine } from '../exchange/engine/engine';
import type { PlaceOrderInput } from '../exchange/engine/trading';
import { Rng } from '../exchange/market/random';
import { createAccountCommand, futuresOrder, T0 } from '../exchange/testing/engine-commands';

export interface EngineBenchResult {
  operations: number;
  seconds: number;
  operationsPerSecond: number;
  fills: number;
  mix: { place: number; cancel: number; match: number };
}

const ACCOUNTS = 200;

/** A crossed BTCUSDT limit order. */
function limitOrder(side: 'buy' | 'sell', price: string, size: string): PlaceOrderInput {
  return futuresOrder({ side, price, size });
}

export function runEngineBench(operations: number): EngineBenchResult {
  const engine = new Engine({ seed: 1, contracts: DEFAULT_CONTRACTS });
  engine.apply({ type: 'setMarketPaused', ts: T0, paused: true });
  for (let index = 0; index < ACCOUNTS; index++) {
    engine.apply(
      createAccountCommand(`bench${index}`, {
        ts: T0,
        label: '',
        posMode: 'hedge_mode',
        balances: { USDT: '100000000' },
        apiKey: `bench-key-${index}`,
      }),
    );
  }
  // The server looks the uid up from the API key, so it is the same string every time.
  const uids = Array.from({ length: ACCOUNTS }, (_, index) => `bench${index}`);
  const rng = Rng.fromState([1, 2, 3, 4]);
  // Pre-built inputs so the benchmark measures the engine, not the generator.
  const prices = Array.from({ length: 200 }, (_, index) => (95_000 + (index - 100) * 0.5).toFixed(1));
  // The engine only reads its inputs, as the server's parsed request bodies.
  const restingOrders = {
    buy: prices.map((price) => ({ ...limitOrder('buy', price, '0.0002'), tradeSide: 'open' as const })),
    sell: prices.map((price) => ({ ...limitOrder('sell', price, '0.0002'), tradeSide: 'open' as const })),
  };
  const crossingOrder = (side: 'buy' | 'sell') => ({
    ...limitOrder(side, side === 'buy' ? '95100.0' : '94900.0', '0.0003'),
    force: 'ioc' as const,
    tradeSide: 'open' as const,
  });
  const crossingOrders = { buy: crossingOrder('buy'), sell: crossingOrder('sell') };
  const resting: Array<{ uid: string; orderId: string }> = [];
  const mix = { place: 0, cancel: 0, match: 0 };
  // Trade ids count every fill; the public fill list is trimmed, so its length would not.
  const tradeIdBefore = engine.state.nextTradeId;
  const started = process.hrtime.bigint();
  let ts = T0 + 1;
  for (let operation = 0; operation < operations; operation++) {
    const roll = rng.nextFloat();
    const uid = uids[operation % ACCOUNTS]!;
    ts++;
    if (roll < 0.3 && resting.length > 0) {
      const pick = rng.nextInt(resting.length);
      const target = resting[pick]!;
      resting[pick] = resting[resting.length - 1]!;
      resting.pop();
      engine.apply({
        type: 'cancelOrders',
        ts,
        uid: target.uid,
        productType: 'USDT-FUTURES',
        symbol: 'BTCUSDT',
        marginCoin: null,
        targets: [{ orderId: target.orderId, clientOid: null }],
      });
      mix.cancel++;
    } else if (roll < 0.5) {
      // Crosses the spread: matches resting orders.
      const side = rng.nextFloat() < 0.5 ? 'buy' : 'sell';
      engine.apply({ type: 'placeOrders', ts, uid, version: 'v2', orders: [crossingOrders[side]] });
      mix.match++;
    } else {
      const side = rng.nextFloat() < 0.5 ? 'buy' : 'sell';
      const offset = 1 + rng.nextInt(99);
      const order = restingOrders[side][side === 'buy' ? 100 - offset : 100 + offset]!;
      const [result] = engine.apply({ type: 'placeOrders', ts, uid, version: 'v2', orders: [order] });
      if (result?.ok === true) resting.push({ uid, orderId: result.orderId });
      mix.place++;
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const fills = engine.state.nextTradeId - tradeIdBefore;
  return { operations, seconds, operationsPerSecond: operations / seconds, fills, mix };
}
