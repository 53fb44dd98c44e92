// `npm run bench`: load-tests the real service against a bare node:http + pg baseline.
//
// One run: a fresh database on the local PostgreSQL, the service (dist/main.js, as `npm start` runs it, migrating and
// seeding it) and the baseline (bench/baseline-server.ts) each in a child process, autocannon
// here. Every scenario in bench/scenarios.ts gets a warm-up, then a measured run; the table
// compares req/s with the baseline's and checks the goals. Everything started is stopped and
// the database dropped, also on failure. Exit code 1 only when the bench itself could not run.
//
// Environment: BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 2), BENCH_CONNECTIONS
// (default 100), BENCH_POOL_SIZE (database pool of both servers, default 20), BENCH_ONLY (run
// only scenarios whose name contains this; the baseline always runs), BENCH_ROUNDS (default 3: the
// baseline and the scenarios with a goal run in this many rounds, each opened by a baseline run,
// and one more baseline run closes the last; a scenario's ratio is against the mean of the two
// baseline runs around it, and a goal is judged on the median of its rounds, so that a shared
// machine's drift during the run moves both sides of a ratio alike), BENCH_JSON (write the
// results to this file; `npm run bench -- --markdown` rewrites docs/benchmarks.md from them),
// BENCH_PG_URL (admin URL of the PostgreSQL server), BENCH_DIAGNOSTICS
// (1: also run the diagnostic scenarios, which isolate layers without the database; those that
// are a target's floor, bare Yoga doing the same lookup, run in the rounds right after it and are
// printed beside it), BENCH_PROFILE (a directory: write a CPU profile (BENCH_PROFILE_KIND=heap: a
// sampling heap profile of all allocations) of the target process for each measured run there, `<scenario>.cpuprofile`; summarise one with
// `npx tsx bench/profile-summary.ts <file>`. Profiling slows the servers: compare only profiles).
// After the request scenarios, bench/subscriptions.ts measures live events to many SSE subscribers
// (BENCH_SUBSCRIPTIONS=0 skips it; BENCH_SUBSCRIBERS, BENCH_SUB_EVENTS, BENCH_SUB_GAP_MS tune it;
// BENCH_ONLY applies to its name, "SSE subscriptions"). Then bench/webhooks.ts measures the webhook
// delivery worker's throughput (BENCH_WEBHOOKS=0 skips it; BENCH_WEBHOOK_DELIVERIES tunes it;
// BENCH_ONLY applies to its name, "webhook dispatch"). Then bench/footprint.ts starts the compiled
// service twice on each database and reads idle RSS and time to ready (BENCH_FOOTPRINT=0 skips it;
// BENCH_ONLY=footprint). Last, bench/analytics.ts seeds 10 M page views
// on a database of its own and measures totals and recording (BENCH_ANALYTICS=0 skips it;
// BENCH_ANALYTICS_VIEWS, BENCH_ANALYTICS_PATHS, BENCH_ANALYTICS_REQUESTS tune it; BENCH_ONLY applies
// to its name, "page-view analytics"). Then bench/courses.ts seeds 1 M enrollments and 10 M lesson
// completions on a database of its own and measures course stats and enrollment lists
// (BENCH_COURSES=0 skips it; BENCH_COURSES_ENROLLMENTS, BENCH_COURSES_COMPLETIONS,
// BENCH_COURSES_REQUESTS tune it; BENCH_ONLY applies to its name, "course stats").
// Right after the request scenarios, bench/limits.ts compares req/s with rate limits on and off,
// on dedicated service processes (BENCH_LIMITS=0 skips it; BENCH_LIMITS_ROUNDS,
// BENCH_LIMITS_WINDOW_S, BENCH_LIMITS_REDIS_URL, BENCH_LIMITS_GRAPHQL tune it; BENCH_ONLY applies
// to its name, "rate limits").
// Rate limits: every service process runs with budgets no scenario reaches (BENCH_RATE_LIMITS), so
// the scenarios measure served requests, counted as in production, not 429s.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type autocannon from 'autocannon';
import { MAX_CONNECTION_LIMIT } from '../src/config.js';
import { DEMO_ACCOUNTS } from '../src/db/seed.js';
import { DESCRIPTOR_HEADROOM, openFileLimit } from '../src/http/connection-limits.js';
import { overHttp, signIn } from './lib/accounts.js';
import { createDatabase, serverVersion } from './lib/database.js';
import { load, probe } from './lib/load.js';
import { machineBusySeconds, readStats, Sampler } from './lib/proc.js';
import { freePort, startNode, waitForHttp, type Child } from './lib/processes.js';
import { benchmarksMarkdown } from './lib/markdown.js';
import { fixed, mb, table } from './lib/report.js';
import { BENCH_PRO_LIMIT, LIMITS_GROUP, runLimitsBench, type LimitsBenchResult } from './limits.js';
import { scenarios, type BenchContext, type Scenario } from './scenarios.js';
import { runSubscriptionsBench, type SubscriptionsBenchResult } from './subscriptions.js';
import { runWebhooksBench, type WebhooksBenchResult } from './webhooks.js';
import { ANALYTICS_GROUP, runAnalyticsBench, type AnalyticsBenchResult } from './analytics.js';
import { COURSES_GROUP, runCoursesBench, type CoursesBenchResult } from './courses.js';
import { FOOTPRINT_GROUP, runFootprintBench, type FootprintBenchResult } from './footprint.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** What `npm start` runs (scripts/start.mjs builds it when stale; the bench builds it first). */
export const SERVICE_ENTRY = 'dist/main.js';

