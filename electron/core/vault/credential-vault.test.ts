import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { accessSync, constants, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Entry, findCredentials } from '@napi-rs/keyring';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialVault } from './credential-vault';
import type { ApiCredentials } from './credential-rules';
import type { VaultChildOutcome, VaultChildStep } from './vault-child-process';
import { CredentialValidationError, NoCredentialsStoredError, UnreadableEntryError } from './vault-errors';

const run = promisify(execFile);

const keychainTestsSkipped = process.env.VAULT_TESTS === 'skip';
const NO_KEYCHAIN_HELP =
  'Run the tests with `npm test`, which starts a D-Bus session with an unlocked gnome-keyring ' +
  '(needs: apt-get install -y gnome-keyring dbus dbus-x11), or set VAULT_TESTS=skip to skip the keychain tests on purpose.';

function freshCredentials(): ApiCredentials {
  return {
    apiKey: `bg_${randomBytes(16).toString('hex')}`,
    secretKey: randomBytes(32).toString('hex'),
    passphrase: randomBytes(12).toString('base64url'),
  };
}

function rawEntry(service: string, profileId: string): Entry {
  return new Entry(service, `profile:${profileId}`, { linux: { store: 'secret-service' } });
}

describe.skipIf(keychainTestsSkipped)('CredentialVault on the real OS keychain', () => {
  // A service name of its own, so the tests never see or touch a person's real entries.
  const service = `trading-terminal-test-${randomUUID()}`;
  const vault = new CredentialVault({ service });
  const profiles = new Set<string>();
  let keychainReachable = false;
  const profile = (name: string): string => {
    profiles.add(name);
    return name;
  };

  beforeAll(async () => {
    const probe = profile('keychain-probe');
    try {
      await vault.set(probe, freshCredentials());
      await vault.delete(probe);
      keychainReachable = true;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`No usable OS keychain, so the vault cannot be tested. ${reason}\n${NO_KEYCHAIN_HELP}`);
    }
  });

  afterAll(async () => {
    if (!keychainReachable) return;
    for (const profileId of profiles) await vault.delete(profileId);
  });

  it('stores credentials, shows only a masked key and reveals them to main', async () => {
    const alpha = profile('alpha');
    const credentials = freshCredentials();

    const afterSet = await vault.set(alpha, credentials);
    const status = await vault.status(alpha);

    const maskedKey = `${credentials.apiKey.slice(0, 4)}…${credentials.apiKey.slice(-4)}`;
    expect(afterSet).toEqual({ state: 'stored', maskedKey });
    expect(status).toEqual({ state: 'stored', maskedKey });
    expect(JSON.stringify(status)).not.toContain(credentials.secretKey);
    expect(JSON.stringify(status)).not.toContain(credentials.passphrase);
    expect(await vault.revealForSigning(alpha)).toEqual(credentials);
  });

  it('keeps a profile as one keychain entry holding all three values', async () => {
    const single = profile('single-entry');
    const credentials = freshCredentials();

    await vault.set(single, credentials);

    const accounts = findCredentials(service).map((credential) => credential.account);
    expect(accounts.filter((account) => account === 'profile:single-entry')).toHaveLength(1);
    const stored = JSON.parse(rawEntry(service, single).getPassword() ?? 'null') as unknown;
    expect(stored).toMatchObject(credentials);
  });

  it('finds the credentials again from a new vault, as after a restart', async () => {
    const restart = profile('restart');
    const credentials = freshCredentials();
    await vault.set(restart, credentials);

    const reopened = new CredentialVault({ service });

    expect(await reopened.revealForSigning(restart)).toEqual(credentials);
  });

  it('reports a profile without credentials as empty', async () => {
    const nothing = profile('never-set');

    expect(await vault.status(nothing)).toEqual({ state: 'empty', maskedKey: null });
    expect(await vault.revealForSigning(nothing)).toBeNull();
  });

  it('replaces stored credentials, and refuses to replace what does not exist', async () => {
    const beta = profile('beta');
    const first = freshCredentials();
    const second = freshCredentials();
    await vault.set(beta, first);

    await expect(vault.replace(beta, second)).resolves.toEqual({
      state: 'stored',
      maskedKey: `${second.apiKey.slice(0, 4)}…${second.apiKey.slice(-4)}`,
    });
    expect(await vault.revealForSigning(beta)).toEqual(second);

    const missing = profile('not-there');
    await expect(vault.replace(missing, first)).rejects.toBeInstanceOf(NoCredentialsStoredError);
    expect(await vault.status(missing)).toEqual({ state: 'empty', maskedKey: null });
  });

  it('overwrites with set whether or not credentials exist', async () => {
    const gamma = profile('gamma');
    const second = freshCredentials();
    await vault.set(gamma, freshCredentials());

    await vault.set(gamma, second);

    expect(await vault.revealForSigning(gamma)).toEqual(second);
  });

  it('deletes credentials, and says when there were none', async () => {
    const delta = profile('delta');
    await vault.set(delta, freshCredentials());

    expect(await vault.delete(delta)).toBe(true);
    expect(await vault.status(delta)).toEqual({ state: 'empty', maskedKey: null });
    expect(await vault.revealForSigning(delta)).toBeNull();
    expect(await vault.delete(delta)).toBe(false);
  });

  it('keeps profiles independent of each other', async () => {
    const live = profile('live');
    const paper = profile('paper');
    const liveCredentials = freshCredentials();
    const paperCredentials = freshCredentials();
    await vault.set(live, liveCredentials);
    await vault.set(paper, paperCredentials);

    await vault.delete(live);

    expect(await vault.status(live)).toEqual({ state: 'empty', maskedKey: null });
    expect(await vault.revealForSigning(paper)).toEqual(paperCredentials);
  });

  it('never lets a replace bring back credentials deleted while it ran', async () => {
    const queued = profile('queued');
    await vault.set(queued, freshCredentials());

    // In call order: the replace finds the entry and writes, then the delete removes it.
    await Promise.all([vault.replace(queued, freshCredentials()), vault.delete(queued)]);

    expect(await vault.status(queued)).toEqual({ state: 'empty', maskedKey: null });
  });

  it('stores nothing when the input is refused', async () => {
    const refused = profile('refused');

    await expect(
      vault.set(refused, { ...freshCredentials(), secretKey: 'has a space in it!' }),
    ).rejects.toBeInstanceOf(CredentialValidationError);

    expect(await vault.status(refused)).toEqual({ state: 'empty', maskedKey: null });
  });

  it('reports an entry it cannot parse instead of failing, and can delete it', async () => {
    const foreign = profile('foreign');
    rawEntry(service, foreign).setPassword('not json from this app');

    const status = await vault.status(foreign);

    expect(status).toMatchObject({ state: 'stored', maskedKey: null });
    expect('reason' in status ? status.reason : '').toMatch(/cannot be read: delete the credentials/);
    await expect(vault.revealForSigning(foreign)).rejects.toBeInstanceOf(UnreadableEntryError);
    expect(await vault.delete(foreign)).toBe(true);
    expect(await vault.status(foreign)).toEqual({ state: 'empty', maskedKey: null });
  });
});

