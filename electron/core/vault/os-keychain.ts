// One service's entries in the OS keychain through @napi-rs/keyring, with every failure turned
// into an error that says what is wrong and what to do. On Linux the Secret Service is required:
// the library's fallback, the kernel keyring, loses everything at reboot, and a plain file is
// never an option.
import type * as Keyring from '@napi-rs/keyring';
import type { AsyncEntry, EntryOptions } from '@napi-rs/keyring';
import { KeychainFailedError, VaultUnavailableError } from './vault-errors';

type KeyringModule = typeof Keyring;

const ENTRY_OPTIONS: EntryOptions = { linux: { store: 'secret-service' } };

/** keyring-rs's wording for "no store to talk to" and "the store refused access". */
const UNAVAILABLE_MESSAGE = /^(Platform failure|Couldn't access platform storage)\b/;

export interface OsKeychainOptions {
  /** The keychain's service name; every entry of this keychain lives under it. */
  readonly service: string;
  /** Whose advice the messages give; the running platform by default. */
  readonly platform?: NodeJS.Platform;
}

/** What a person can do about a missing or refusing keychain on their system. */
export function keychainAdvice(platform: NodeJS.Platform): string {
  switch (platform) {
    case 'darwin':
      return 'macOS denied access to the Keychain: open Keychain Access, unlock the login keychain and allow this app to use it, then try again.';
    case 'win32':
      return 'Windows Credential Manager could not be used: make sure you are signed in to a normal user session and the Credential Manager service is running, then try again.';
    default:
      return 'Install and unlock a Secret Service keychain, such as GNOME Keyring (sudo apt-get install gnome-keyring) or KWallet, and start the app from a desktop session with a D-Bus session bus, then try again.';
  }
}

function detailOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class OsKeychain {
  readonly service: string;
  private readonly platform: NodeJS.Platform;
  private keyring: Promise<KeyringModule> | null = null;

  constructor(options: OsKeychainOptions) {
    this.service = options.service;
    this.platform = options.platform ?? process.platform;
  }

  /** The stored text, or null when the account has no entry. */
  async read(account: string): Promise<string | null> {
    return this.withEntry(account, (entry) => entry.getPassword());
  }

  /** Creates or overwrites the account's entry in one keychain call. */
  async write(account: string, value: string): Promise<void> {
    await this.withEntry(account, (entry) => entry.setPassword(value));
  }

  /** True when an entry was deleted, false when there was none. */
  async remove(account: string): Promise<boolean> {
    return this.withEntry(account, (entry) => entry.deleteCredential());
  }

  private async withEntry<T>(account: string, operation: (entry: AsyncEntry) => Promise<T>): Promise<T> {
    const keyring = await this.loadKeyring();
    try {
      // The constructor already connects on Linux, so it fails here when no D-Bus session runs.
      const entry = new keyring.AsyncEntry(this.service, account, ENTRY_OPTIONS);
      return await operation(entry);
    } catch (error) {
      throw this.translate(error);
    }
  }

  private loadKeyring(): Promise<KeyringModule> {
    this.keyring ??= import('@napi-rs/keyring');
    return this.keyring.catch((error: unknown) => {
      throw new VaultUnavailableError(
        `The OS keychain cannot be used: its native library did not load (${detailOf(error)}). Reinstall the app; nothing was saved.`,
        { cause: error },
      );
    });
  }

  private translate(error: unknown): Error {
    const detail = detailOf(error);
    if (!UNAVAILABLE_MESSAGE.test(detail)) return new KeychainFailedError(detail, { cause: error });
    return new VaultUnavailableError(
      `The OS keychain is not available (${detail}), so API credentials can be neither saved nor read; nothing was written to disk. ${keychainAdvice(this.platform)}`,
      { cause: error },
    );
  }
}
