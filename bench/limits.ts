// The rate-limit cost group of `npm run bench` ("rate limits"; run.ts calls it after the request
// scenarios): req/s of one authenticated endpoint with limits on and off. Goal: limits on costs
// less than 5 % of the throughput with limits off.
//
// - on: ada's API key (PRO tier). Every request is counted against her budget (one hit on the
//   store) and answered with the limit headers. The service runs with RATE_LIMIT_PRO=10,000,000 so
//   that nothing is refused: any non-2xx in an "on" run makes its comparison invalid (MISS).
// - off: alan's API key (ENTERPRISE tier). There is no switch to disable limits and none is added
//   for the bench: Enterprise callers are never counted (admit() returns before the store, no
//   headers), and everything else is the same path: the same API-key lookup (one SQL query), the
//   same handler, a body of the same shape.
// - Each store in its own dedicated service process (the main service's settings plus the above):
//   in-process (no REDIS_URL), then Redis (REDIS_URL: the multi-instance setup, one Lua script
//   round trip per counted request). A store's "off" and "on" runs load the same process (same
//   JIT state, same database pool), in rounds of one short run each, alternating off/on, on/off,
//   off/on… (so neither mode always goes first), each after a short warm-up of its own.
// - The verdict is the paired estimate: the median over rounds of on ÷ off within a round, whose
//   two runs are seconds apart and share the machine's state. On a shared 2-core machine the
//   req/s of identical runs drifts by a third over a minute (3,875 to 6,221 in one 14-round run
//   of 29 November, with limits on); a ratio of medians taken over all runs keeps that drift,
//   a ratio within each round cancels most of it. Many short rounds give the median more pairs
//   than a few long ones for the same time. The report also gives a distribution-free interval
//   for that median (its order statistics) and the ratio of the medians over all runs.
//
// The window is RATE_LIMIT_WINDOW_S=1 by default, not the production 60 s, on purpose. The stores
// keep a log of timestamps per caller whose size is min(limit, req/s × window): a real Pro
// caller's never exceeds 600 entries, but one key loaded at ~5k req/s under a 10M limit for 60 s
// holds ~300k. The in-process store pruned its log with an Array splice from the front, O(log
// size): 13-14 µs a hit at 300k entries. It now drops expired stamps in batches (0.15 µs a hit
// there; memory-store.ts), but the Redis store's sorted set still grows with the log, and with
// 60 s the figures would depend on how long the key has been loaded (nothing leaves in the first
// 60 s). With 1 s the log holds ~req/s entries, one leaving per request, steady from the warm-up
// on: per request, the work a real caller causes. BENCH_LIMITS_WINDOW_S=60 shows the other case.
//
// Environment (read by run.ts): BENCH_LIMITS (0: skip the group), BENCH_LIMITS_ROUNDS (off+on
// pairs per store and endpoint, default 12: off/on, on/off, off/on…), BENCH_LIMITS_DURATION (s a
// run, default 4), BENCH_LIMITS_WARMUP (s of warm-up before each run, default 1; the first round's
// runs take BENCH_WARMUP's), BENCH_LIMITS_WINDOW_S (default 1), BENCH_LIMITS_REDIS_URL (default
// redis://127.0.0.1:6379; "none" skips the Redis store), BENCH_LIMITS_GRAPHQL (1: also GraphQL
// POST { me { id } }). BENCH_ONLY applies to the group's name, "rate limits"; BENCH_CONNECTIONS,
// BENCH_POOL_SIZE and BENCH_PROFILE as for every scenario.
import { loadavg } from 'node:os';
import type autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { DEMO_ACCOUNTS } from '../src/db/seed.js';
import { STORE_FAILED_MESSAGE } from '../src/modules/limits/service.js';
import { createApiKey, overHttp } from './lib/accounts.js';
import type { RequestSpec } from './lib/load.js';
import { fixed, table } from './lib/report.js';
import type { Scenario } from './scenarios.js';

