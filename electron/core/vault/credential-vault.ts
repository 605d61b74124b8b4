// API credentials per connection profile, kept in the OS keychain and nowhere else. The three
// values of a profile are one keychain entry (JSON), so a set or replace is all-or-nothing.
//
// Write-only towards the renderer: IPC handlers may call set, replace, delete and status. Only
// revealForSigning returns the secret and passphrase, and it is for the signing client in main.
import { z } from 'zod';
import { assertValidCredentials, assertValidProfileId, maskApiKey } from './credential-rules';
import type { ApiCredentials } from './credential-rules';
import { OsKeychain } from './os-keychain';
import { NoCredentialsStoredError, UnreadableEntryError, VaultUnavailableError } from './vault-errors';

export const DEFAULT_VAULT_SERVICE = 'trading-terminal';

/** What the renderer may know about a profile's credentials. */
export type VaultStatus =
  | { readonly state: 'stored'; readonly maskedKey: string }
  /** An entry exists under our name but cannot be parsed; deleting it is the way out. */
  | { readonly state: 'stored'; readonly maskedKey: null; readonly reason: string }
  | { readonly state: 'empty'; readonly maskedKey: null }
  | { readonly state: 'unavailable'; readonly maskedKey: null; readonly reason: string };

export interface CredentialVaultOptions {
  /** The keychain service name; tests use their own so they never touch a person's entries. */
  readonly service?: string;
  /** Whose advice the unavailable message gives; the running platform by default. */
  readonly platform?: NodeJS.Platform;
}

const STORED_ENTRY = z.object({
  version: z.literal(1),
  apiKey: z.string(),
  secretKey: z.string(),
  passphrase: z.string(),
});

export class CredentialVault {
  private readonly keychain: OsKeychain;
  /** Operations on one profile run one after another, so replace's check and write cannot interleave. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(options: CredentialVaultOptions = {}) {
    this.keychain = new OsKeychain({
      service: options.service ?? DEFAULT_VAULT_SERVICE,
      platform: options.platform,
    });
  }

  /** Stores the profile's credentials, overwriting any it had. */
  async set(profileId: string, credentials: ApiCredentials): Promise<VaultStatus> {
    assertValidProfileId(profileId);
    assertValidCredentials(credentials);
    return this.serialized(profileId, () => this.write(profileId, credentials));
  }

  /** Like set, but fails with NoCredentialsStoredError when the profile has none yet. */
  async replace(profileId: string, credentials: ApiCredentials): Promise<VaultStatus> {
    assertValidProfileId(profileId);
    assertValidCredentials(credentials);
    return this.serialized(profileId, async () => {
      if ((await this.keychain.read(accountOf(profileId))) === null) {
        throw new NoCredentialsStoredError(profileId);
      }
      return this.write(profileId, credentials);
    });
  }

  /** True when credentials were deleted, false when the profile had none. */
  async delete(profileId: string): Promise<boolean> {
    assertValidProfileId(profileId);
    return this.serialized(profileId, () => this.keychain.remove(accountOf(profileId)));
  }

  /** Never throws for a missing keychain: that is the 'unavailable' state with its reason. */
  async status(profileId: string): Promise<VaultStatus> {
    assertValidProfileId(profileId);
    return this.serialized(profileId, async () => {
      try {
        const credentials = await this.read(profileId);
        if (credentials === null) return { state: 'empty', maskedKey: null };
        return { state: 'stored', maskedKey: maskApiKey(credentials.apiKey) };
      } catch (error) {
        if (error instanceof VaultUnavailableError) {
          return { state: 'unavailable', maskedKey: null, reason: error.reason };
        }
        if (error instanceof UnreadableEntryError)
          return { state: 'stored', maskedKey: null, reason: error.message };
        throw error;
      }
    });
  }

  /**
   * MAIN PROCESS ONLY: the secret and passphrase, for signing requests. No IPC handler may call
   * this or pass its result on; the renderer gets status() and nothing more. Null when the
   * profile has no credentials.
   */
  async revealForSigning(profileId: string): Promise<ApiCredentials | null> {
    assertValidProfileId(profileId);
    return this.serialized(profileId, () => this.read(profileId));
  }

  private async write(profileId: string, credentials: ApiCredentials): Promise<VaultStatus> {
    const { apiKey, secretKey, passphrase } = credentials;
    const entry: z.infer<typeof STORED_ENTRY> = { version: 1, apiKey, secretKey, passphrase };
    await this.keychain.write(accountOf(profileId), JSON.stringify(entry));
    return { state: 'stored', maskedKey: maskApiKey(apiKey) };
  }

  private async read(profileId: string): Promise<ApiCredentials | null> {
    const text = await this.keychain.read(accountOf(profileId));
    if (text === null) return null;
    const parsed = STORED_ENTRY.safeParse(parseJson(text));
    if (!parsed.success) throw new UnreadableEntryError(profileId);
    const { apiKey, secretKey, passphrase } = parsed.data;
    return { apiKey, secretKey, passphrase };
  }

  private serialized<T>(profileId: string, operation: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(profileId) ?? Promise.resolve();
    const result = previous.then(operation, operation);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(profileId, settled);
    void settled.then(() => {
      if (this.queues.get(profileId) === settled) this.queues.delete(profileId);
    });
    return result;
  }
}

function accountOf(profileId: string): string {
  return `profile:${profileId}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
