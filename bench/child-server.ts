// Starts a server in a child process and reads its ready line, so the load generator and the
// server each get a core of their own and neither measures the other.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ChildServer<Ready> {
  readonly ready: Ready;
  stop(): Promise<void>;
}

export async function startChildServer<Ready>(args: string[], cwd: string): Promise<ChildServer<Ready>> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const ready = await new Promise<Ready>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line from ${args.join(' ')}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${String(code)}`)));
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as Ready);
    });
  });
  return {
    ready,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
