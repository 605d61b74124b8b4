// Liquidation skips a symbol whose mark stays clear of every threshold it has seen; these cases
// check that a threshold that moved since, and an account that depends on two marks, still count.
import { describe, expect, it } from 'vitest';
import type { MarginMode } from '../../../shared/api/enums';
import {
  createAccountCommand,
  futuresOrder,
  marginAndLeverageCommands,
  placeOrdersCommand,
  T0,
} from '../../testing/engine-commands';
import { DEFAULT_CONTRACTS } from '../contracts';
import { Engine } from '../engine';

class Scenario {
  readonly engine = new Engine({ seed: 5, contracts: DEFAULT_CONTRACTS });
  private ts = T0;

  constructor() {
    this.engine.apply({ type: 'setMarketPaused', ts: this.ts, paused: true });
    this.price('BTCUSDT', '95000');
    this.price('ETHUSDT', '3400');
  }

  price(symbol: string, price: string): void {
    this.engine.apply({ type: 'setPrice', ts: ++this.ts, symbol, price });
  }

  account(uid: string, usdt: string, symbol: string, marginMode: MarginMode, leverage: number): void {
    this.engine.apply(createAccountCommand(uid, { ts: this.ts, label: '', balances: { USDT: usdt } }));
    this.settings(uid, symbol, marginMode, leverage);
  }

  settings(uid: string, symbol: string, marginMode: MarginMode, leverage: number): void {
    for (const command of marginAndLeverageCommands(uid, marginMode, leverage, { ts: this.ts, symbol })) {
      this.engine.apply(command);
    }
  }

  /** `buyer` buys `size` of `symbol` at `price` from a fresh crossed seller with plenty of margin. */
  buy(buyer: string, symbol: string, price: string, size: string): void {
    const seller = `seller-${this.ts}`;
    this.account(seller, '1000000', symbol, 'crossed', 5);
    const order = (side: 'buy' | 'sell') =>
      futuresOrder({ symbol, marginCoin: null, marginMode: null, side, price, size });
    const sold = this.engine.apply(placeOrdersCommand(seller, ++this.ts, order('sell')));
    const bought = this.engine.apply(placeOrdersCommand(buyer, ++this.ts, order('buy')));
    expect([...sold, ...bought].every((result) => result.ok)).toBe(true);
  }

  holds(uid: string): string[] {
    return this.engine.state.positionsOf(uid).map((position) => `${position.symbol} ${position.lots}`);
  }
}

describe('liquidation bounds per symbol', () => {
  it('a position opened after the bounds were taken is liquidated at its own threshold', () => {
    const scenario = new Scenario();
    scenario.account('far', '100000', 'BTCUSDT', 'isolated', 100);
    scenario.buy('far', 'BTCUSDT', '95000', '0.01');
    // Both moves stay above far's liquidation price (about 94,500 at 100x): bounds are taken.
    scenario.price('BTCUSDT', '96000');
    scenario.price('BTCUSDT', '95500');
    expect(scenario.holds('far')).toEqual(['BTCUSDT 100']);

    // near opens at 125x from 95,500: its liquidation price is about 95,180, above far's.
    scenario.account('near', '100000', 'BTCUSDT', 'isolated', 125);
    scenario.buy('near', 'BTCUSDT', '95500', '0.01');
    scenario.price('BTCUSDT', '95100');
    expect(scenario.holds('near')).toEqual([]);
    expect(scenario.holds('far')).toEqual(['BTCUSDT 100']);
  });

  it('an account whose crossed equity depends on two marks is checked at every move', () => {
    const scenario = new Scenario();
    // Far from liquidation: isolated at 2x, liquidated only near half the price.
    scenario.account('calm', '100000', 'BTCUSDT', 'isolated', 2);
    scenario.buy('calm', 'BTCUSDT', '95000', '0.01');
    // 100 USDT crossed across BTC and ETH: about 100 USDT of BTC loss liquidates it.
    scenario.account('thin', '100', 'BTCUSDT', 'crossed', 125);
    scenario.settings('thin', 'ETHUSDT', 'crossed', 100);
    scenario.buy('thin', 'BTCUSDT', '95000', '0.01');
    scenario.buy('thin', 'ETHUSDT', '3400', '0.1');
    scenario.price('BTCUSDT', '94000');
    expect(scenario.holds('thin')).toEqual(['ETHUSDT 10', 'BTCUSDT 100']);

    // 85,000 is far above calm's threshold, so only the accounts of several marks are looked at.
    scenario.price('BTCUSDT', '85000');
    expect(scenario.holds('thin')).toEqual([]);
    expect(scenario.holds('calm')).toEqual(['BTCUSDT 100']);
  });
});
