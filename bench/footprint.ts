// The runtime's footprint, as `npm start` runs it: compiled JavaScript, dist/main.js (built by
// bench/run.ts first). Each database is started twice, and both starts are judged: the first on a
// fresh database (it creates, migrates and seeds it), the second on the data the first left.
// - ready: spawn to the first 200 from /readyz, target ≤ 5 s;
// - RSS 10 s after ready, and 10 s after start (the contract's "idle resident memory, 10 s after
//   start", no request yet): the serving process on PostgreSQL < 150 MB, the whole service on the
//   embedded database (PGlite lives in it; the migration child has exited) < 400 MB.
// MB are 10^6 bytes. For information, RSS is also read 10 s after a warm-up of requests and, on
// the second start, after a minute without requests: V8 gives back the young generation it grew
// while starting or under load only when its memory reducer runs, 20–30 s later.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase } from './lib/database.js';
import { readStats } from './lib/proc.js';
import { freePort, startNode, type Child } from './lib/processes.js';
import { table } from './lib/report.js';

export const FOOTPRINT_GROUP = 'footprint';

const TARGET_PG_RSS_MB = 150;
const TARGET_EMBEDDED_RSS_MB = 400;
const TARGET_READY_MS = 5_000;
/** Requests before the idle reading: a server that has answered something, as in real life. */
const WARMUP_REQUESTS = 200;
/** When RSS is read after the warm-up: soon after the load, and idle. */
const AFTER_LOAD_MS = 10_000;
/** The contract's reading: this long after the process was started, before any request. */
const AFTER_START_MS = 10_000;
/** The reading for both starts: this long after the service was ready, before any request. */
const AFTER_READY_MS = 10_000;
const MB = 1_000_000;
const IDLE_MS = 60_000;

export interface FootprintOptions {
  root: string;
  defer(name: string, run: () => Promise<unknown>): void;
  progress(message: string): void;
}

interface Start {
  readyMs: number;
  /** RSS AFTER_START_MS after the process was started, no request made but the readiness checks (NaN when not ready by then). */
  startRssMb: number;
  /** RSS AFTER_READY_MS after it was ready, no request made but the readiness checks. */
  readyRssMb: number;
  /** RSS AFTER_LOAD_MS after the warm-up. */
  afterLoadRssMb: number;
  /** RSS IDLE_MS after the warm-up (the first start: not measured, NaN). */
  idleRssMb: number;
}

export interface FootprintBenchResult {
  text: string;
  json: Record<string, Start & { firstStart: Start }>;
}

async function readyWithin(url: string, child: Child, started: number): Promise<number> {
  for (;;) {
    try {
      const res = await fetch(`${url}/readyz`);
      await res.arrayBuffer();
      if (res.ok) return performance.now() - started;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 120_000) throw new Error(`${child.name}: not ready within 120 s\n${child.output()}`);
    await Promise.race([child.exited, new Promise((r) => setTimeout(r, 25))]);
  }
}

/** Starts the service, waits until ready, warms it, lets it idle, and reads its RSS. */
async function measureStart(name: string, env: Record<string, string>, root: string, { idle = true } = {}): Promise<Start> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = startNode(name, 'dist/main.js', { ...env, PORT: String(port), LOG_LEVEL: 'warn', NODE_ENV: 'development' }, root);
  try {
    const readyMs = await readyWithin(url, child, started);
    const rssMb = async () => (((await readStats(child.pid))?.rssKb ?? NaN) * 1024) / MB;
    const until = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms - (performance.now() - started))));
    let startRssMb = NaN;
    if (performance.now() - started <= AFTER_START_MS) {
      await until(AFTER_START_MS);
      startRssMb = await rssMb();
    }
    await until(readyMs + AFTER_READY_MS);
    const readyRssMb = await rssMb();
    for (let i = 0; i < WARMUP_REQUESTS; i++) {
      const res = await fetch(`${url}/api/v1/lessons?limit=5`);
      await res.arrayBuffer();
    }
    await new Promise((r) => setTimeout(r, AFTER_LOAD_MS));
    const afterLoadRssMb = await rssMb();
    if (!idle) return { readyMs, startRssMb, readyRssMb, afterLoadRssMb, idleRssMb: NaN };
    await new Promise((r) => setTimeout(r, IDLE_MS - AFTER_LOAD_MS));
    return { readyMs, startRssMb, readyRssMb, afterLoadRssMb, idleRssMb: await rssMb() };
  } finally {
    await child.stop();
  }
}

export async function runFootprintBench({ root, defer, progress }: FootprintOptions): Promise<FootprintBenchResult> {
  // dist/ is current: bench/run.ts builds it before anything is measured.
  const db = await createDatabase();
  defer('footprint database', () => db.drop());
  const dataDir = await mkdtemp(join(tmpdir(), 'learnstream-footprint-'));
  defer('footprint data directory', () => rm(dataDir, { recursive: true, force: true }));

  const json: FootprintBenchResult['json'] = {};
  for (const [kind, env] of [
    ['PostgreSQL', { DATABASE_URL: db.url }],
    ['embedded (PGlite)', { DATA_DIR: dataDir }],
  ] as const) {
    progress(`footprint: ${kind}, first start on a fresh database (create, migrate, seed)`);
    const firstStart = await measureStart(`footprint ${kind} first`, env, root, { idle: false });
    progress(`footprint: ${kind}, start on the existing data`);
    const start = await measureStart(`footprint ${kind}`, env, root);
    json[kind] = { ...start, firstStart };
  }

  const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  const mb = (value: number) => (Number.isNaN(value) ? 'not ready by then' : `${value.toFixed(0)} MB`);
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const rows: string[][] = [];
  for (const [kind, rssTarget, whose] of [
    ['PostgreSQL', TARGET_PG_RSS_MB, 'serving process'],
    ['embedded (PGlite)', TARGET_EMBEDDED_RSS_MB, 'whole service'],
  ] as const) {
    const { firstStart, ...second } = json[kind]!;
    // A judged figure: the second start's and the first's, each with its verdict.
    const judged = (figure: string, value: (s: Start) => number, text: (v: number) => string, target: string, ok: (v: number) => boolean) =>
      rows.push([figure, text(value(second)), verdict(ok(value(second))), text(value(firstStart)), verdict(ok(value(firstStart))), target]);
    const shown = (figure: string, value: (s: Start) => number) => rows.push([figure, mb(value(second)), '', Number.isNaN(value(firstStart)) ? '—' : mb(value(firstStart)), '', '']);
    judged(`${kind}: ready`, (s) => s.readyMs, seconds, `≤ ${TARGET_READY_MS / 1000} s`, (v) => v <= TARGET_READY_MS);
    judged(`  RSS ${AFTER_READY_MS / 1000} s after ready, ${whose}`, (s) => s.readyRssMb, mb, `< ${rssTarget} MB`, (v) => v < rssTarget);
    judged(`  RSS ${AFTER_START_MS / 1000} s after start, ${whose}`, (s) => s.startRssMb, mb, `< ${rssTarget} MB`, (v) => v < rssTarget);
    shown(`  ${AFTER_LOAD_MS / 1000} s after the warm-up (information)`, (s) => s.afterLoadRssMb);
    shown(`  after ${IDLE_MS / 1000} s without requests (information)`, (s) => s.idleRssMb);
  }
  const text = [
    `Footprint (npm start: compiled JavaScript, migrations in a child process; MB = 10^6 bytes; warm-up = ${WARMUP_REQUESTS} requests)`,
    table(['figure', 'existing data', '', 'fresh data', '', 'target'], rows, [false, true, false, true, false, true]),
  ].join('\n');
  return { text, json };
}
