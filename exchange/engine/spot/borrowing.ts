import { EngineError } from '../errors';
import { divCeil, MONEY_SCALE } from '../money';
import type { EngineState } from '../state';
import type { Trading } from '../trading';
import type { Account } from '../types';
import { spotIndexTicks } from './spot-index';
import type { Liability, SpotAccount } from './spot-state';

const HOUR_MS = 3_600_000;
const RATE_SCALE = 1_000_000_000n;

// Daily interest rates in billionths. Spot margin interest accrues hourly at daily rate / 24, a
// started hour counting as a whole one, and is paid before the principal; the published example
// rates are 0.0126279% a day for USDT and 0.007% for BTC
// (https://www.bitget.com/support/articles/12560603799000).
const DAILY_RATE_PPB: Readonly<Record<string, bigint>> = { USDT: 126_279n, BTC: 70_000n };
const DEFAULT_DAILY_RATE_PPB = 100_000n;

// Cross margin borrows up to margin x (maximum multiple - 1), the cross multiple being 3x, so the
// liabilities may reach twice the net equity (https://www.bitget.com/support/articles/12560603798784).
export const CROSS_MARGIN_MULTIPLE = 3n;
const BORROW_TIMES_EQUITY = CROSS_MARGIN_MULTIPLE - 1n;

export function dailyRatePpb(coin: string): bigint {
  return DAILY_RATE_PPB[coin] ?? DEFAULT_DAILY_RATE_PPB;
}

/** Interest on `amount` for `hours` hours: amount x (daily rate / 24) x hours, rounded up. */
export function interestFor(coin: string, amount: bigint, hours: number): bigint {
  if (amount <= 0n || hours <= 0) return 0n;
  return divCeil(amount * dailyRatePpb(coin) * BigInt(hours), 24n * RATE_SCALE);
}

function hourOf(ts: number): number {
  return Math.floor(ts / HOUR_MS);
}

/** Interest of the hours begun since the liability was last charged, up to `ts`. */
function pendingInterest(coin: string, liability: Liability, ts: number): bigint {
  return interestFor(coin, liability.principal, hourOf(ts) - liability.chargedHour);
}

/** What is owed of a coin at `ts`: principal and interest, hours begun included. */
export function debtAt(coin: string, liability: Liability | undefined, ts: number): bigint {
  if (liability === undefined) return 0n;
  return liability.principal + liability.interest + pendingInterest(coin, liability, ts);
}

/** The unified account's borrowing: loans, hourly interest, automatic repayment, limits. */
export class Borrowing {
  constructor(
    private readonly state: EngineState,
    private readonly trading: Trading,
  ) {}

  /** Price of one whole coin in 1e-8 USDT, or null when the coin has no USDT market. */
  priceInUsdt(coin: string): bigint | null {
    if (coin === 'USDT' || coin === 'USDC') return MONEY_SCALE;
    const market = this.state.spot.markets.get(`${coin}USDT`);
    if (market === undefined) return null;
    const ticks = spotIndexTicks(this.state, market.spec) ?? market.lastPrice;
    return BigInt(ticks) * 10n ** BigInt(8 - market.spec.pricePlace);
  }

  valueInUsdt(coin: string, amount: bigint): bigint {
    const price = this.priceInUsdt(coin);
    return price === null ? 0n : (amount * price) / MONEY_SCALE;
  }

  /** Net equity in USDT: every coin held, less every coin owed. */
  netEquity(account: Account, ts: number): bigint {
    let equity = 0n;
    for (const [coin, balance] of account.balances) equity += this.valueInUsdt(coin, balance);
    return equity - this.debtValue(account, ts);
  }

  /** Everything owed, valued in USDT. */
  debtValue(account: Account, ts: number): bigint {
    const spot = this.state.spot.accounts.get(account.uid);
    if (spot === undefined) return 0n;
    let total = 0n;
    for (const [coin, liability] of spot.liabilities) {
      total += this.valueInUsdt(coin, debtAt(coin, liability, ts));
    }
    return total;
  }

  /** Refuses a loan beyond the cross-margin limit, before anything changes. */
  checkBorrow(account: Account, coin: string, amount: bigint, ts: number): void {
    if (amount <= 0n) return;
    const price = this.priceInUsdt(coin);
    if (price === null) {
      throw EngineError.detailed('insufficientMarginV3', `Insufficient margin: ${coin} cannot be borrowed`);
    }
    const limit = BORROW_TIMES_EQUITY * this.netEquity(account, ts);
    const after = this.debtValue(account, ts) + (amount * price) / MONEY_SCALE;
    if (after > limit) {
      throw EngineError.detailed(
        'insufficientMarginV3',
        `Insufficient margin: borrowing ${coin} would owe ${formatUsdt(after)} USDT, beyond the cross margin limit of ${formatUsdt(limit)} USDT (${CROSS_MARGIN_MULTIPLE}x)`,
      );
    }
  }

