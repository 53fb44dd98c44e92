// The page-view analytics section of `npm run bench` ("page-view analytics"; run.ts calls it last):
// totals at 10 million views, and recording throughput. Goals: every total under 20 ms (p95 over
// HTTP), recording ≥ 2,000 views/s on one instance, and every total exact.
//
// - A dedicated database and service process (rate limits out of reach), so the 10 M rows do not
//   slow the other sections.
// - Seed: BENCH_ANALYTICS_VIEWS views (default 10 M) spread over the year before now, on
//   BENCH_ANALYTICS_PATHS paths (default 400, skewed: a few pages get most views), with INSERT …
//   SELECT generate_series in batches of 1 M rows (one transaction each), straight into PageView
//   as the service's own inserts land there (txid is the writing transaction; the secondary
//   indexes are rebuilt after the load). Then the service's own fold (foldPageViews,
//   src/modules/analytics/fold.ts) folds them into the buckets, timed.
// - Totals: GET /api/analytics/views over HTTP, one keep-alive connection, BENCH_ANALYTICS_REQUESTS
//   requests per shape (default 200), each with new random millisecond boundaries: unfiltered,
//   from, to, from+to, path, path+from+to, and a window inside one minute. Median, p95, max.
// - Exactness: a few of those windows are also counted with count(*) on the table.
// - Recording: POST /api/analytics/views on BENCH_CONNECTIONS keep-alive connections for
//   BENCH_DURATION seconds (after a warm-up), paths cycling over 50; views/s = 202s / duration,
//   and the service's CPU time per view. Afterwards the unfiltered total must have grown by
//   exactly the number of 202s.
// - Then the total shapes again, now with the freshly recorded views partly not folded yet.
import { setTimeout as sleep } from 'node:timers/promises';
import http from 'node:http';
import pg from 'pg';
import { openDatabase } from '../src/db/open-database.js';
import { newId } from '../src/ids.js';
import { foldPageViews } from '../src/modules/analytics/fold.js';
import { RECORD_SQL } from '../src/modules/analytics/service.js';
import { totalStatement } from '../src/modules/analytics/totals.js';
import { startDedicatedService } from './lib/dedicated-service.js';
import { readStats } from './lib/proc.js';
import { fixed, table } from './lib/report.js';

export const ANALYTICS_GROUP = 'page-view analytics';
const GOAL_MS = 20;
const GOAL_VIEWS_PER_SECOND = 2_000;
const BATCH = 1_000_000;
const YEAR_MS = 365 * 86_400_000;
/** PageView's secondary indexes, as prisma/migrations create them. */
const PAGE_VIEW_INDEXES = [
  { name: 'PageView_at_idx', columns: '"at"' },
  { name: 'PageView_path_at_idx', columns: '"path", "at"' },
  { name: 'PageView_txid_idx', columns: '"txid"' },
];

export interface AnalyticsBenchOptions {
  root: string;
  views: number;
  paths: number;
  requests: number;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  poolSize: number;
  /** Registers a cleanup step with run.ts (run on failure and on SIGINT too). */
  defer(name: string, run: () => Promise<unknown>): void;
  progress(message: string): void;
}

export interface AnalyticsBenchResult {
  text: string;
  json: Record<string, unknown>;
}

interface Shape {
  name: string;
  /** New random boundaries each time. */
  next(): Filter;
}

interface Filter {
  path?: string;
  from?: string;
  to?: string;
}

function queryString(f: Filter): string {
  const params = new URLSearchParams();
  for (const key of ['path', 'from', 'to'] as const) if (f[key] !== undefined) params.set(key, f[key]);
  return params.size ? `?${params.toString()}` : '';
}

interface Latency {
  shape: string;
  p50: number;
  p95: number;
  max: number;
  /** The totals statement alone, timed from here on a pg connection: what the database costs. */
  sqlP50: number;
  sqlP95: number;
}