describe('CredentialVault input checks', () => {
  // Input is checked before the keychain is touched, so these run with or without one.
  const vault = new CredentialVault({ service: `trading-terminal-test-${randomUUID()}` });

  async function refusal(profileId: string, credentials: ApiCredentials): Promise<CredentialValidationError> {
    const error: unknown = await vault.set(profileId, credentials).then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(CredentialValidationError);
    return error as CredentialValidationError;
  }

  it('names every field that is empty', async () => {
    const error = await refusal('p1', { apiKey: '', secretKey: '', passphrase: '' });

    expect(error.issues.map((issue) => issue.field)).toEqual(['apiKey', 'secretKey', 'passphrase']);
    expect(error.message).toContain('The API key is empty.');
    expect(error.message).toContain('The passphrase is empty.');
  });

  it('refuses spaces and line breaks without quoting the value', async () => {
    const credentials = {
      ...freshCredentials(),
      passphrase: 'pass phrase',
      secretKey: `${'a'.repeat(40)}\n`,
    };

    const error = await refusal('p1', credentials);

    expect(error.issues.map((issue) => issue.field)).toEqual(['secretKey', 'passphrase']);
    expect(error.message).toContain('The secret key contains a space or line break');
    expect(error.message).not.toContain('pass phrase');
    expect(error.message).not.toContain('a'.repeat(40));
  });

  it('refuses lengths no exchange key has, and characters a header cannot carry', async () => {
    const error = await refusal('p1', {
      apiKey: 'bg_short',
      secretKey: 'x'.repeat(257),
      passphrase: 'pässword',
    });

    expect(error.issues).toEqual([
      { field: 'apiKey', message: 'The API key has 8 characters; it should have 16 to 128.' },
      { field: 'secretKey', message: 'The secret key has 257 characters; it should have 16 to 256.' },
      {
        field: 'passphrase',
        message: 'The passphrase contains a character that is not plain ASCII; copy it again.',
      },
    ]);
  });

  it('refuses a profile id that could not name a keychain entry cleanly', async () => {
    for (const profileId of ['', 'has space', 'a/b', 'x'.repeat(65)]) {
      const error = await refusal(profileId, freshCredentials());
      expect(error.issues.map((issue) => issue.field)).toEqual(['profileId']);
    }
    await expect(vault.status('../other')).rejects.toBeInstanceOf(CredentialValidationError);
  });
});

