// The ways the vault can refuse, as error types whose messages a person can act on. No message
// ever contains a credential value, so any of them may be shown, logged or sent to the renderer.

export type VaultErrorCode =
  'VAULT_UNAVAILABLE' | 'INVALID_CREDENTIALS' | 'NO_CREDENTIALS' | 'UNREADABLE_ENTRY' | 'KEYCHAIN_FAILED';

export abstract class VaultError extends Error {
  abstract readonly code: VaultErrorCode;
}

/** No usable OS keychain: none running, locked, access denied, or the native library did not load. */
export class VaultUnavailableError extends VaultError {
  override readonly name = 'VaultUnavailableError';
  readonly code = 'VAULT_UNAVAILABLE';

  /** The whole message: what is wrong and what to do about it. */
  readonly reason: string;

  constructor(reason: string, options?: { cause?: unknown }) {
    super(reason, options);
    this.reason = reason;
  }
}

export type CredentialField = 'profileId' | 'apiKey' | 'secretKey' | 'passphrase';

export interface CredentialIssue {
  readonly field: CredentialField;
  readonly message: string;
}

export class CredentialValidationError extends VaultError {
  override readonly name = 'CredentialValidationError';
  readonly code = 'INVALID_CREDENTIALS';

  constructor(readonly issues: readonly CredentialIssue[]) {
    super(`The credentials were not saved: ${issues.map((issue) => issue.message).join(' ')}`);
  }
}

export class NoCredentialsStoredError extends VaultError {
  override readonly name = 'NoCredentialsStoredError';
  readonly code = 'NO_CREDENTIALS';

  constructor(readonly profileId: string) {
    super(`No API key is stored for connection profile "${profileId}": add one instead of replacing it.`);
  }
}

/** The keychain holds an entry under our name that this app did not write or cannot parse. */
export class UnreadableEntryError extends VaultError {
  override readonly name = 'UnreadableEntryError';
  readonly code = 'UNREADABLE_ENTRY';

  constructor(readonly profileId: string) {
    super(
      `The keychain entry for connection profile "${profileId}" cannot be read: delete the credentials and enter them again.`,
    );
  }
}

/** The keychain answered but refused the operation for a reason other than being unavailable. */
export class KeychainFailedError extends VaultError {
  override readonly name = 'KeychainFailedError';
  readonly code = 'KEYCHAIN_FAILED';

  constructor(detail: string, options?: { cause?: unknown }) {
    super(`The OS keychain refused the operation (${detail}). Nothing was changed; try again.`, options);
  }
}
