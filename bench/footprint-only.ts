// `npx tsx bench/footprint-only.ts`: only the footprint part of `npm run bench` (bench/footprint.ts),
// without the request scenarios and their baseline server, which would load the machine for minutes.
// Runs the compiled service as it is: `npm run build` first. BENCH_ROOT: the folder whose
// dist/main.js is started (default: this repository), to measure another build side by side.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runFootprintBench } from './footprint.js';

const root = resolve(process.env.BENCH_ROOT ?? fileURLToPath(new URL('..', import.meta.url)));
const cleanups: { name: string; run: () => Promise<unknown> }[] = [];
try {
  const { text, json } = await runFootprintBench({
    root,
    defer: (name, run) => cleanups.push({ name, run }),
    progress: (message) => process.stderr.write(`${message}\n`),
  });
  process.stdout.write(`${text}\n`);
  if (process.env.BENCH_JSON) process.stdout.write(`${JSON.stringify(json)}\n`);
} finally {
  for (const { name, run } of cleanups.reverse()) await run().catch((error: unknown) => process.stderr.write(`cleanup ${name}: ${String(error)}\n`));
}