const CHILD_SCRIPT = fileURLToPath(new URL('./vault-child-process.ts', import.meta.url));
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

interface ChildRun {
  readonly outcomes: VaultChildOutcome[];
  readonly output: string;
}

/** A home folder of its own, so whatever the vault writes can be inspected afterwards. */
function makeHome(): { home: string; env: NodeJS.ProcessEnv } {
  const home = mkdtempSync(join(tmpdir(), 'vault-home-'));
  const folders = {
    XDG_DATA_HOME: '.local/share',
    XDG_CONFIG_HOME: '.config',
    XDG_CACHE_HOME: '.cache',
    TMPDIR: 'tmp',
  };
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home };
  for (const [name, folder] of Object.entries(folders)) {
    env[name] = join(home, folder);
    mkdirSync(join(home, folder), { recursive: true });
  }
  return { home, env };
}

function childEnv(
  base: NodeJS.ProcessEnv,
  service: string,
  credentials: ApiCredentials,
  steps: readonly VaultChildStep[],
): NodeJS.ProcessEnv {
  return {
    ...base,
    VAULT_CHILD_SERVICE: service,
    VAULT_CHILD_PROFILE: 'main',
    VAULT_CHILD_API_KEY: credentials.apiKey,
    VAULT_CHILD_SECRET_KEY: credentials.secretKey,
    VAULT_CHILD_PASSPHRASE: credentials.passphrase,
    VAULT_CHILD_STEPS: steps.join(','),
  };
}

async function runChild(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<ChildRun> {
  const { stdout, stderr } = await run(command, [...args], { env, cwd, timeout: 20_000 });
  const lastLine = stdout.trim().split('\n').at(-1) ?? '[]';
  return { outcomes: JSON.parse(lastLine) as VaultChildOutcome[], output: stdout + stderr };
}

function filesContaining(folder: string, needles: readonly string[]): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => {
      const content = readFileSync(file, 'latin1');
      return needles.some((needle) => content.includes(needle));
    });
}

