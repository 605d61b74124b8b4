// Child process for the write-failure test: started under a file-size limit (ulimit -f), it appends
// until the operating system refuses a write, then reports how the journal behaved as one JSON line.
//
// Usage: node --import tsx size-limited-writer.ts <journal dir>

import { Journal } from '../journal';
import { errorCode } from '../system-error';

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: size-limited-writer.ts <journal dir>');

const { journal } = await Journal.open<{ n: number; padding: string }>(dir);
const padding = 'x'.repeat(1000);
let acknowledged = 0;
let firstFailure: string | undefined;
for (let n = 1; n <= 100_000 && firstFailure === undefined; n += 1) {
  try {
    await journal.durable(journal.append({ n, padding }));
    acknowledged = n;
  } catch (error) {
    firstFailure = errorCode(error) ?? String(error);
  }
}

const outcome = (work: () => unknown): Promise<string> =>
  Promise.resolve()
    .then(work)
    .then(
      () => 'succeeded',
      (error: unknown) => errorCode(error) ?? String(error),
    );

const report = {
  acknowledged,
  firstFailure,
  laterDurable: await outcome(() => journal.durable()),
  laterAppend: await outcome(() => journal.append({ n: 0, padding: '' })),
  laterSnapshot: await outcome(() => journal.writeSnapshot(acknowledged, { acknowledged })),
  close: await outcome(() => journal.close()),
};
process.stdout.write(`${JSON.stringify(report)}\n`);