  /** Lends `amount` of `coin` into the wallet; the hour begun is charged at once. */
  borrow(account: Account, coin: string, amount: bigint, symbol: string, ts: number): void {
    if (amount <= 0n) return;
    const liability = this.liabilityOf(this.state.spot.accountOf(account.uid), coin, ts);
    this.accrue(coin, liability, ts);
    liability.principal += amount;
    liability.interest += interestFor(coin, amount, 1);
    this.state.ledger.apply(
      account,
      { category: 'MARGIN', symbol, coin, type: 'BORROW', amount, fee: 0n },
      ts,
    );
  }

  /** Pays back what is owed of `coin` from its free balance: interest first, then principal. */
  autoRepay(account: Account, coin: string, symbol: string, ts: number): void {
    const spot = this.state.spot.accounts.get(account.uid);
    const liability = spot?.liabilities.get(coin);
    if (spot === undefined || liability === undefined) return;
    this.accrue(coin, liability, ts);
    const free = this.trading.available(account, coin);
    if (free <= 0n) return;
    const owed = liability.principal + liability.interest;
    const paid = free < owed ? free : owed;
    const interestPaid = paid < liability.interest ? paid : liability.interest;
    const principalPaid = paid - interestPaid;
    if (interestPaid > 0n) {
      liability.interest -= interestPaid;
      this.state.ledger.apply(
        account,
        { category: 'MARGIN', symbol, coin, type: 'INTEREST', amount: -interestPaid, fee: 0n },
        ts,
      );
    }
    if (principalPaid > 0n) {
      liability.principal -= principalPaid;
      this.state.ledger.apply(
        account,
        { category: 'MARGIN', symbol, coin, type: 'REPAY', amount: -principalPaid, fee: 0n },
        ts,
      );
    }
    if (liability.principal === 0n && liability.interest === 0n) spot.liabilities.delete(coin);
  }

  /**
   * E14: `maxTransfer` is what can leave without borrowing: the coin's free balance less what is
   * owed of it, and no more than keeps the liabilities within the limit (L <= 2 x equity).
   * `borrowMaxTransfer` adds what could be borrowed of the coin and sent out too: b such that
   * L + b <= 2 x (equity - maxTransfer - b).
   */
  maxTransferable(account: Account, coin: string, ts: number): { maxTransfer: bigint; borrowMax: bigint } {
    const spot = this.state.spot.accounts.get(account.uid);
    const owed = debtAt(coin, spot?.liabilities.get(coin), ts);
    const free = this.trading.available(account, coin) - owed;
    let maxTransfer = free > 0n ? free : 0n;
    const price = this.priceInUsdt(coin);
    const debt = this.debtValue(account, ts);
    if (debt === 0n || price === null) {
      return { maxTransfer, borrowMax: maxTransfer + this.borrowableAfter(account, coin, maxTransfer, ts) };
    }
    const equity = this.netEquity(account, ts);
    const headroom = equity - divCeil(debt, BORROW_TIMES_EQUITY);
    const headroomCoin = headroom > 0n ? (headroom * MONEY_SCALE) / price : 0n;
    if (headroomCoin < maxTransfer) maxTransfer = headroomCoin;
    return { maxTransfer, borrowMax: maxTransfer + this.borrowableAfter(account, coin, maxTransfer, ts) };
  }

  /** Coin that could be borrowed and sent out once `sent` of it has left. */
  private borrowableAfter(account: Account, coin: string, sent: bigint, ts: number): bigint {
    const price = this.priceInUsdt(coin);
    if (price === null || price === 0n) return 0n;
    const equity = this.netEquity(account, ts) - (sent * price) / MONEY_SCALE;
    const room = BORROW_TIMES_EQUITY * equity - this.debtValue(account, ts);
    if (room <= 0n) return 0n;
    return (room * MONEY_SCALE) / ((BORROW_TIMES_EQUITY + 1n) * price);
  }

  private liabilityOf(spot: SpotAccount, coin: string, ts: number): Liability {
    let liability = spot.liabilities.get(coin);
    if (liability === undefined) {
      liability = { principal: 0n, interest: 0n, chargedHour: hourOf(ts) };
      spot.liabilities.set(coin, liability);
    }
    return liability;
  }

  /** Charges the hours begun since the last charge. */
  private accrue(coin: string, liability: Liability, ts: number): void {
    liability.interest += pendingInterest(coin, liability, ts);
    liability.chargedHour = Math.max(liability.chargedHour, hourOf(ts));
  }
}

function formatUsdt(amount: bigint): string {
  const whole = amount / MONEY_SCALE;
  return whole.toString();
}