function onPath(program: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((folder) => {
    try {
      accessSync(join(folder, program), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

describe.runIf(process.platform === 'linux')('CredentialVault with no keychain running', () => {
  const homes: string[] = [];
  afterAll(() => {
    for (const home of homes) rmSync(home, { recursive: true, force: true });
  });

  it('fails every operation with a message that says what to install and unlock, and writes nothing', async () => {
    const { home, env } = makeHome();
    homes.push(home);
    const credentials = freshCredentials();
    const steps = ['set', 'replace', 'reveal', 'delete', 'status'] as const;

    const { outcomes, output } = await runChild(
      process.execPath,
      ['--import', TSX_LOADER, CHILD_SCRIPT],
      childEnv(
        { ...env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' },
        'trading-terminal',
        credentials,
        steps,
      ),
      home,
    );

    expect(outcomes.map((outcome) => outcome.step)).toEqual(steps);
    for (const outcome of outcomes.slice(0, 4)) {
      expect(outcome).toMatchObject({
        outcome: 'error',
        name: 'VaultUnavailableError',
        code: 'VAULT_UNAVAILABLE',
      });
    }
    const [setOutcome] = outcomes;
    const message = setOutcome?.outcome === 'error' ? setOutcome.message : '';
    expect(message).toMatch(/^The OS keychain is not available \(.*D-?Bus.*\)/);
    expect(message).toContain('nothing was written to disk');
    expect(message).toContain('Install and unlock a Secret Service keychain');
    expect(message).toContain('GNOME Keyring (sudo apt-get install gnome-keyring) or KWallet');
    expect(outcomes[4]).toEqual({
      step: 'status',
      outcome: 'ok',
      value: { state: 'unavailable', maskedKey: null, reason: message },
    });
    const secrets = [credentials.secretKey, credentials.passphrase];
    expect(filesContaining(home, secrets)).toEqual([]);
    expect(secrets.some((secret) => output.includes(secret))).toBe(false);
  });
});

describe.skipIf(keychainTestsSkipped || process.platform !== 'linux')(
  'CredentialVault with a locked keyring',
  () => {
    let home = '';
    afterAll(() => {
      if (home !== '') rmSync(home, { recursive: true, force: true });
    });

    beforeAll(() => {
      const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((program) => !onPath(program));
      if (missing.length > 0) throw new Error(`${missing.join(' and ')} not found. ${NO_KEYCHAIN_HELP}`);
    });

    /** One D-Bus session with its own gnome-keyring, unlocked with a password or left locked. */
    function inKeyringSession(env: NodeJS.ProcessEnv, unlock: boolean): Promise<ChildRun> {
      const startKeyring = unlock
        ? 'printf %s keyring-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null'
        : 'gnome-keyring-daemon --start --components=secrets >/dev/null';
      return runChild(
        'dbus-run-session',
        [
          '--',
          'sh',
          '-c',
          `${startKeyring} && exec "$@"`,
          'sh',
          process.execPath,
          '--import',
          TSX_LOADER,
          CHILD_SCRIPT,
        ],
        env,
        env.HOME ?? tmpdir(),
      );
    }

    it('keeps the keyring encrypted on disk, and says to unlock it when it is locked', async () => {
      const made = makeHome();
      home = made.home;
      const credentials = freshCredentials();
      const service = 'trading-terminal';

      const stored = await inKeyringSession(childEnv(made.env, service, credentials, ['set']), true);
      const locked = await inKeyringSession(
        childEnv(made.env, service, credentials, ['status', 'reveal']),
        false,
      );

      expect(stored.outcomes).toEqual([
        {
          step: 'set',
          outcome: 'ok',
          value: { state: 'stored', maskedKey: expect.stringMatching(/^bg_.…/) },
        },
      ]);
      expect(readdirSync(join(home, '.local/share/keyrings'))).toContain('login.keyring');
      expect(filesContaining(home, [credentials.secretKey, credentials.passphrase])).toEqual([]);
      const [status, reveal] = locked.outcomes;
      expect(status).toMatchObject({ step: 'status', value: { state: 'unavailable', maskedKey: null } });
      expect(reveal).toMatchObject({ step: 'reveal', outcome: 'error', name: 'VaultUnavailableError' });
      const reason = reveal?.outcome === 'error' ? reveal.message : '';
      expect(reason).toMatch(/unlock/);
      expect(reason).toContain('Install and unlock a Secret Service keychain');
    });
  },
);
