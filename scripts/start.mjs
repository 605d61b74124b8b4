// `npm start`: the desktop app on the paper exchange. The Electron shell and the renderer are not
// part of this tree yet, so this starts what exists — the paper exchange the app will trade on —
// and says so plainly.
import { spawn } from 'node:child_process';

process.stderr.write(
  'The desktop app (Electron shell and trading screens) is not built yet in this version.\n' +
    'Starting the paper exchange it will trade on; its ready line below has the address and paper API keys.\n\n',
);
const child = spawn(process.execPath, ['--import', 'tsx', 'exchange/cli.ts', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 1));