const pathOf = (i: number) => `/docs/page-${i}`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function runAnalyticsBench(o: AnalyticsBenchOptions): Promise<AnalyticsBenchResult> {
  const { url, databaseUrl, service, sql } = await startDedicatedService({
    name: ANALYTICS_GROUP, root: o.root, poolSize: o.poolSize, defer: o.defer, progress: o.progress,
    env: { RATE_LIMIT_PAGE_VIEWS: '100000000/1m' },
  });
  // The bench's own handle on the database, for the service's fold.
  const database = await openDatabase({ databaseUrl, dataDir: '', dbPoolSize: 2 });
  o.defer('close analytics database', () => database.close());

  // Seed. Paths skewed (index = floor(paths × r²)); times evenly over the year with jitter.
  const end = Date.now() - 60_000;
  const start = end - YEAR_MS;
  const seedStarted = Date.now();
  // The secondary indexes are built once after the load (sorted, far faster than 10 M random
  // inserts into the (path, at) index), with the migration's own names and definitions.
  await sql.query(`SET maintenance_work_mem = '256MB'`);
  for (const index of PAGE_VIEW_INDEXES) await sql.query(`DROP INDEX "${index.name}"`);
  for (let done = 0; done < o.views; done += BATCH) {
    const n = Math.min(BATCH, o.views - done);
    o.progress(`${ANALYTICS_GROUP}: seeding views ${done + 1}–${done + n} of ${o.views}`);
    await sql.query(
      `INSERT INTO "PageView" (path, at)
       SELECT '/docs/page-' || floor($1::int * random() ^ 2)::int,
              to_timestamp(($2::float8 + (i + random()) * $3::float8) / 1000)
         FROM generate_series($4::int8, $5::int8) AS i`,
      [o.paths, start, YEAR_MS / o.views, done, done + n - 1],
    );
  }
  for (const index of PAGE_VIEW_INDEXES) {
    o.progress(`${ANALYTICS_GROUP}: building index ${index.name}`);
    await sql.query(`CREATE INDEX "${index.name}" ON "PageView" (${index.columns})`);
  }
  const seedSeconds = (Date.now() - seedStarted) / 1000;
  o.progress(`${ANALYTICS_GROUP}: seeded in ${seedSeconds.toFixed(1)} s; folding`);
  const foldStarted = Date.now();
  for (;;) {
    const n = await foldPageViews(database.prisma);
    // null: the service's own worker holds the fold right now.
    if (n !== null && (await unfolded(sql)) === 0) break;
    await sleep(200);
  }
  const foldSeconds = (Date.now() - foldStarted) / 1000;
  await sql.query('VACUUM ANALYZE "PageView"');
  await sql.query('VACUUM ANALYZE "PageViewBucket"');
  const buckets = Number((await sql.query<{ n: string }>('SELECT count(*) AS n FROM "PageViewBucket"')).rows[0]!.n);
  o.progress(`${ANALYTICS_GROUP}: folded in ${foldSeconds.toFixed(1)} s (${buckets} buckets)`);

  const randomInstant = () => new Date(start + Math.floor(Math.random() * YEAR_MS)).toISOString();
  const randomPath = () => pathOf(Math.floor(o.paths * Math.random() ** 2));
  const window = (): [string, string] => {
    const [a, b] = [Date.parse(randomInstant()), Date.parse(randomInstant())].sort((x, y) => x - y) as [number, number];
    return [new Date(a).toISOString(), new Date(a === b ? b + 1 : b).toISOString()];
  };
  const shapes: Shape[] = [
    { name: 'unfiltered', next: () => ({}) },
    { name: 'from', next: () => ({ from: randomInstant() }) },
    { name: 'to', next: () => ({ to: randomInstant() }) },
    { name: 'from + to', next: () => { const [from, to] = window(); return { from, to }; } },
    { name: 'path', next: () => ({ path: randomPath() }) },
    { name: 'path + from + to', next: () => { const [from, to] = window(); return { path: randomPath(), from, to }; } },
    {
      name: 'from + to within a minute',
      next: () => {
        const a = Date.parse(randomInstant());
        return { from: new Date(a).toISOString(), to: new Date(a + 1 + Math.floor(Math.random() * 59_999)).toISOString() };
      },
    },
  ];
  const sqlTotal = async (f: Filter): Promise<number> => {
    const hint = (await sql.query<{ w: string }>('SELECT watermark::text AS w FROM "PageViewFold" WHERE id = 1')).rows[0]!.w;
    const { text, params } = totalStatement(f.path, f.from ? Date.parse(f.from) : -Infinity, f.to ? Date.parse(f.to) : Infinity, hint);
    const t0 = performance.now();
    await sql.query(text, params);
    return performance.now() - t0;
  };

  const get = async (query: string): Promise<number> => {
    const res = await fetch(`${url}/api/analytics/views${query}`);
    const body = (await res.json()) as { total?: number };
    if (res.status !== 200 || typeof body.total !== 'number') throw new Error(`GET /api/analytics/views${query}: HTTP ${res.status} ${JSON.stringify(body)}`);
    return body.total;
  };
  // The same loop on GET /healthz (no database): the floor this machine sets for any request.
  const floor = async (): Promise<Latency> => {
    const times: number[] = [];
    for (let i = 0; i < o.requests; i++) {
      const t0 = performance.now();
      await (await fetch(`${url}/healthz`)).arrayBuffer();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return { shape: 'floor: GET /healthz', p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1)!, sqlP50: NaN, sqlP95: NaN };
  };
  const measure = async (label: string): Promise<Latency[]> => {
    const out: Latency[] = [await floor()];
    for (const shape of shapes) {
      o.progress(`${ANALYTICS_GROUP}: ${label}: ${shape.name}, ${o.requests} requests`);
      for (let i = 0; i < 10; i++) await get(queryString(shape.next())); // warm-up
      const times: number[] = [];
      const sqlTimes: number[] = [];
      for (let i = 0; i < o.requests; i++) {
        const q = queryString(shape.next());
        const t0 = performance.now();
        await get(q);
        times.push(performance.now() - t0);
        sqlTimes.push(await sqlTotal(shape.next()));
      }
      times.sort((a, b) => a - b);
      sqlTimes.sort((a, b) => a - b);
      out.push({ shape: shape.name, p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1)!, sqlP50: percentile(sqlTimes, 50), sqlP95: percentile(sqlTimes, 95) });
    }
    return out;
  };

  const seeded = await measure('totals at rest');

  // Exactness: a few windows against count(*) (each of those takes a while at 10 M rows).
  o.progress(`${ANALYTICS_GROUP}: checking totals against count(*)`);
  const checks: { query: string; api: number; count: number }[] = [];
  for (let i = 0; i < 4; i++) {
    const [a, b] = window();
    const p = randomPath();
    const cases: [string, string, unknown[]][] = [
      [`?from=${a}&to=${b}`, 'at >= $1 AND at < $2', [a, b]],
      [`?path=${encodeURIComponent(p)}&from=${a}&to=${b}`, 'path = $3 AND at >= $1 AND at < $2', [a, b, p]],
    ];
    const [query, where, params] = cases[i % 2]!;
    const count = Number((await sql.query<{ n: string }>(`SELECT count(*) AS n FROM "PageView" WHERE ${where}`, params)).rows[0]!.n);
    checks.push({ query, api: await get(query), count });
  }
  const allCount = Number((await sql.query<{ n: string }>('SELECT count(*) AS n FROM "PageView"')).rows[0]!.n);
  checks.push({ query: '', api: await get(''), count: allCount });

  // Recording over HTTP.
  const paths = Array.from({ length: 50 }, (_, i) => JSON.stringify({ path: `/bench/recorded-${i}` }));
  const before = await get('');
  const record = (seconds: number) => recordViews(`${url}/api/analytics/views`, paths, o.connections, seconds);
  if (o.warmupSeconds > 0) {
    o.progress(`${ANALYTICS_GROUP}: recording warm-up ${o.warmupSeconds} s`);
    await record(o.warmupSeconds);
  }
  const afterWarmup = await get('');
  o.progress(`${ANALYTICS_GROUP}: recording ${o.durationSeconds} s, ${o.connections} connections`);
  const cpuBefore = await readStats(service.pid);
  const rec = await record(o.durationSeconds);
  const cpuAfter = await readStats(service.pid);
  const accepted = rec.accepted;
  const viewsPerSecond = accepted / rec.seconds;
  const cpuPerView = cpuBefore && cpuAfter ? ((cpuAfter.cpuSeconds - cpuBefore.cpuSeconds) * 1e6) / accepted : NaN;
  const afterRecording = await get('');
  // The write path below HTTP: the service's own recording statement on a pool like the service's.
  const storage = await recordDirect(databaseUrl, o.poolSize, Math.min(5, o.durationSeconds));
  const afterDirect = await get('');
  const pending = await unfolded(sql);
  const fresh = await measure('totals after recording');

  const latencyRows = (label: string, rows: Latency[]) =>
    rows.map((r) => [label, r.shape, fixed(r.p50, 2), fixed(r.p95, 2), fixed(r.max, 2), Number.isNaN(r.sqlP50) ? '' : `< ${GOAL_MS}`, fixed(r.sqlP50, 2), fixed(r.sqlP95, 2)]);
  const latencyTable = table(
    ['state', 'total', 'p50 ms', 'p95 ms', 'max ms', 'goal ms', 'sql p50', 'sql p95'],
    [...latencyRows(`${o.views.toLocaleString('en-US')} views, folded`, seeded), ...latencyRows('+ fresh views', fresh)],
    [false, false, true, true, true, true, true, true],
  );
  const totals = [...seeded, ...fresh].filter((r) => !Number.isNaN(r.sqlP50));
  const worst = Math.max(...totals.map((r) => r.p95));
  const worstMedian = Math.max(...totals.map((r) => r.p50));
  const worstSql = Math.max(...totals.map((r) => r.sqlP95));
  const wrong = checks.filter((c) => c.api !== c.count);
  const recordedExactly = afterRecording - afterWarmup === accepted && afterWarmup >= before;
  const verdicts = [
    `${worst < GOAL_MS ? 'PASS' : 'MISS'}  ${ANALYTICS_GROUP}: totals at ${o.views.toLocaleString('en-US')} views over HTTP, worst p95 ${fixed(worst, 2)} ms, worst median ${fixed(worstMedian, 2)} ms (goal < ${GOAL_MS} ms, every shape); the statement alone: worst p95 ${fixed(worstSql, 2)} ms`,
    `${viewsPerSecond >= GOAL_VIEWS_PER_SECOND && rec.failed === 0 ? 'PASS' : 'MISS'}  ${ANALYTICS_GROUP}: recording ${fixed(viewsPerSecond)} views/s over HTTP (goal ≥ ${GOAL_VIEWS_PER_SECOND}), p50 ${fixed(rec.p50, 1)} ms, p99 ${fixed(rec.p99, 1)} ms, ${rec.failed} not 202;` +
      ` service CPU ${fixed(cpuPerView)} µs a view (${fixed(1e6 / cpuPerView)} views/s per core)`,
    `${storage.perSecond >= GOAL_VIEWS_PER_SECOND ? 'PASS' : 'MISS'}  ${ANALYTICS_GROUP}: the recording statement alone (view + analytics.hit, ${o.poolSize} connections, no HTTP): ${fixed(storage.perSecond)} views/s (goal ≥ ${GOAL_VIEWS_PER_SECOND}); total grew by ${afterDirect - afterRecording} for ${storage.views}`,
    `${wrong.length === 0 && recordedExactly && afterDirect - afterRecording === storage.views ? 'PASS' : 'MISS'}  ${ANALYTICS_GROUP}: exact: ${checks.length - wrong.length}/${checks.length} totals equal count(*)` +
      `${wrong.length ? ` (wrong: ${wrong.map((c) => `${c.query || '(all)'} api ${c.api} count ${c.count}`).join('; ')})` : ''}` +
      `; total grew by ${afterRecording - afterWarmup} for ${accepted} views answered 202`,
  ];
  const notes = [
    `seed: ${o.views} views on ${o.paths} paths over a year in ${fixed(seedSeconds, 1)} s (INSERT … SELECT generate_series, ${BATCH} a statement, indexes built after);` +
      ` the service's fold worker folded each batch as it committed, the rest ${fixed(foldSeconds, 1)} s after the load (${buckets} buckets)`,
    'sql p50/p95: the same shapes (other random boundaries), the totals statement timed alone on a pg connection from the bench',
    `latency: ${o.requests} sequential requests per shape on one keep-alive connection, new random millisecond boundaries each`,
    `after recording: ${pending} views not folded yet when the second round started (counted from the rows)`,
  ];
  const text = `${ANALYTICS_GROUP}\n\n${latencyTable}\n\n${notes.join('\n')}\n\n${verdicts.join('\n')}`;
  return {
    text,
    json: { views: o.views, paths: o.paths, seedSeconds, foldSeconds, buckets, seeded, fresh, checks, viewsPerSecond, cpuPerViewUs: cpuPerView, recorded: accepted, grew: afterRecording - afterWarmup, failed: rec.failed, p50: rec.p50, p99: rec.p99 },
  };
}

