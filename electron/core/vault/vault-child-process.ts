// Runs vault operations in a process of its own, for tests that need an environment the test
// runner cannot have: no D-Bus session, a locked keyring, a home folder to inspect afterwards.
// Input comes from VAULT_CHILD_* variables; one JSON line of outcomes goes to stdout. Revealed
// values are reported only as present or absent, so no secret reaches the output.
import { CredentialVault } from './credential-vault';
import type { ApiCredentials } from './credential-rules';
import { VaultError } from './vault-errors';

export const VAULT_CHILD_STEPS = ['set', 'replace', 'delete', 'status', 'reveal'] as const;
export type VaultChildStep = (typeof VAULT_CHILD_STEPS)[number];

export type VaultChildOutcome =
  | { readonly step: VaultChildStep; readonly outcome: 'ok'; readonly value: unknown }
  | {
      readonly step: VaultChildStep;
      readonly outcome: 'error';
      readonly name: string;
      readonly code: string | null;
      readonly message: string;
    };

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
}

function isStep(step: string): step is VaultChildStep {
  return (VAULT_CHILD_STEPS as readonly string[]).includes(step);
}

async function run(
  vault: CredentialVault,
  step: VaultChildStep,
  profileId: string,
  credentials: ApiCredentials,
) {
  switch (step) {
    case 'set':
      return vault.set(profileId, credentials);
    case 'replace':
      return vault.replace(profileId, credentials);
    case 'delete':
      return vault.delete(profileId);
    case 'status':
      return vault.status(profileId);
    case 'reveal':
      return { revealed: (await vault.revealForSigning(profileId)) !== null };
  }
}

const vault = new CredentialVault({ service: required('VAULT_CHILD_SERVICE') });
const profileId = required('VAULT_CHILD_PROFILE');
const credentials: ApiCredentials = {
  apiKey: required('VAULT_CHILD_API_KEY'),
  secretKey: required('VAULT_CHILD_SECRET_KEY'),
  passphrase: required('VAULT_CHILD_PASSPHRASE'),
};
const outcomes: VaultChildOutcome[] = [];
for (const step of required('VAULT_CHILD_STEPS').split(',')) {
  if (!isStep(step)) throw new Error(`unknown step ${step}`);
  try {
    outcomes.push({ step, outcome: 'ok', value: await run(vault, step, profileId, credentials) });
  } catch (error) {
    const name = error instanceof Error ? error.name : typeof error;
    const message = error instanceof Error ? error.message : String(error);
    const code = error instanceof VaultError ? error.code : null;
    outcomes.push({ step, outcome: 'error', name, code, message });
  }
}
process.stdout.write(`${JSON.stringify(outcomes)}\n`);
