import type { DepositAccountType } from '../../shared/api/enums';
import { EngineError } from './errors';
import { parseMoney } from './money';
import type { EngineState } from './state';
import type { Account } from './types';
import { categoryOfCoin } from './categories';

export interface DepositResult {
  uid: string;
  coin: string;
  amount: bigint;
  accountType: DepositAccountType;
  /** The balance of the coin in the receiving account after the deposit, money units. */
  balance: bigint;
}

export interface LoanResult {
  uid: string;
  coin: string;
  amount: bigint;
  /** All the institutional loan transferred to the account in this coin so far, money units. */
  transfered: bigint;
}

/** The deposit account a coin lands in: E16's choice, else the funding account (the live default). */
export function depositAccountOf(account: Account, coin: string): DepositAccountType {
  return account.depositAccounts.get(coin) ?? 'funding';
}

function positiveAmount(text: string): bigint {
  const amount = parseMoney(text);
  if (amount === null || amount <= 0n) {
    throw EngineError.detailed(
      'paramError',
      `Parameter amount error: ${text} is not a positive amount with at most 8 decimals`,
    );
  }
  return amount;
}

/**
 * A simulated on-chain deposit. It lands in the account type chosen by E16 for the coin: the
 * unified account (a TRANSFER_IN financial record, since E5 lists the unified account's movements)
 * or the funding or OTC account, which the unified account's records do not cover.
 */
export function deposit(
  state: EngineState,
  account: Account,
  coin: string,
  text: string,
  ts: number,
): DepositResult {
  const amount = positiveAmount(text);
  const accountType = depositAccountOf(account, coin);
  state.version++;
  if (accountType === 'unified') {
    const record = state.ledger.apply(
      account,
      { category: categoryOfCoin(coin), symbol: '', coin, type: 'TRANSFER_IN', amount, fee: 0n },
      ts,
    );
    return { uid: account.uid, coin, amount, accountType, balance: record.balance };
  }
  let wallet = account.wallets.get(accountType);
  if (wallet === undefined) {
    wallet = new Map();
    account.wallets.set(accountType, wallet);
  }
  const balance = (wallet.get(coin) ?? 0n) + amount;
  wallet.set(coin, balance);
  return { uid: account.uid, coin, amount, accountType, balance };
}

/**
 * An institutional loan transferred to an account (a master account or one of its sub-accounts):
 * the coin is credited to the unified account and E10 reports the amount transferred.
 */
export function attachLoan(
  state: EngineState,
  account: Account,
  coin: string,
  text: string,
  ts: number,
): LoanResult {
  const amount = positiveAmount(text);
  state.version++;
  state.ledger.apply(
    account,
    { category: categoryOfCoin(coin), symbol: '', coin, type: 'INS_LOAN_TRANSFER_IN', amount, fee: 0n },
    ts,
  );
  const transfered = (account.insLoans.get(coin) ?? 0n) + amount;
  account.insLoans.set(coin, transfered);
  return { uid: account.uid, coin, amount, transfered };
}