export const LIMITS_GROUP = 'rate limits';
const GOAL_COST_PERCENT = 5;
/** High enough that no run is refused: 10 s at ~5k req/s is 50k requests. */
export const BENCH_PRO_LIMIT = 10_000_000;

/** What run.ts's measured run yields (its Outcome has these). */
export interface MeasuredRun {
  result: autocannon.Result;
  /** Cores' worth of CPU the service process used. */
  cpuCores: number;
  /** Cores' worth of CPU the whole machine used (service, autocannon, PostgreSQL, Redis, others). */
  machineCores: number;
  problem?: string;
}

/** How long one run and its warm-up last, s (run.ts's settings otherwise). */
export interface RunTiming {
  durationSeconds: number;
  warmupSeconds: number;
}

/** A dedicated service process, started by run.ts with the main service's settings plus some. */
export interface LimitsService {
  url: string;
  /** One measured run with its warm-up, as run.ts runs every scenario (profiled with BENCH_PROFILE), timed as given. */
  measure(scenario: Scenario, label: string, timing: RunTiming): Promise<MeasuredRun>;
  /** The last ~64 KB of the process's output (its log). */
  output(): string;
  stop(): Promise<void>;
}

export interface LimitsBenchOptions {
  /** The main service (same database): where the two API keys are created. */
  serviceUrl: string;
  startService(name: string, env: Record<string, string>): Promise<LimitsService>;
  rounds: number;
  /** Every run's; the first round's runs take `firstWarmupSeconds` of warm-up instead. */
  timing: RunTiming;
  firstWarmupSeconds: number;
  windowSeconds: number;
  /** undefined: skip the Redis store. */
  redisUrl: string | undefined;
  graphql: boolean;
  progress(message: string): void;
}

export interface LimitsBenchResult {
  text: string;
  json: Record<string, unknown>;
}

type Mode = 'off' | 'on';

interface Run {
  store: string;
  endpoint: string;
  round: number;
  mode: Mode;
  reqPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  /** CPU time of the service process per response, µs. */
  cpuUsPerReq: number;
  machineCores: number;
  /** 1-minute load average right after the run. */
  load1: number;
  problem?: string;
}

interface Endpoint {
  name: string;
  request(key: string): RequestSpec;
}

const ENDPOINTS: Endpoint[] = [
  { name: 'REST GET /api/v1/user/me', request: (key) => ({ method: 'GET', path: '/api/v1/user/me', headers: { 'x-api-key': key } }) },
  {
    name: 'GraphQL POST { me { id } }',
    request: (key) => ({
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ query: '{ me { id } }' }),
    }),
  },
];

const median = (xs: number[]) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
/**
 * A distribution-free confidence interval for the median of `xs`: its k-th smallest and k-th
 * largest values, with the largest k whose coverage, 1 − 2·P(Binomial(n, ½) < k), is at least
 * `confidence`. Assumes only that the values are independent draws of one distribution.
 */
export function medianInterval(xs: number[], confidence = 0.95): { low: number; high: number; coverage: number } | undefined {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  const n = s.length;
  // P(Binomial(n, ½) ≤ j) for j = 0, 1, …
  let choose = 1;
  let below = 0;
  let best: { low: number; high: number; coverage: number } | undefined;
  for (let k = 1; k <= n >> 1; k++) {
    below += choose / 2 ** n; // P(X ≤ k − 1)
    choose = (choose * (n - (k - 1))) / k;
    const coverage = 1 - 2 * below;
    if (coverage < confidence) break;
    best = { low: s[k - 1]!, high: s[n - k]!, coverage };
  }
  return best;
}
/** The order of a round's two runs: off/on, on/off, off/on…, so that neither mode always goes first. */
export const roundOrder = (round: number): Mode[] => (round % 2 ? ['off', 'on'] : ['on', 'off']);

