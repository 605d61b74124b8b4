// Child process for the kill -9 test: appends as fast as it can from several concurrent writers,
// snapshots now and then, and prints each seq only after durable() resolved for it. The parent kills it
// with SIGKILL at an arbitrary moment and checks that everything printed survived.
//
// Usage: node --import tsx crash-writer.ts <journal dir>

import { Journal } from '../journal';

interface CountCommand {
  n: number;
}

interface CountState {
  seq: number;
  sum: number;
}

const WRITERS = 4;
const SNAPSHOT_EVERY = 100;

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: crash-writer.ts <journal dir>');

const { journal, recovered } = await Journal.open<CountCommand, CountState>(dir);
let sum = recovered.snapshot?.state.sum ?? 0;
for (const { command } of recovered.commands) sum += command.n;
process.stdout.write(`opened ${journal.lastSeq}\n`);

async function writer(): Promise<never> {
  for (;;) {
    const n = journal.lastSeq + 1;
    const seq = journal.append({ n });
    if (seq !== n) throw new Error(`append returned seq ${seq}, expected ${n}`);
    sum += n;
    if (seq % SNAPSHOT_EVERY === 0) {
      journal.writeSnapshot(seq, { seq, sum }).catch((error: unknown) => {
        process.stderr.write(`snapshot failed: ${String(error)}\n`);
        process.exit(2);
      });
    }
    await journal.durable(seq);
    process.stdout.write(`${seq}\n`);
  }
}

await Promise.all(Array.from({ length: WRITERS }, writer));
