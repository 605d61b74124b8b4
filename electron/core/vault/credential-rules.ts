// What the vault accepts as API credentials and how a stored key is shown. The values travel in
// HTTP headers, so only visible ASCII is allowed; a pasted space or line break is refused rather
// than trimmed, so what is stored is exactly what was entered.
import { CredentialValidationError } from './vault-errors';
import type { CredentialField, CredentialIssue } from './vault-errors';

export interface ApiCredentials {
  readonly apiKey: string;
  readonly secretKey: string;
  readonly passphrase: string;
}

interface FieldRule {
  readonly label: string;
  readonly minLength: number;
  readonly maxLength: number;
}

const FIELD_RULES: Readonly<Record<keyof ApiCredentials, FieldRule>> = {
  apiKey: { label: 'The API key', minLength: 16, maxLength: 128 },
  secretKey: { label: 'The secret key', minLength: 16, maxLength: 256 },
  passphrase: { label: 'The passphrase', minLength: 1, maxLength: 128 },
};

const PROFILE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const WHITESPACE = /\s/;
const VISIBLE_ASCII = /^[\x21-\x7e]*$/;

const MASK_VISIBLE_CHARS = 4;

function fieldIssue(field: keyof ApiCredentials, value: unknown): CredentialIssue | null {
  const { label, minLength, maxLength } = FIELD_RULES[field];
  const problem = (message: string): CredentialIssue => ({ field, message: `${label} ${message}.` });
  if (typeof value !== 'string') return problem('is missing');
  if (value.length === 0) return problem('is empty');
  if (WHITESPACE.test(value)) return problem('contains a space or line break; copy it again without them');
  if (!VISIBLE_ASCII.test(value))
    return problem('contains a character that is not plain ASCII; copy it again');
  if (value.length < minLength || value.length > maxLength) {
    return problem(`has ${value.length} characters; it should have ${minLength} to ${maxLength}`);
  }
  return null;
}

/** Throws CredentialValidationError listing every problem; messages never quote the values. */
export function assertValidCredentials(credentials: ApiCredentials): void {
  const issues = (Object.keys(FIELD_RULES) as (keyof ApiCredentials)[])
    .map((field) => fieldIssue(field, credentials[field]))
    .filter((issue): issue is CredentialIssue => issue !== null);
  if (issues.length > 0) throw new CredentialValidationError(issues);
}

export function assertValidProfileId(profileId: string): void {
  if (typeof profileId === 'string' && PROFILE_ID.test(profileId)) return;
  const field: CredentialField = 'profileId';
  throw new CredentialValidationError([
    { field, message: 'The connection profile id should be 1 to 64 letters, digits, "-" or "_".' },
  ]);
}

/** The key as the renderer may show it: first and last four characters, e.g. "bg_1…9f3c". */
export function maskApiKey(apiKey: string): string {
  return `${apiKey.slice(0, MASK_VISIBLE_CHARS)}…${apiKey.slice(-MASK_VISIBLE_CHARS)}`;
}