interface Recording {
  accepted: number;
  failed: number;
  seconds: number;
  p50: number;
  p99: number;
}

/**
 * POSTs views on `connections` keep-alive connections for `seconds`, each waiting for its answer
 * before sending the next, and counts the 202s exactly: every request sent is answered before
 * this resolves (autocannon's counts leave out the requests in flight when it stops, which the
 * server still records, so the total could not be checked against them).
 */
async function recordViews(url: string, bodies: string[], connections: number, seconds: number): Promise<Recording> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(url);
  const post = (body: string) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(
        { agent, host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const latencies: number[] = [];
  let accepted = 0;
  let failed = 0;
  let k = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const status = await post(bodies[k++ % bodies.length]!).catch(() => 0);
        latencies.push(performance.now() - t0);
        if (status === 202) accepted++;
        else failed++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { accepted, failed, seconds: elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/** RECORD_SQL on a pool of `connections` for `seconds`: views/s where no HTTP is involved. */
async function recordDirect(url: string, connections: number, seconds: number): Promise<{ views: number; perSecond: number }> {
  const pool = new pg.Pool({ connectionString: url, max: connections });
  let views = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  try {
    await Promise.all(
      Array.from({ length: connections }, async (_, c) => {
        while (performance.now() < deadline) {
          const path = `/bench/direct-${c % 50}`;
          const timestamp = new Date().toISOString();
          await pool.query(RECORD_SQL, [path, newId('evt'), 'analytics.hit', JSON.stringify({ event: 'analytics.hit', timestamp, path }), timestamp]);
          views++;
        }
      }),
    );
  } finally {
    await pool.end();
  }
  return { views, perSecond: views / ((performance.now() - started) / 1000) };
}

async function unfolded(sql: pg.Client): Promise<number> {
  const { rows } = await sql.query<{ n: string }>(
    'SELECT count(*) AS n FROM "PageView" WHERE txid >= (SELECT watermark FROM "PageViewFold" WHERE id = 1)',
  );
  return Number(rows[0]!.n);
}
