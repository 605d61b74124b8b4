// `npm start`: builds the app and launches it in Electron, on the built-in Paper profile.
// Electron's binary is fetched from the internet on first use; where it cannot be had, this says
// so once and points to `npm run web`, the same app in a browser.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(script) {
  const result = spawnSync(npm, ['run', '--silent', script], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const electronDir = require.resolve('electron/package.json').replace(/package\.json$/, '');
if (!existsSync(`${electronDir}path.txt`)) {
  process.stderr.write(
    "Electron's binary is not installed: it is downloaded from the internet on first use, which failed or is not possible here.\n" +
      'Run `npm run web` to use the same app in your browser, or install Electron with network access (`npx install-electron`).\n',
  );
  process.exit(1);
}
run('build:electron');
if (require('../package.json').scripts['build:renderer'] !== undefined) run('build:renderer');
const electron = require('electron');
const child = spawn(electron, ['.'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 1));
