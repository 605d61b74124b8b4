// `npm run bench`: prints the paper exchange's figures on this machine.
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { runEngineBench } from './engine-throughput';
import { runHttpBench } from './http-load';
import { runClientCostBench } from './client-cost';
import { formatPollHubFigures, runPollHubBench } from './poll-hub';
import { formatRemarkFigure, runRemarkBench } from './risk-remark';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const format = (value: number) => Math.round(value).toLocaleString('en-US');

console.log('Engine, in-process (place / cancel / match mix, one core)');
runEngineBench(50_000); // warm-up
const engine = runEngineBench(500_000);
console.log(
  `  ${format(engine.operationsPerSecond)} operations/s  (${format(engine.operations)} ops in ${engine.seconds.toFixed(2)} s: ` +
    `${format(engine.mix.place)} resting places, ${format(engine.mix.cancel)} cancels, ${format(engine.mix.match)} crossing orders, ${format(engine.fills)} fills)`,
);

console.log(`\n${formatRemarkFigure(runRemarkBench(10_000, 200))}`);
console.log(formatRemarkFigure(runRemarkBench(10_000, 200, true)));

console.log('\nLoopback HTTP (autocannon, 32 connections, 5 s each; server in its own process)');
const figures = await runHttpBench(root);
for (const figure of figures) {
  console.log(
    `  ${figure.name.padEnd(44)} ${format(figure.requestsPerSecond).padStart(8)} req/s   p50 ${figure.p50Ms} ms   p99 ${figure.p99Ms} ms` +
      (figure.errors + figure.non2xx > 0 ? `   (errors ${figure.errors}, non-2xx ${figure.non2xx})` : ''),
  );
}
const bare = figures.find((figure) => figure.name.startsWith('bare'));
const tickers = figures.find((figure) => figure.name.startsWith('public tickers'));
if (bare !== undefined && tickers !== undefined) {
  console.log(
    `\n  tickers / bare node:http = ${(tickers.requestsPerSecond / bare.requestsPerSecond).toFixed(2)} (aim: at least 0.6)`,
  );
}

console.log('\nPoll hub (main process): upstream requests with one and with three windows on the same keys');
for (const line of formatPollHubFigures(await runPollHubBench(root))) console.log(`  ${line}`);

console.log('\nAPI client (main process): its own cost per signed request beside a bare fetch');
for (const line of await runClientCostBench()) console.log(`  ${line}`);
