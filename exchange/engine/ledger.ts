import type { RecordCategory } from '../../shared/api/enums';
import type { ContractSpec } from './contracts';
import type { Account, FinancialRecord } from './types';

/** Records kept per account: about 90 days of a busy account, never unbounded. */
export const MAX_RECORDS_PER_ACCOUNT = 50_000;

export interface BalanceChange {
  readonly category: RecordCategory;
  readonly symbol: string;
  readonly coin: string;
  readonly type: string;
  /** Signed change before fees, money units. */
  readonly amount: bigint;
  /** Fee charged (a positive number is taken from the balance), money units. */
  readonly fee: bigint;
}

const NO_ACCOUNTS: ReadonlySet<Account> = new Set();

/** The one way a balance changes: it moves and leaves a financial record. */
export class Ledger {
  /** Accounts whose balance moved since the last takeChangedAccounts(). */
  private changed = new Set<Account>();

  constructor(private nextRecordId: number) {}

  /** The accounts whose balance moved since the last call, for checks that follow every change. */
  takeChangedAccounts(): ReadonlySet<Account> {
    if (this.changed.size === 0) return NO_ACCOUNTS;
    const changed = this.changed;
    this.changed = new Set();
    return changed;
  }

  get nextId(): number {
    return this.nextRecordId;
  }

  /** A change in a futures contract's margin coin, recorded under its product type and symbol. */
  applyForContract(
    account: Account,
    contract: Pick<ContractSpec, 'productType' | 'symbol' | 'marginCoin'>,
    change: { type: string; amount: bigint; fee: bigint },
    ts: number,
  ): FinancialRecord {
    const { productType, symbol, marginCoin } = contract;
    return this.apply(account, { category: productType, symbol, coin: marginCoin, ...change }, ts);
  }

  apply(account: Account, change: BalanceChange, ts: number): FinancialRecord {
    const before = account.balances.get(change.coin) ?? 0n;
    const after = before + change.amount - change.fee;
    account.balances.set(change.coin, after);
    this.changed.add(account);
    const record: FinancialRecord = {
      id: this.nextRecordId++,
      category: change.category,
      symbol: change.symbol,
      coin: change.coin,
      type: change.type,
      amount: change.amount,
      fee: -change.fee,
      balance: after,
      ts,
    };
    account.records.push(record);
    // Trimmed in chunks, so a busy account does not shift its whole history on every record.
    if (account.records.length > MAX_RECORDS_PER_ACCOUNT + 1_000) {
      account.records.splice(0, account.records.length - MAX_RECORDS_PER_ACCOUNT);
    }
    return record;
  }
}