type RunRate = Pick<Run, 'round' | 'mode' | 'reqPerSec'>;

/** The estimate the verdict used until 29 November, printed beside it: 1 − median on ÷ median off over all runs, in %. */
export function pooledCost(runs: RunRate[]): number {
  const of = (mode: Mode) => median(runs.filter((r) => r.mode === mode).map((r) => r.reqPerSec));
  return (1 - of('on') / of('off')) * 100;
}

/**
 * The verdict's estimate from one store's and endpoint's runs: the median over rounds of on ÷ off
 * within the round, its cost (1 − that, in %) and an interval for that cost.
 */
export function pairedCost(runs: RunRate[]) {
  const off = new Map(runs.filter((r) => r.mode === 'off').map((r) => [r.round, r.reqPerSec]));
  const pairs = runs.filter((r) => r.mode === 'on').map((r) => r.reqPerSec / (off.get(r.round) ?? NaN));
  const paired = median(pairs);
  // An interval on the paired ratio reads as one on the cost, high and low swapped.
  const interval = medianInterval(pairs);
  const costInterval = interval && { low: (1 - interval.high) * 100, high: (1 - interval.low) * 100, coverage: interval.coverage };
  return { pairs, paired, pairedCostPercent: (1 - paired) * 100, costInterval };
}
const signedPercent = (x: number) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(1)} %` : 'n/a');

/**
 * Checks the premise of a comparison before loading it: "on" is counted (limit headers with the
 * bench's policy), "off" is not (no limit headers), both answer 200. A failing store lets requests
 * through uncounted, without headers, and the Redis store connects after the service listens: so
 * "on" is asked again for a few seconds until it is counted.
 */
async function checkModes(url: string, endpoint: Endpoint, keys: Record<Mode, string>, windowSeconds: number): Promise<string[]> {
  const expected = `"pro";q=${BENCH_PRO_LIMIT};w=${windowSeconds}`;
  const ask = async (mode: Mode) => {
    const spec = endpoint.request(keys[mode]);
    const res = await fetch(new URL(spec.path, url), { method: spec.method, headers: spec.headers, body: spec.body });
    await res.arrayBuffer();
    return { status: res.status, policy: res.headers.get('ratelimit-policy') };
  };
  const problems: string[] = [];
  let on = await ask('on');
  for (const deadline = Date.now() + 10_000; on.status === 200 && on.policy === null && Date.now() < deadline; on = await ask('on')) {
    await new Promise((r) => setTimeout(r, 200));
  }
  if (on.status !== 200) problems.push(`on: HTTP ${on.status}`);
  if (on.policy !== expected) problems.push(`on: RateLimit-Policy is ${on.policy ?? 'absent (not counted)'}, not ${expected}`);
  const off = await ask('off');
  if (off.status !== 200) problems.push(`off: HTTP ${off.status}`);
  if (off.policy !== null) problems.push(`off: counted after all (RateLimit-Policy ${off.policy})`);
  return problems;
}

/** Calls and server-side µs of the rate-limit script so far (EVALSHA and EVAL), from INFO commandstats. */
async function scriptStats(redis: Redis): Promise<{ calls: number; usec: number }> {
  const info = await redis.info('commandstats');
  let calls = 0;
  let usec = 0;
  for (const m of info.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+),usec=(\d+)/gm)) {
    calls += Number(m[1]);
    usec += Number(m[2]);
  }
  return { calls, usec };
}

export async function runLimitsBench(o: LimitsBenchOptions): Promise<LimitsBenchResult> {
  const [ada, , alan] = DEMO_ACCOUNTS;
  if (ada.tier !== 'PRO' || alan.tier !== 'ENTERPRISE') throw new Error('rate limits: expected ada to be PRO and alan ENTERPRISE');
  const service = overHttp(o.serviceUrl);
  const keyOf = (account: (typeof DEMO_ACCOUNTS)[number]) => createApiKey(service, account, `bench: rate limits (${account.tier})`);
  const keys: Record<Mode, string> = { on: await keyOf(ada), off: await keyOf(alan) };
  const endpoints = o.graphql ? ENDPOINTS : ENDPOINTS.slice(0, 1);
  const notes: string[] = [];
  const stores: { name: string; env: Record<string, string> }[] = [{ name: 'in-process', env: {} }];
  let redis: Redis | undefined;
  if (o.redisUrl) {
    redis = new Redis(o.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2_000, retryStrategy: () => null });
    try {
      await redis.connect();
      await redis.ping();
      stores.push({ name: 'Redis', env: { REDIS_URL: o.redisUrl } });
      notes.push(
        `Redis (${o.redisUrl}) shares this machine's cores with the service, PostgreSQL and autocannon: its CPU per script` +
          " (below) comes out of the throughput measured here; the service's own share of the cost is in µs/req",
      );
    } catch (error) {
      notes.push(`Redis store skipped: ${o.redisUrl} did not answer (${String(error)})`);
      redis.disconnect();
      redis = undefined;
    }
  } else {
    notes.push('Redis store skipped (BENCH_LIMITS_REDIS_URL=none)');
  }

  const runs: Run[] = [];
  const redisScripts = new Map<string, { calls: number; usec: number; answered: number }>();
  const invalid = new Map<string, string[]>();
  try {
    for (const store of stores) {
      const env = { RATE_LIMIT_PRO: String(BENCH_PRO_LIMIT), RATE_LIMIT_WINDOW_S: String(o.windowSeconds), ...store.env };
      o.progress(`${LIMITS_GROUP}: starting a service with the ${store.name} store`);
      const service = await o.startService(`service (limits, ${store.name})`, env);
      try {
        for (const endpoint of endpoints) {
          const id = `${store.name}, ${endpoint.name}`;
          const problems = await checkModes(service.url, endpoint, keys, o.windowSeconds);
          if (problems.length) invalid.set(id, problems.map((p) => `check request ${p}`));
          if (problems.length) o.progress(`${LIMITS_GROUP}, ${id}: ${problems.join('; ')}`);
          for (let round = 1; round <= o.rounds; round++) {
            const timing = round === 1 ? { ...o.timing, warmupSeconds: o.firstWarmupSeconds } : o.timing;
            for (const mode of roundOrder(round)) {
              const label = `limits ${mode}, ${store.name}, ${endpoint.name} #${round}`;
              const scenario: Scenario = { name: label, target: 'service', request: () => endpoint.request(keys[mode]) };
              const before = redis && store.env.REDIS_URL && mode === 'on' ? await scriptStats(redis) : undefined;
              const { result: r, cpuCores, machineCores, problem } = await service.measure(scenario, label, timing);
              if (before && redis) {
                const after = await scriptStats(redis);
                const sum = redisScripts.get(id) ?? { calls: 0, usec: 0, answered: 0 };
                redisScripts.set(id, { calls: sum.calls + after.calls - before.calls, usec: sum.usec + after.usec - before.usec, answered: sum.answered + r['2xx'] });
                // A failing Redis lets requests through uncounted (and without headers), and the
                // service says so in its log. One script counts all the hits of one event-loop turn
                // (redis-store.ts), so there are fewer scripts than requests, but never none.
                const failed = service.output().includes(STORE_FAILED_MESSAGE);
                if (failed || after.calls === before.calls) {
                  const list = invalid.get(id) ?? [];
                  list.push(`round ${round} on: ${failed ? `the service logged "${STORE_FAILED_MESSAGE}"` : 'no script ran'} (requests let through uncounted)`);
                  invalid.set(id, list);
                }
              }
              runs.push({
                store: store.name,
                endpoint: endpoint.name,
                round,
                mode,
                reqPerSec: r.requests.average,
                p50: r.latency.p50,
                p99: r.latency.p99,
                non2xx: r.non2xx,
                errors: r.errors,
                timeouts: r.timeouts,
                mismatches: r.mismatches,
                cpuUsPerReq: (cpuCores * 1e6) / r.requests.average,
                machineCores,
                load1: loadavg()[0]!,
                problem,
              });
              o.progress(`${label}: ${fixed(r.requests.average)} req/s, p99 ${fixed(r.latency.p99)} ms, ${r.non2xx} non-2xx`);
            }
          }
        }
      } finally {
        await service.stop();
      }
    }
  } finally {
    redis?.disconnect();
  }

  const runRows = runs.map((r) => [
    r.store,
    r.endpoint,
    String(r.round),
    r.mode,
    fixed(r.reqPerSec),
    fixed(r.p50),
    fixed(r.p99),
    String(r.non2xx),
    String(r.errors + r.mismatches),
    fixed(r.cpuUsPerReq),
    fixed(r.machineCores, 2),
    fixed(r.load1, 2),
  ]);
  const runTable = table(
    ['store', 'endpoint', 'round', 'limits', 'req/s', 'p50 ms', 'p99 ms', 'non2xx', 'err+mism', 'µs/req', 'cpu all', 'load1'],
    runRows,
    [false, false, true, false, true, true, true, true, true, true, true, true],
  );

  const summaries: Record<string, unknown>[] = [];
  const summaryRows: string[][] = [];
  const verdicts: string[] = [];
  for (const store of stores) {
    for (const endpoint of endpoints) {
      const id = `${store.name}, ${endpoint.name}`;
      const mine = runs.filter((r) => r.store === store.name && r.endpoint === endpoint.name);
      const of = (mode: Mode) => mine.filter((r) => r.mode === mode);
      const off = median(of('off').map((r) => r.reqPerSec));
      const on = median(of('on').map((r) => r.reqPerSec));
      const ratio = on / off;
      const costPercent = pooledCost(mine);
      const { pairs, paired, pairedCostPercent, costInterval } = pairedCost(mine);
      const interval = costInterval && `${signedPercent(costInterval.low)} … ${signedPercent(costInterval.high)}`;
      const offUs = median(of('off').map((r) => r.cpuUsPerReq));
      const onUs = median(of('on').map((r) => r.cpuUsPerReq));
      const cpuCostPercent = (onUs / offUs - 1) * 100;
      const script = redisScripts.get(id);
      const scriptUs = script && script.calls ? script.usec / script.calls : undefined;
      const failed = mine.reduce((a, r) => a + r.non2xx + r.errors + r.mismatches, 0);
      const problems = [...(invalid.get(id) ?? []), ...mine.flatMap((r) => (r.problem ? [`round ${r.round} ${r.mode}: ${r.problem}`] : []))];
      if (failed) problems.push(`${failed} failed responses (non-2xx, errors or unexpected bodies): not comparable`);
      summaryRows.push([
        store.name,
        endpoint.name,
        fixed(off),
        fixed(on),
        ratio.toFixed(3),
        signedPercent(costPercent),
        paired.toFixed(3),
        signedPercent(pairedCostPercent),
        interval ?? 'n/a',
        fixed(median(of('off').map((r) => r.p99))),
        fixed(median(of('on').map((r) => r.p99))),
        fixed(offUs),
        fixed(onUs),
        signedPercent(cpuCostPercent),
      ]);
      const ok = !problems.length && pairedCostPercent < GOAL_COST_PERCENT;
      verdicts.push(
        `${ok ? 'PASS' : 'MISS'}  ${LIMITS_GROUP}, ${id}: limits on cost ${signedPercent(pairedCostPercent)} of req/s` +
          ` (paired: median of ${pairs.length} rounds' on ÷ off, ${paired.toFixed(3)};` +
          ` ${costInterval ? `${(costInterval.coverage * 100).toFixed(0)} % interval ${interval}` : 'too few rounds for an interval'};` +
          ` medians over all runs ${signedPercent(costPercent)}; goal < ${GOAL_COST_PERCENT} %)${problems.length ? `; ${problems.join('; ')}` : ''}`,
      );
      if (scriptUs !== undefined) {
        notes.push(
          `${id}: Redis ran ${script!.calls} rate-limit scripts during the "on" runs (warm-ups included), ${scriptUs.toFixed(1)} µs each server-side (INFO commandstats);` +
            ` at most ${(script!.usec / script!.answered).toFixed(1)} µs of Redis CPU per answered request (${script!.answered} answered, warm-ups not counted)`,
        );
      }
      summaries.push({
        store: store.name,
        endpoint: endpoint.name,
        offReqPerSec: off,
        onReqPerSec: on,
        ratio,
        costPercent,
        pairedRatio: paired,
        pairedCostPercent,
        pairedCostInterval: costInterval,
        offP99: median(of('off').map((r) => r.p99)),
        onP99: median(of('on').map((r) => r.p99)),
        offCpuUsPerReq: offUs,
        onCpuUsPerReq: onUs,
        cpuCostPercent,
        redisScriptUsPerCall: scriptUs,
        problems,
        pass: ok,
      });
    }
  }
  const summaryTable = table(
    ['store', 'endpoint', 'off req/s', 'on req/s', 'on/off', 'cost', 'paired', 'paired cost', 'its interval', 'off p99', 'on p99', 'off µs/req', 'on µs/req', 'cpu cost'],
    summaryRows,
    [false, false, true, true, true, true, true, true, true, true, true, true, true, true],
  );

  const text = [
    `rate limits: the same endpoint on the same service process, limits on vs off (RATE_LIMIT_PRO=${BENCH_PRO_LIMIT}, RATE_LIMIT_WINDOW_S=${o.windowSeconds}; ${o.rounds} off+on pairs per row, alternating which goes first;` +
      ` ${o.timing.durationSeconds} s a run after ${o.timing.warmupSeconds} s of warm-up, ${o.firstWarmupSeconds} s in the first round)`,
    '  on  = ada\'s API key, PRO tier: every request counted against her budget, under the limit (any non-2xx: MISS)',
    '  off = alan\'s API key, ENTERPRISE tier: never counted. There is no switch to disable limits; an Enterprise caller takes',
    '        the same path (same API-key lookup and handler) and skips only the counting and its headers',
    `  window ${o.windowSeconds} s: ${o.windowSeconds <= 1 ? "the log per caller holds ~req/s entries, one pruned per request, like a real caller's" : `the log per caller grows to ~req/s × ${o.windowSeconds} entries, far beyond a real Pro caller's 600`}`,
    '',
    runTable,
    '',
    summaryTable,
    '',
    'on/off: median on req/s ÷ median off req/s over all runs; cost: 1 − on/off',
    'paired: median over rounds of on ÷ off of the same round; paired cost: 1 − paired, the verdict; its interval: a distribution-free',
    '  ~95 % confidence interval for it (order statistics of the rounds\' ratios)',
    'p99: medians, ms; µs/req: CPU time of the service process per response (medians); cpu cost: on µs/req ÷ off µs/req − 1',
    'cpu all: cores\' worth of CPU the whole machine used (service, autocannon, PostgreSQL, Redis, other tenants); load1 after each run',
    ...notes.map((n) => `note: ${n}`),
    '',
    ...verdicts,
  ].join('\n');
  const json = {
    proLimit: BENCH_PRO_LIMIT,
    windowSeconds: o.windowSeconds,
    rounds: o.rounds,
    timing: o.timing,
    firstWarmupSeconds: o.firstWarmupSeconds,
    runs,
    summaries,
    notes,
    pass: summaries.every((s) => s.pass === true),
  };
  return { text, json };
}