/**
 * Budgets no scenario reaches (the defaults, 100 and 600 a minute, would answer 429 after a
 * second). A 1 s window keeps each caller's log of timestamps at ~req/s entries, as small as a
 * real caller's allows (see bench/limits.ts); counting still happens on every request.
 */
const BENCH_RATE_LIMITS = {
  RATE_LIMIT_FREE: String(BENCH_PRO_LIMIT),
  RATE_LIMIT_PRO: String(BENCH_PRO_LIMIT),
  RATE_LIMIT_WINDOW_S: '1',
  // bench/webhooks.ts commits its events as page views from one address.
  RATE_LIMIT_PAGE_VIEWS: `${BENCH_PRO_LIMIT}/1s`,
};

/**
 * Connection limits no scenario reaches: bench/subscriptions.ts opens its thousands of SSE
 * subscribers as one caller from one address, and the server may hold as many sockets as the
 * process may open besides what it needs otherwise (so it logs no descriptor warning).
 */
function benchConnectionLimits(poolSize: number): Record<string, string> {
  const files = openFileLimit();
  const sockets = files === undefined ? MAX_CONNECTION_LIMIT : files - poolSize - DESCRIPTOR_HEADROOM;
  return {
    SUBSCRIPTIONS_PER_CALLER: String(MAX_CONNECTION_LIMIT),
    CONNECTIONS_PER_ADDRESS: String(MAX_CONNECTION_LIMIT),
    MAX_CONNECTIONS: String(Math.max(1, Math.min(MAX_CONNECTION_LIMIT, sockets))),
  };
}

function intEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name}: must be a whole number ≥ ${min}, got ${raw}`);
  return n;
}

interface Settings {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  poolSize: number;
  only: string | undefined;
  /** Rounds of the baseline and the scenarios with a goal (BENCH_ROUNDS). */
  rounds: number;
  /** Also run the scenarios marked diagnostic (BENCH_DIAGNOSTICS=1). */
  diagnostics: boolean;
  /** Where CPU profiles of the measured runs go (BENCH_PROFILE), if anywhere. */
  profileDir: string | undefined;
}

interface Target {
  url: string;
  child: Child;
  sampler: Sampler;
}

interface Outcome {
  scenario: Scenario;
  label: string;
  result: autocannon.Result;
  /** Cores' worth of CPU the target process used during the measured run. */
  cpuCores: number;
  /** Cores' worth of CPU this process (autocannon) used. */
  loaderCores: number;
  /** Cores' worth of CPU the whole machine used (target, loader, PostgreSQL and anything else). */
  machineCores: number;
  /** Highest RSS of the target process sampled during the measured run, KiB. */
  rssPeakKb: number;
  /** Set when the single check request before the load did not succeed. */
  problem?: string;
  /**
   * Its round: the baseline's and the goals' runs (and their floors'); the closing baseline run is
   * one past the last. Undefined for a diagnostic run once, after the rounds.
   */
  round?: number;
}

const progress = (message: string) => process.stderr.write(`[bench] ${message}\n`);

/** Cleanup steps, run last-in first-out exactly once (also on SIGINT/SIGTERM). */
const cleanups: { name: string; run: () => Promise<unknown> }[] = [];
let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const step of cleanups.reverse()) {
      try {
        await step.run();
      } catch (error) {
        process.stderr.write(`[bench] cleanup: ${step.name} failed: ${String(error)}\n`);
      }
    }
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    progress(`${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

async function machineInfo(settings: Settings): Promise<string> {
  const cpuList = cpus();
  const rows = [
    ['node', process.version],
    ['cpus', `${cpuList.length} × ${cpuList[0]?.model.trim() ?? 'unknown'} (availableParallelism ${availableParallelism()})`],
    ['memory', mb(totalmem() / 1024)],
    ['kernel', release()],
    ['postgresql', await serverVersion()],
    ['load average', `${loadavg().map((l) => l.toFixed(2)).join(' ')} (at the start)`],
    ['settings', `${settings.connections} connections, ${settings.durationSeconds} s (+${settings.warmupSeconds} s warm-up) per run, pool ${settings.poolSize}, ${settings.rounds} round${settings.rounds === 1 ? '' : 's'} of the baseline and the goals`],
    ...(settings.profileDir ? [['profiling', `CPU profiles in ${settings.profileDir}: figures are slowed by the profiler`]] : []),
  ];
  return rows.map(([k, v]) => `${k!.padEnd(13)} ${v}`).join('\n');
}

async function login(serviceUrl: string): Promise<BenchContext> {
  const token = await signIn(overHttp(serviceUrl), DEMO_ACCOUNTS[0]);
  const me = await fetch(`${serviceUrl}/api/v1/user/me`, { headers: { authorization: `Bearer ${token}` } });
  if (!me.ok) throw new Error(`GET /api/v1/user/me: HTTP ${me.status} ${await me.text()}`);
  const { id } = (await me.json()) as { id: string };
  return { userId: id, token };
}

async function runScenario(
  scenario: Scenario,
  target: Target,
  ctx: BenchContext,
  settings: Settings,
  label = scenario.name,
  round?: number,
): Promise<Outcome> {
  const spec = scenario.request(ctx);
  const check = await probe(target.url, spec);
  let problem: string | undefined;
  if (check.status < 200 || check.status > 299) problem = `HTTP ${check.status}: ${check.body.slice(0, 300)}`;
  else if (/"errors"\s*:/.test(check.body)) problem = `errors in body: ${check.body.slice(0, 300)}`;
  if (problem) progress(`${scenario.name}: check request failed (${problem}); loading it anyway`);
  const options = { connections: settings.connections, expectBody: problem ? undefined : check.body };

  const { child, sampler } = target;
  if (settings.warmupSeconds > 0) {
    progress(`${scenario.name}: warm-up ${settings.warmupSeconds} s`);
    await Promise.race([child.exited, load(target.url, spec, { ...options, durationSeconds: settings.warmupSeconds })]);
  }
  progress(`${label}: ${settings.durationSeconds} s`);
  const profiled = settings.profileDir ? profileRun(child, settings.profileDir, label) : undefined;
  const before = await readStats(child.pid);
  const loaderBefore = process.cpuUsage();
  const machineBefore = await machineBusySeconds();
  sampler.resetWindow();
  const result = await Promise.race([child.exited, load(target.url, spec, { ...options, durationSeconds: settings.durationSeconds })]);
  const machineAfter = await machineBusySeconds();
  const loader = process.cpuUsage(loaderBefore);
  const after = await sampler.sample();
  if (profiled) progress(`${label}: profile ${await profiled()}`);
  return {
    scenario,
    label,
    result,
    cpuCores: before && after ? (after.cpuSeconds - before.cpuSeconds) / result.duration : NaN,
    loaderCores: (loader.user + loader.system) / 1e6 / result.duration,
    machineCores: (machineAfter - machineBefore) / result.duration,
    rssPeakKb: sampler.windowPeakKb,
    problem,
    round,
  };
}

/**
 * Starts a CPU profile of the child (see lib/cpu-profile-preload.ts); the returned function stops
 * it and resolves with the profile's file, renamed after the scenario.
 */
function profileRun(child: Child, dir: string, label: string): () => Promise<string> {
  child.proc.kill('SIGUSR2');
  return async () => {
    const written = child.waitForLine((l) => l.msg === 'cpu profile written' && typeof l.file === 'string', 60_000);
    child.proc.kill('SIGUSR2');
    const from = String((await written).file);
    const file = join(dir, `${label.replace(/[^\w]+/g, '-').replace(/^-|-$/g, '')}${extname(from)}`);
    await rename(from, file);
    return file;
  };
}

const failures = (r: autocannon.Result) => r.errors + r.non2xx + r.mismatches;

function report(outcomes: Outcome[], service: Target, baseline: Target, idle: Map<Target, number>): string {
  const base = baselineRate(outcomes);
  const rows = outcomes.map((o) => {
    const { label, result: r, cpuCores, loaderCores, machineCores, rssPeakKb } = o;
    return [
      label,
      fixed(r.requests.average),
      fixed(r.latency.p50),
      fixed(r.latency.p99),
      String(r.errors),
      String(r.non2xx),
      String(r.mismatches),
      `${ratioOf(o, outcomes).toFixed(2)}×`,
      fixed(cpuCores, 2),
      fixed((cpuCores * 1e6) / r.requests.average),
      fixed(loaderCores, 2),
      fixed(machineCores, 2),
      mb(rssPeakKb),
    ];
  });
  const results = table(
    ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non2xx', 'mismatch', 'vs base', 'cpu tgt', 'µs/req', 'cpu ac', 'cpu all', 'rss peak'],
    rows,
    [false, ...Array<boolean>(12).fill(true)],
  );
  const peakUnderLoad = (t: Target) => Math.max(0, ...outcomes.filter((o) => targetOf(o.scenario, service, baseline) === t).map((o) => o.rssPeakKb));
  const memory = table(
    ['process', 'rss idle', 'rss peak under load', 'VmHWM (lifetime, incl. start-up)'],
    [service, baseline].map((t) => [t === service ? `service (pid ${t.child.pid})` : `baseline (pid ${t.child.pid})`, mb(idle.get(t) ?? NaN), mb(peakUnderLoad(t)), mb(t.sampler.last?.hwmKb ?? NaN)]),
    [false, true, true, true],
  );

  const verdicts: string[] = [];
  for (const goal of goalsOf(outcomes)) {
    const floor = goal.floor ? `; bare Yoga doing the same: ${goal.floor.median.toFixed(2)} × (${goal.floor.ratios.map((r) => r.toFixed(2)).join(', ')})` : '';
    verdicts.push(`${goal.pass ? 'PASS' : 'MISS'}  ${goal.name}: ${goal.median.toFixed(2)} × baseline, median of ${goal.ratios.length} (${goal.ratios.map((r) => r.toFixed(2)).join(', ')}) (goal ≥ ${goal.minRatio})${floor}`);
  }
  for (const scenario of new Set(outcomes.map((o) => o.scenario))) {
    const runs = outcomes.filter((o) => o.scenario === scenario);
    const sum = (f: (r: autocannon.Result) => number) => runs.reduce((n, o) => n + f(o.result), 0);
    const problems = runs.flatMap((o) => (o.problem ? [`${o.label}: ${o.problem}`] : []));
    const bad = sum(failures);
    verdicts.push(
      `${bad === 0 && problems.length === 0 ? 'PASS' : 'MISS'}  ${scenario.name}: ${bad} failed responses` +
        (runs.length > 1 ? ` in ${runs.length} runs` : '') +
        ` (${sum((r) => r.errors)} errors, ${sum((r) => r.timeouts)} of them timeouts, ${sum((r) => r.non2xx)} non-2xx, ${sum((r) => r.mismatches)} unexpected bodies)` +
        (problems.length ? `; check request: ${problems.join('; ')}` : ''),
    );
  }
  const legend =
    "vs base: req/s over the mean of the baseline's runs that open its round and the next (a baseline run or a\n" +
    `diagnostic: over the mean of all the baseline's runs, ${fixed(base)} req/s); a goal is judged on the median of its rounds\n` +
    "cpu: cores' worth of CPU used during the run (1.00 = one core busy) by the target process (tgt),\n" +
    'by autocannon in this process (ac), and by the whole machine (all: includes PostgreSQL and other tenants)\n' +
    'µs/req: CPU time of the target process per response (steadier than req/s on a busy machine)';
  return `${results}\n\n${legend}\n\n${memory}\n\n${verdicts.join('\n')}`;
}

/** The baseline's req/s: the mean of its runs (one per round). */
function baselineRate(outcomes: Outcome[]): number {
  const runs = outcomes.filter((o) => o.scenario.isBaseline).map((o) => o.result.requests.average);
  return runs.reduce((a, b) => a + b, 0) / runs.length;
}

/**
 * A run's req/s over the baseline's around it: the mean of the baseline runs that open its round
 * and the next one (the last round is closed by one more). A baseline run or a diagnostic: over
 * the mean of all the baseline's runs, which shows the machine's drift.
 */
function ratioOf(outcome: Outcome, outcomes: Outcome[]): number {
  const { round } = outcome;
  const around =
    round === undefined || outcome.scenario.isBaseline
      ? []
      : outcomes.filter((o) => o.scenario.isBaseline && (o.round === round || o.round === round + 1)).map((o) => o.result.requests.average);
  const base = around.length ? around.reduce((a, b) => a + b, 0) / around.length : baselineRate(outcomes);
  return outcome.result.requests.average / base;
}

interface Ratios {
  /** One ratio per round, in order. */
  ratios: number[];
  median: number;
}

interface GoalVerdict extends Ratios {
  name: string;
  minRatio: number;
  pass: boolean;
  /** Bare Yoga doing the same work, in the same rounds (BENCH_DIAGNOSTICS=1). */
  floor?: Ratios;
}

/** Each scenario with a goal, judged on the median of its rounds' ratios. */
function goalsOf(outcomes: Outcome[]): GoalVerdict[] {
  const ratiosOf = (scenario: Scenario): Ratios => {
    const ratios = outcomes.filter((o) => o.scenario === scenario && o.round !== undefined).map((o) => ratioOf(o, outcomes));
    const sorted = [...ratios].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return { ratios, median: sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2 };
  };
  const scenarios = [...new Set(outcomes.map((o) => o.scenario))];
  return scenarios.flatMap((scenario) => {
    if (scenario.minRatio === undefined) return [];
    const floor = scenarios.find((s) => s.floorOf === scenario.name);
    const own = ratiosOf(scenario);
    return [{ name: scenario.name, minRatio: scenario.minRatio, ...own, pass: own.median >= scenario.minRatio, floor: floor && ratiosOf(floor) }];
  });
}

/** docs/benchmarks.md from this run: the baseline, each goal's rounds, the other groups' verdicts. */
function markdownOf(outcomes: Outcome[], machine: string, sections: string[]): string {
  const runsOf = (pick: (o: Outcome) => boolean) => {
    const runs = outcomes.filter(pick);
    return { reqPerSec: runs.map((o) => o.result.requests.average), cpuMicros: runs.map((o) => (o.cpuCores * 1e6) / o.result.requests.average) };
  };
  const base = outcomes.find((o) => o.scenario.isBaseline)?.scenario;
  return benchmarksMarkdown({
    at: new Date(),
    machine,
    baseline: { name: base?.name ?? 'baseline', ...runsOf((o) => o.scenario.isBaseline === true) },
    goals: goalsOf(outcomes).map((goal) => ({ ...goal, ...runsOf((o) => o.scenario.name === goal.name && o.round !== undefined) })),
    sections,
  });
}

function targetOf(scenario: Scenario, service: Target, baseline: Target): Target {
  return scenario.target === 'baseline' ? baseline : service;
}

async function main(): Promise<void> {
  const settings: Settings = {
    durationSeconds: intEnv('BENCH_DURATION', 10, 1),
    warmupSeconds: intEnv('BENCH_WARMUP', 2, 0),
    connections: intEnv('BENCH_CONNECTIONS', 100, 1),
    poolSize: intEnv('BENCH_POOL_SIZE', 20, 1),
    only: process.env.BENCH_ONLY || undefined,
    rounds: intEnv('BENCH_ROUNDS', 3, 1),
    diagnostics: intEnv('BENCH_DIAGNOSTICS', 0, 0) > 0,
    profileDir: process.env.BENCH_PROFILE ? resolve(process.env.BENCH_PROFILE) : undefined,
  };
  if (settings.profileDir) await mkdir(settings.profileDir, { recursive: true });
  const profiling: { args: string[]; env: Record<string, string> } = settings.profileDir
    ? // tsx only to load the preload (TypeScript): the service itself is the compiled dist/.
      { args: ['--import', 'tsx', '--import', './bench/lib/cpu-profile-preload.ts'], env: { BENCH_PROFILE_DIR: settings.profileDir, BENCH_PROFILE_KIND: process.env.BENCH_PROFILE_KIND ?? 'cpu' } }
    : { args: [], env: {} };
  const selected = scenarios.filter(
    (s) => s.isBaseline || ((!s.diagnostic || settings.diagnostics) && (!settings.only || s.name.includes(settings.only))),
  );
  if (selected.filter((s) => s.isBaseline).length !== 1) throw new Error('scenarios: exactly one must be the baseline');
  for (const { name, floorOf } of scenarios) {
    if (floorOf !== undefined && !scenarios.some((s) => s.name === floorOf && s.minRatio !== undefined)) throw new Error(`scenarios: "${name}" is the floor of "${floorOf}", which is no scenario with a goal`);
  }

  const info = await machineInfo(settings);

  // The service runs as `npm start` runs it: compiled JavaScript (built here, outside any figure).
  progress('building dist/');
  if (spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' }).status !== 0) throw new Error('npm run build failed');

  const dataDir = await mkdtemp(join(tmpdir(), 'learnstream-bench-'));
  cleanups.push({ name: `remove ${dataDir}`, run: () => rm(dataDir, { recursive: true, force: true }) });
  const db = await createDatabase();
  cleanups.push({ name: `drop database ${db.name}`, run: db.drop });
  progress(`database ${db.name}`);

  const serviceEnv = (port: number, extra: Record<string, string> = {}) => ({
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    DB_POOL_SIZE: String(settings.poolSize),
    // warn: no per-request log line (the service logs every request at info).
    LOG_LEVEL: 'warn',
    ...BENCH_RATE_LIMITS,
    ...benchConnectionLimits(settings.poolSize),
    ...profiling.env,
    ...extra,
  });
  const port = await freePort();
  // BENCH_SERVICE_NODE_ARGS: extra node flags for the service (A/B runs, e.g. V8 heap flags).
  const serviceArgs = [...(process.env.BENCH_SERVICE_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? []), ...profiling.args];
  const serviceChild = startNode('service', SERVICE_ENTRY, serviceEnv(port), ROOT, serviceArgs);
  cleanups.push({ name: 'stop service', run: serviceChild.stop });
  const baselineChild = startNode(
    'baseline',
    'bench/baseline-server.ts',
    { DATABASE_URL: db.url, POOL_SIZE: String(settings.poolSize), YOGA_FLOOR: settings.diagnostics ? '1' : '0', ...profiling.env },
    ROOT,
    profiling.args,
  );
  cleanups.push({ name: 'stop baseline', run: baselineChild.stop });
  const service: Target = { url: `http://127.0.0.1:${port}`, child: serviceChild, sampler: new Sampler(serviceChild.pid).start() };
  const baselineLine = await baselineChild.waitForLine((l) => l.msg === 'listening' && typeof l.url === 'string', 30_000);
  const baseline: Target = { url: String(baselineLine.url), child: baselineChild, sampler: new Sampler(baselineChild.pid).start() };
  for (const t of [service, baseline]) cleanups.push({ name: `stop sampler ${t.child.name}`, run: async () => t.sampler.stop() });

  progress(`service starting on ${service.url} (migrations + seed)`);
  const started = Date.now();
  await waitForHttp(`${service.url}/healthz`, serviceChild, 180_000);
  progress(`service ready after ${((Date.now() - started) / 1000).toFixed(1)} s; baseline on ${baseline.url}`);

  const ctx = await login(service.url);
  const idle = new Map<Target, number>();
  for (const t of [service, baseline]) idle.set(t, (await t.sampler.sample())?.rssKb ?? NaN);

  // Round after round, the baseline then each scenario with a goal; one more baseline run closes
  // the last round (see ratioOf). Then the diagnostics, once.
  const outcomes: Outcome[] = [];
  const base = selected.find((s) => s.isBaseline)!;
  // A goal's floor (bare Yoga doing the same, with BENCH_DIAGNOSTICS=1) runs right after it.
  // Each round starts one goal further on, so that no goal always follows the same one: the
  // service runs slower for its first seconds after switching from one kind of request to
  // another, and how much depends on the kind it switched from.
  const floors = selected.filter((s) => s.floorOf !== undefined);
  const groups = selected.filter((s) => !s.isBaseline && !s.diagnostic).map((s) => [s, ...floors.filter((f) => f.floorOf === s.name)]);
  const goals = groups.flat();
  const inRound = (round: number) => groups.map((_, i) => groups[(i + round - 1) % groups.length]!).flat();
  for (let round = 1; round <= settings.rounds + 1; round++) {
    const closing = round > settings.rounds;
    for (const scenario of closing ? [base] : [base, ...inRound(round)]) {
      const label = closing ? `${scenario.name} (closing)` : settings.rounds > 1 ? `${scenario.name} (round ${round})` : scenario.name;
      outcomes.push(await runScenario(scenario, targetOf(scenario, service, baseline), ctx, settings, label, round));
    }
  }
  for (const scenario of selected.filter((s) => s.diagnostic && !goals.includes(s))) {
    outcomes.push(await runScenario(scenario, targetOf(scenario, service, baseline), ctx, settings));
  }
  for (const t of [service, baseline]) await t.sampler.sample();

  let limits: LimitsBenchResult | undefined;
  if (intEnv('BENCH_LIMITS', 1, 0) > 0 && (!settings.only || LIMITS_GROUP.includes(settings.only))) {
    const redisUrl = process.env.BENCH_LIMITS_REDIS_URL ?? 'redis://127.0.0.1:6379';
    limits = await runLimitsBench({
      serviceUrl: service.url,
      // Another instance on the same database and data directory (it skips migrating and seeding).
      startService: async (name, env) => {
        const limitsPort = await freePort();
        const child = startNode(name, SERVICE_ENTRY, serviceEnv(limitsPort, env), ROOT, profiling.args);
        cleanups.push({ name: `stop ${name}`, run: child.stop });
        const target: Target = { url: `http://127.0.0.1:${limitsPort}`, child, sampler: new Sampler(child.pid).start() };
        cleanups.push({ name: `stop sampler ${name}`, run: async () => target.sampler.stop() });
        await waitForHttp(`${target.url}/healthz`, child, 180_000);
        return {
          url: target.url,
          measure: (scenario, label, timing) => runScenario(scenario, target, ctx, { ...settings, ...timing }, label),
          output: () => child.output(),
          stop: async () => {
            target.sampler.stop();
            await child.stop();
          },
        };
      },
      rounds: intEnv('BENCH_LIMITS_ROUNDS', 12, 1),
      timing: { durationSeconds: intEnv('BENCH_LIMITS_DURATION', 4, 1), warmupSeconds: intEnv('BENCH_LIMITS_WARMUP', 1, 0) },
      firstWarmupSeconds: settings.warmupSeconds,
      windowSeconds: intEnv('BENCH_LIMITS_WINDOW_S', 1, 1),
      redisUrl: redisUrl === 'none' || redisUrl === '' ? undefined : redisUrl,
      graphql: intEnv('BENCH_LIMITS_GRAPHQL', 0, 0) > 0,
      progress,
    });
  }

  let subscriptions: SubscriptionsBenchResult | undefined;
  if (intEnv('BENCH_SUBSCRIPTIONS', 1, 0) > 0 && (!settings.only || 'SSE subscriptions'.includes(settings.only))) {
    subscriptions = await Promise.race([
      serviceChild.exited,
      runSubscriptionsBench({
        serviceUrl: service.url,
        servicePid: serviceChild.pid,
        sampler: service.sampler,
        token: ctx.token,
        subscribers: intEnv('BENCH_SUBSCRIBERS', 10000, 1),
        events: intEnv('BENCH_SUB_EVENTS', 20, 1),
        gapMs: intEnv('BENCH_SUB_GAP_MS', 100, 0),
        progress,
        profile: settings.profileDir ? () => profileRun(serviceChild, settings.profileDir!, 'SSE subscriptions') : undefined,
      }),
    ]);
  }

  let webhooks: WebhooksBenchResult | undefined;
  if (intEnv('BENCH_WEBHOOKS', 1, 0) > 0 && (!settings.only || 'webhook dispatch'.includes(settings.only))) {
    webhooks = await Promise.race([
      serviceChild.exited,
      runWebhooksBench({
        serviceUrl: service.url,
        servicePid: serviceChild.pid,
        sampler: service.sampler,
        token: ctx.token,
        databaseUrl: db.url,
        deliveries: intEnv('BENCH_WEBHOOK_DELIVERIES', 20_000, 1),
        progress,
      }),
    ]);
  }

  // Its own database (10 M page views) and service process: see bench/analytics.ts.
  let analytics: AnalyticsBenchResult | undefined;
  if (intEnv('BENCH_ANALYTICS', 1, 0) > 0 && (!settings.only || ANALYTICS_GROUP.includes(settings.only))) {
    analytics = await runAnalyticsBench({
      root: ROOT,
      views: intEnv('BENCH_ANALYTICS_VIEWS', 10_000_000, 1),
      paths: intEnv('BENCH_ANALYTICS_PATHS', 400, 1),
      requests: intEnv('BENCH_ANALYTICS_REQUESTS', 200, 1),
      connections: settings.connections,
      durationSeconds: settings.durationSeconds,
      warmupSeconds: settings.warmupSeconds,
      poolSize: settings.poolSize,
      defer: (name, run) => cleanups.push({ name, run }),
      progress,
    });
  }

  // Its own database (1 M enrollments, 10 M completions) and service process: see bench/courses.ts.
  let courses: CoursesBenchResult | undefined;
  if (intEnv('BENCH_COURSES', 1, 0) > 0 && (!settings.only || COURSES_GROUP.includes(settings.only))) {
    courses = await runCoursesBench({
      root: ROOT,
      enrollments: intEnv('BENCH_COURSES_ENROLLMENTS', 1_000_000, 20),
      completions: intEnv('BENCH_COURSES_COMPLETIONS', 10_000_000, 1),
      requests: intEnv('BENCH_COURSES_REQUESTS', 200, 1),
      poolSize: settings.poolSize,
      defer: (name, run) => cleanups.push({ name, run }),
      progress,
    });
  }

  // Its own database, data directory and service processes, as `npm start` runs them: see bench/footprint.ts.
  let footprint: FootprintBenchResult | undefined;
  if (intEnv('BENCH_FOOTPRINT', 1, 0) > 0 && (!settings.only || FOOTPRINT_GROUP.includes(settings.only))) {
    footprint = await runFootprintBench({ root: ROOT, defer: (name, run) => cleanups.push({ name, run }), progress });
  }

  const loadAfter = `load average  ${loadavg().map((l) => l.toFixed(2)).join(' ')} (at the end)`;
  process.stdout.write(`\n${info}\n${loadAfter}\n\n${report(outcomes, service, baseline, idle)}\n`);
  if (limits) process.stdout.write(`\n${limits.text}\n`);
  if (subscriptions) process.stdout.write(`\n${subscriptions.text}\n`);
  if (webhooks) process.stdout.write(`\n${webhooks.text}\n`);
  if (analytics) process.stdout.write(`\n${analytics.text}\n`);
  if (courses) process.stdout.write(`\n${courses.text}\n`);
  if (footprint) process.stdout.write(`\n${footprint.text}\n`);
  if (process.argv.includes('--markdown')) {
    const page = markdownOf(outcomes, `${info}\n${loadAfter}`, [limits, subscriptions, webhooks, analytics, courses, footprint].flatMap((g) => (g ? [g.text] : [])));
    await writeFile(join(ROOT, 'docs', 'benchmarks.md'), page);
    progress('wrote docs/benchmarks.md');
  }
  if (process.env.BENCH_JSON) {
    const data = {
      at: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      settings,
      baselineReqPerSec: baselineRate(outcomes),
      goals: goalsOf(outcomes),
      scenarios: outcomes.map(({ scenario, label, result: r, cpuCores, loaderCores, machineCores, rssPeakKb, problem, round }) => ({
        name: label,
        round,
        target: scenario.target,
        minRatio: scenario.minRatio,
        reqPerSec: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        errors: r.errors,
        timeouts: r.timeouts,
        non2xx: r.non2xx,
        mismatches: r.mismatches,
        cpuCores,
        loaderCores,
        machineCores,
        rssPeakKb,
        problem,
      })),
      rss: Object.fromEntries([service, baseline].map((t) => [t.child.name, { idleKb: idle.get(t), hwmKb: t.sampler.last?.hwmKb }])),
      ...(limits ? { limits: limits.json } : {}),
      ...(subscriptions ? { subscriptions: subscriptions.json } : {}),
      ...(webhooks ? { webhooks: webhooks.json } : {}),
      ...(analytics ? { analytics: analytics.json } : {}),
      ...(courses ? { courses: courses.json } : {}),
      ...(footprint ? { footprint: footprint.json } : {}),
    };
    await writeFile(process.env.BENCH_JSON, `${JSON.stringify(data, null, 2)}\n`);
  }
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  exitCode = 1;
  process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
} finally {
  await cleanup();
}
process.exit(exitCode);
