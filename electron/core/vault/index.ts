export { CredentialVault, DEFAULT_VAULT_SERVICE } from './credential-vault';
export type { CredentialVaultOptions, VaultStatus } from './credential-vault';
export type { ApiCredentials } from './credential-rules';
export { maskApiKey } from './credential-rules';
export { keychainAdvice } from './os-keychain';
export {
  CredentialValidationError,
  KeychainFailedError,
  NoCredentialsStoredError,
  UnreadableEntryError,
  VaultError,
  VaultUnavailableError,
} from './vault-errors';
export type { CredentialField, CredentialIssue, VaultErrorCode } from './vault-errors';
