// The page-view analytics section of `npm run bench` ("page-view analytics"; run.ts calls it last):
// totals at 10 million views, and recording throughput. Goals: every total under 20 ms (p95 over
// HTTP), recording ≥ 2,000 views/s on one instance, and every total exact.
//
// - A dedicated database and service process (rate limits out of reach), so the 10 M rows do not
//   slow the other sections.
// - Seed: BENCH_ANALYTICS_VIEWS views (default 10 M) spread over the year before now, on
//   BENCH_ANALYTICS_PATHS paths (default 400, skewed: a few pages get most views), with INSERT …
//   SELECT generate_series in batches of 1 M rows (one transaction each), straight into PageView
//   as the service's own inserts land there (txid is the writing transaction). Then the service's
//   own fold (foldPageViews, src/modules/analytics/fold.ts) folds them into the buckets, timed.
// - Totals: GET /api/analytics/views over HTTP, one keep-alive connection, BENCH_ANALYTICS_REQUESTS
//   requests per shape (default 200), each with new random millisecond boundaries: unfiltered,
//   from, to, from+to, path, path+from+to, and a window inside one minute. Median, p95, max.
// - Exactness: a few of those windows are also counted with count(*) on the table.
// - Recording: POST /api/analytics/views with autocannon (BENCH_CONNECTIONS connections,
//   BENCH_DURATION seconds, after a warm-up), paths cycling over 50; views/s = 202s / duration.
//   Afterwards the unfiltered total must have grown by exactly the number of 202s.
// - Then the total shapes again, now with the freshly recorded views partly not folded yet.
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import pg from 'pg';
import { openDatabase } from '../src/db/client.js';
import { foldPageViews } from '../src/modules/analytics/fold.js';
import { createDatabase } from './lib/database.js';
import { freePort, startNode, waitForHttp, type Child } from './lib/processes.js';
import { fixed, table } from './lib/report.js';

export const ANALYTICS_GROUP = 'page-view analytics';
const GOAL_MS = 20;
const GOAL_VIEWS_PER_SECOND = 2_000;
const BATCH = 1_000_000;
const YEAR_MS = 365 * 86_400_000;

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
  /** A new query string each time (random boundaries). */
  query(): string;
}

interface Latency {
  shape: string;
  p50: number;
  p95: number;
  max: number;
}

