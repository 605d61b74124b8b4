// `npm test`: lint, format check and type check, then every Vitest test, then the Playwright
// end-to-end tests in Debian's Chromium. On Linux the tests run inside a private D-Bus session
// with a throwaway, unlocked gnome-keyring, so the credential vault is tested against a real
// Secret Service and never touches the developer's own keychain.
// Arguments are passed on to Vitest and then pick those tests only (no end-to-end run); the exit
// code is non-zero when either runner fails.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const INSIDE_SESSION = '--inside-keyring-session';
const KEYRING_PASSWORD = 'test-keyring';
const INSTALL_HINT = 'apt-get install -y gnome-keyring dbus dbus-x11';
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_HINT = 'apt-get install -y chromium';
const projectRoot = dirname(dirname(fileURLToPath(import.meta.url)));
const vitestBin = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: projectRoot,
      stdio: 'inherit',
      shell: process.platform === 'win32',
      ...options,
    });
    child.on('error', reject);
    // 'exit', not 'close': a daemon that forks may keep the pipes open long after.
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

function onPath(program) {
  return (process.env.PATH ?? '').split(delimiter).some((folder) => {
    try {
      accessSync(join(folder, program), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function runVitest(args) {
  return run(process.execPath, [vitestBin, 'run', ...args]);
}

/** Vitest, then (on a full run) the renderer build and Playwright; both run, either may fail it. */
async function runTests(vitestArgs) {
  const vitestCode = await runVitest(vitestArgs);
  if (vitestArgs.length > 0) return vitestCode;
  const e2eCode = await run('npm', ['run', 'test:e2e']);
  return vitestCode !== 0 ? vitestCode : e2eCode;
}

/** Runs inside dbus-run-session: a new login keyring in `keyringHome`, unlocked, then the tests. */
async function insideKeyringSession(keyringHome, vitestArgs) {
  const folders = {
    XDG_DATA_HOME: '.local/share',
    XDG_CONFIG_HOME: '.config',
    XDG_CACHE_HOME: '.cache',
    XDG_RUNTIME_DIR: 'run',
  };
  const keyringEnv = { ...process.env, HOME: keyringHome };
  for (const [name, folder] of Object.entries(folders)) {
    keyringEnv[name] = join(keyringHome, folder);
    mkdirSync(keyringEnv[name], { recursive: true, mode: 0o700 });
  }
  // With --unlock the daemon reads the password from stdin, creates the login keyring if there is
  // none, and returns once it serves org.freedesktop.secrets on this session's bus.
  const daemon = spawn('gnome-keyring-daemon', ['--unlock', '--components=secrets'], {
    env: keyringEnv,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let daemonErrors = '';
  daemon.stderr.on('data', (chunk) => (daemonErrors += chunk));
  daemon.stdin.end(KEYRING_PASSWORD);
  const daemonCode = await new Promise((resolve, reject) => {
    daemon.on('error', reject);
    daemon.on('exit', (code) => resolve(code ?? 1));
  });
  daemon.stderr.destroy();
  if (daemonCode !== 0) {
    console.error(`npm test: gnome-keyring-daemon could not start an unlocked keyring (exit ${daemonCode}).`);
    if (daemonErrors.trim() !== '') console.error(daemonErrors.trim());
    return 1;
  }
  return runTests(vitestArgs);
}

async function main(vitestArgs) {
  // Elsewhere the OS keychain is part of the user session; VAULT_TESTS=skip needs none at all.
  const inKeyringSession = process.platform === 'linux' && process.env.VAULT_TESTS !== 'skip';
  // Checked first, so a machine without them learns it at once rather than after the lint.
  const missing = inKeyringSession
    ? ['dbus-run-session', 'gnome-keyring-daemon'].filter((program) => !onPath(program))
    : [];
  if (missing.length > 0) {
    console.error(
      `npm test: ${missing.join(' and ')} not found; the credential vault tests need a real keychain: ${INSTALL_HINT} (or set VAULT_TESTS=skip to skip them).`,
    );
    return 1;
  }
  if (vitestArgs.length === 0) {
    try {
      accessSync(CHROMIUM, constants.X_OK);
    } catch {
      console.error(
        `npm test: ${CHROMIUM} not found; the end-to-end tests run in Debian's Chromium: ${CHROMIUM_HINT}`,
      );
      return 1;
    }
  }
  for (const script of ['lint', 'typecheck']) {
    const code = await run('npm', ['run', script]);
    if (code !== 0) return code;
  }
  if (!inKeyringSession) return runTests(vitestArgs);

  const keyringHome = mkdtempSync(join(tmpdir(), 'test-keyring-'));
  try {
    const self = fileURLToPath(import.meta.url);
    return await run('dbus-run-session', [
      '--',
      process.execPath,
      self,
      INSIDE_SESSION,
      keyringHome,
      ...vitestArgs,
    ]);
  } finally {
    rmSync(keyringHome, { recursive: true, force: true, maxRetries: 3 });
  }
}

const [first, ...rest] = process.argv.slice(2);
const exitCode =
  first === INSIDE_SESSION && rest[0] !== undefined
    ? await insideKeyringSession(rest[0], rest.slice(1))
    : await main(process.argv.slice(2));
process.exit(exitCode);
