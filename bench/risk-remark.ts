// Cost of one mark price change with many open positions and trigger plans: the liquidation check
// re-marks every position of the symbol and the trigger check looks at every plan, applied as the
// server applies an admin price move (no HTTP, no journal).
import { DEFAULT_CONTRACTS } from '../exchange/engine/contracts';
import { Engine } from '../exchange/engine/engine';
import type { PlaceOrderInput } from '../exchange/engine/trading';
import {
  createAccountCommand,
  futuresOrder,
  placeOrdersCommand,
  T0,
  tpslCommand,
} from '../exchange/testing/engine-commands';

export interface RemarkBenchResult {
  /** Whether one account held several crossed positions, which makes every change scan them all. */
  fullScan: boolean;
  positions: number;
  plans: number;
  priceChanges: number;
  microsecondsPerChange: number;
}

/** A crossed or isolated BTCUSDT limit order of 0.01 at 95,000. */
function order(side: 'buy' | 'sell', marginMode: 'crossed' | 'isolated'): PlaceOrderInput {
  return futuresOrder({ side, marginMode, price: '95000', size: '0.01' });
}

/**
 * Opens `positions` positions (half isolated, half crossed) with one mark-price plan each. With
 * `fullScan`, one more account holds crossed BTCUSDT and ETHUSDT positions, whose liquidation
 * depends on two marks: then no change can be ruled out by the thresholds alone.
 */
export function runRemarkBench(positions: number, priceChanges: number, fullScan = false): RemarkBenchResult {
  const engine = new Engine({ seed: 1, contracts: DEFAULT_CONTRACTS });
  let ts = T0;
  engine.apply({ type: 'setMarketPaused', ts, paused: true });
  for (let index = 0; index < positions; index++) {
    const uid = `risk${index}`;
    engine.apply(
      createAccountCommand(uid, { ts, label: '', balances: { USDT: '10000' }, apiKey: `risk-key-${index}` }),
    );
    const side = index % 2 === 0 ? 'sell' : 'buy';
    const marginMode = index % 4 < 2 ? 'isolated' : 'crossed';
    engine.apply(placeOrdersCommand(uid, ++ts, order(side, marginMode)));
  }
  for (let index = 0; index < positions; index++) {
    const uid = `risk${index}`;
    const long = index % 2 === 1;
    const holdSide = long ? 'long' : 'short';
    const triggerPrice = long ? '150000' : '50000';
    engine.apply(tpslCommand(uid, ts, holdSide, { kind: 'profit', triggerPrice, triggerType: 'mark_price' }));
  }
  if (fullScan) {
    for (const [uid, side] of [
      ['multi', 'buy'],
      ['multi-maker', 'sell'],
    ] as const) {
      engine.apply(
        createAccountCommand(uid, { ts, label: '', balances: { USDT: '100000' }, apiKey: `risk-key-${uid}` }),
      );
      const eth = { ...order(side, 'crossed'), symbol: 'ETHUSDT', price: '3400', size: '0.1' };
      engine.apply(placeOrdersCommand(uid, ++ts, order(side, 'crossed'), eth));
    }
  }
  const plans = engine.state.plans.size;
  const held = engine.state.positions.size;
  const prices = ['95010', '94990'];
  for (let index = 0; index < 20; index++) {
    engine.apply({ type: 'setPrice', ts: ++ts, symbol: 'BTCUSDT', price: prices[index % 2] as string });
  }
  const started = process.hrtime.bigint();
  for (let index = 0; index < priceChanges; index++) {
    engine.apply({ type: 'setPrice', ts: ++ts, symbol: 'BTCUSDT', price: prices[index % 2] as string });
  }
  const elapsed = Number(process.hrtime.bigint() - started) / 1_000;
  if (engine.state.positions.size !== held) throw new Error('a position was liquidated during the bench');
  return { fullScan, positions: held, plans, priceChanges, microsecondsPerChange: elapsed / priceChanges };
}

export function formatRemarkFigure(result: RemarkBenchResult): string {
  return (
    `Re-marking per price change (${result.positions.toLocaleString('en-US')} open positions, half isolated, ` +
    `${result.plans.toLocaleString('en-US')} mark-price trigger plans, ${result.priceChanges} changes)\n` +
    `  ${Math.round(result.microsecondsPerChange).toLocaleString('en-US')} µs per price change ` +
    (result.fullScan
      ? '(one account with crossed positions on two symbols, so checked in full at every change)'
      : '(no position near its liquidation price: one comparison per symbol, then every plan)')
  );
}