const pathOf = (i: number) => `/docs/page-${i}`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function runAnalyticsBench(o: AnalyticsBenchOptions): Promise<AnalyticsBenchResult> {
  const db = await createDatabase();
  o.defer(`drop database ${db.name}`, db.drop);
  o.progress(`${ANALYTICS_GROUP}: database ${db.name}`);
  const port = await freePort();
  const service: Child = startNode('analytics service', 'src/main.ts', {
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: db.url,
    DB_POOL_SIZE: String(o.poolSize),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_FREE: '100000000',
    RATE_LIMIT_PRO: '100000000',
    RATE_LIMIT_PAGE_VIEWS: '100000000/1m',
    RATE_LIMIT_WINDOW_S: '1',
  }, o.root);
  o.defer('stop analytics service', service.stop);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`, service, 180_000);

  const sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
  o.defer('close analytics sql client', () => sql.end());
  // The bench's own handle on the database, for the service's fold.
  const database = await openDatabase({ databaseUrl: db.url, dataDir: '', dbPoolSize: 2 });
  o.defer('close analytics database', () => database.close());

  // Seed. Paths skewed (index = floor(paths × r²)); times evenly over the year with jitter.
  const end = Date.now() - 60_000;
  const start = end - YEAR_MS;
  const seedStarted = Date.now();
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
    { name: 'unfiltered', query: () => '' },
    { name: 'from', query: () => `?from=${randomInstant()}` },
    { name: 'to', query: () => `?to=${randomInstant()}` },
    { name: 'from + to', query: () => { const [a, b] = window(); return `?from=${a}&to=${b}`; } },
    { name: 'path', query: () => `?path=${encodeURIComponent(randomPath())}` },
    { name: 'path + from + to', query: () => { const [a, b] = window(); return `?path=${encodeURIComponent(randomPath())}&from=${a}&to=${b}`; } },
    {
      name: 'from + to within a minute',
      query: () => {
        const a = Date.parse(randomInstant());
        return `?from=${new Date(a).toISOString()}&to=${new Date(a + 1 + Math.floor(Math.random() * 59_999)).toISOString()}`;
      },
    },
  ];

  const get = async (query: string): Promise<number> => {
    const res = await fetch(`${url}/api/analytics/views${query}`);
    const body = (await res.json()) as { total?: number };
    if (res.status !== 200 || typeof body.total !== 'number') throw new Error(`GET /api/analytics/views${query}: HTTP ${res.status} ${JSON.stringify(body)}`);
    return body.total;
  };
  const measure = async (label: string): Promise<Latency[]> => {
    const out: Latency[] = [];
    for (const shape of shapes) {
      o.progress(`${ANALYTICS_GROUP}: ${label}: ${shape.name}, ${o.requests} requests`);
      for (let i = 0; i < 10; i++) await get(shape.query()); // warm-up
      const times: number[] = [];
      for (let i = 0; i < o.requests; i++) {
        const q = shape.query();
        const t0 = performance.now();
        await get(q);
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      out.push({ shape: shape.name, p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1)! });
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
  const record = (duration: number) =>
    new Promise<autocannon.Result>((resolve, reject) => {
      let k = 0;
      autocannon(
        {
          url: `${url}/api/analytics/views`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          connections: o.connections,
          duration,
          requests: [{ setupRequest: (req) => ({ ...req, body: paths[k++ % paths.length]! }) }],
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      );
    });
  if (o.warmupSeconds > 0) {
    o.progress(`${ANALYTICS_GROUP}: recording warm-up ${o.warmupSeconds} s`);
    await record(o.warmupSeconds);
  }
  const afterWarmup = await get('');
  o.progress(`${ANALYTICS_GROUP}: recording ${o.durationSeconds} s, ${o.connections} connections`);
  const rec = await record(o.durationSeconds);
  const accepted = rec['2xx'];
  const viewsPerSecond = accepted / rec.duration;
  const afterRecording = await get('');
  const pending = await unfolded(sql);
  const fresh = await measure('totals after recording');

  const latencyRows = (label: string, rows: Latency[]) =>
    rows.map((r) => [label, r.shape, fixed(r.p50, 2), fixed(r.p95, 2), fixed(r.max, 2), `< ${GOAL_MS}`]);
  const latencyTable = table(
    ['state', 'total', 'p50 ms', 'p95 ms', 'max ms', 'goal ms'],
    [...latencyRows(`${(o.views / 1e6).toFixed(0)} M views, folded`, seeded), ...latencyRows('+ fresh views', fresh)],
    [false, false, true, true, true, true],
  );
  const worst = Math.max(...[...seeded, ...fresh].map((r) => r.p95));
  const wrong = checks.filter((c) => c.api !== c.count);
  const recordedExactly = afterRecording - afterWarmup === accepted && afterWarmup >= before;
  const verdicts = [
    `${worst < GOAL_MS ? 'PASS' : 'MISS'}  ${ANALYTICS_GROUP}: totals at ${(o.views / 1e6).toFixed(0)} M views, worst p95 ${fixed(worst, 2)} ms (goal < ${GOAL_MS} ms, every shape)`,
    `${viewsPerSecond >= GOAL_VIEWS_PER_SECOND && rec.non2xx === 0 && rec.errors === 0 ? 'PASS' : 'MISS'}  ${ANALYTICS_GROUP}: recording ${fixed(viewsPerSecond)} views/s over HTTP (goal ≥ ${GOAL_VIEWS_PER_SECOND}), p50 ${fixed(rec.latency.p50)} ms, p99 ${fixed(rec.latency.p99)} ms, ${rec.non2xx} non-2xx, ${rec.errors} errors`,
    `${wrong.length === 0 && recordedExactly ? 'PASS' : 'MISS'}  ${ANALYTICS_GROUP}: exact: ${checks.length - wrong.length}/${checks.length} totals equal count(*)` +
      `${wrong.length ? ` (wrong: ${wrong.map((c) => `${c.query || '(all)'} api ${c.api} count ${c.count}`).join('; ')})` : ''}` +
      `; total grew by ${afterRecording - afterWarmup} for ${accepted} views answered 202`,
  ];
  const notes = [
    `seed: ${o.views} views on ${o.paths} paths over a year in ${fixed(seedSeconds, 1)} s (INSERT … SELECT generate_series, ${BATCH} a statement);` +
      ` fold of them all in ${fixed(foldSeconds, 1)} s (${buckets} buckets)`,
    `latency: ${o.requests} sequential requests per shape on one keep-alive connection, new random millisecond boundaries each`,
    `after recording: ${pending} views not folded yet when the second round started (counted from the rows)`,
  ];
  const text = `${ANALYTICS_GROUP}\n\n${latencyTable}\n\n${notes.join('\n')}\n\n${verdicts.join('\n')}`;
  return {
    text,
    json: { views: o.views, paths: o.paths, seedSeconds, foldSeconds, buckets, seeded, fresh, checks, viewsPerSecond, recorded: accepted, grew: afterRecording - afterWarmup, non2xx: rec.non2xx, errors: rec.errors },
  };
}

async function unfolded(sql: pg.Client): Promise<number> {
  const { rows } = await sql.query<{ n: string }>(
    'SELECT count(*) AS n FROM "PageView" WHERE txid >= (SELECT watermark FROM "PageViewFold" WHERE id = 1)',
  );
  return Number(rows[0]!.n);
}
