// Page-view totals from rollups (src/modules/analytics): exact at any boundary, whether the views
// are folded into buckets yet or not, under concurrent recording, with two instances on one
// PostgreSQL, and on a database migrated from the schema before the buckets. Real servers over
// HTTP on both databases; the expected counts are brute force over the rows the test wrote.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMigrationList, withSchemaEngine } from '../src/db/schema-engine.js';
import { expectError } from './support/assert.js';
import { instancesTest } from './support/fixtures.js';
import { client, type Client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { createPgDatabase, DATABASES, startTestServer, type DatabaseKind, type TestServer } from './support/server.js';
import { sleep, waitFor } from './support/wait.js';

/** The migration that introduced the buckets (everything before it is "the current schema" of old). */
const ROLLUP_MIGRATION = '20261123065646_analytics_rollups';

interface Store {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

async function openStore(kind: DatabaseKind, dataDir: string, databaseUrl: string | undefined): Promise<Store> {
  if (kind === 'postgres') {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    return { query: async <T>(text: string, params: unknown[] = []) => (await c.query(text, params)).rows as T[], close: () => c.end() };
  }
  const lite = await PGlite.create(join(dataDir, 'pglite'));
  return { query: async <T>(text: string, params: unknown[] = []) => (await lite.query<T>(text, params)).rows, close: () => lite.close() };
}

/**
 * One database of either kind, and the service on it (stopped and started again around direct
 * access on PGlite). Bespoke rather than a fixture: the server is stopped and started mid-test, and
 * the database starts empty or at an older schema, not as the suite's migrated template.
 */
function deployment(kind: DatabaseKind) {
  const d = {} as { dataDir: string; url?: string; drop?: () => Promise<void>; server: TestServer; api: Client };
  const start = async () => {
    d.server = await startTestServer({ kind, env: NO_RATE_LIMITS, reuse: { dataDir: d.dataDir, databaseUrl: d.url } });
    d.api = client(d.server.url);
  };
  return {
    d,
    start,
    async create(): Promise<void> {
      d.dataDir = await mkdtemp(join(tmpdir(), 'learnstream-analytics-'));
      if (kind === 'postgres') Object.assign(d, await createPgDatabase());
    },
    async destroy(): Promise<void> {
      await d.server?.stop();
      await d.drop?.();
      await rm(d.dataDir, { recursive: true, force: true });
    },
    /** Runs `fn` on the database: beside the running server on PostgreSQL; on PGlite (one process owns it) with the server stopped. */
    async direct<T>(fn: (store: Store) => Promise<T>): Promise<T> {
      if (kind === 'pglite') await d.server.stop();
      const store = await openStore(kind, d.dataDir, d.url);
      try {
        return await fn(store);
      } finally {
        await store.close();
        if (kind === 'pglite') await start();
      }
    },
  };
}

const ms = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString();

/** Deterministic pseudo-random numbers (a failure can be replayed). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    s ^= s + Math.imul(s ^ (s >>> 7), 61 | s);
    return ((s ^ (s >>> 14)) >>> 0) / 2 ** 32;
  };
}

interface Row {
  path: string;
  at: number;
}

const PATHS = ['/scale/a', '/scale/b', '/scale/c'];
/** Instants on the edges of every grain: year, month, day, hour, minute, second. */
const BASES = ['2001-01-01T00:00:00.000Z', '2001-03-01T00:00:00.000Z', '2001-03-15T00:00:00.000Z', '2001-03-15T13:00:00.000Z', '2001-03-15T13:27:00.000Z', '2001-03-15T13:27:41.000Z', '2002-12-31T23:59:59.999Z'].map(ms);
const OFFSETS = [-86_400_000, -3_600_000, -60_000, -1_000, -1, 0, 0, 1, 999, 1_000, 59_999, 60_000, 3_600_000, 86_400_000];

function edgeRows(rand: () => number): Row[] {
  const rows: Row[] = [];
  BASES.forEach((base, b) => OFFSETS.forEach((offset, o) => rows.push({ path: PATHS[(b + o) % PATHS.length]!, at: base + offset })));
  const lo = ms('2000-06-01T00:00:00Z');
  const hi = ms('2003-06-01T00:00:00Z');
  for (let i = 0; i < 300; i++) rows.push({ path: PATHS[Math.floor(rand() * PATHS.length)]!, at: lo + Math.floor(rand() * (hi - lo)) });
  return rows;
}

async function insertRows(store: Store, rows: Row[]): Promise<void> {
  await store.query(`INSERT INTO "PageView" (path, at) SELECT * FROM unnest($1::text[], $2::timestamptz[])`, [rows.map((r) => r.path), rows.map((r) => iso(r.at))]);
}

interface Window {
  query: string;
  path?: string;
  /** Exact bounds in ms, fractions for sub-millisecond inputs. */
  from: number;
  to: number;
}

/** Windows with boundaries on and beside the rows and the bucket edges, in every accepted format. */
function windows(rows: Row[], rand: () => number, n: number): Window[] {
  const points = [...rows.map((r) => r.at), ...BASES].flatMap((t) => [t - 1, t, t + 1]);
  const pick = (): { text: string; at: number } | undefined => {
    const r = rand();
    if (r < 0.1) return undefined;
    const t = r < 0.8 ? points[Math.floor(rand() * points.length)]! : ms('2000-01-01T00:00:00Z') + Math.floor(rand() * 4 * 365 * 86_400_000);
    const text = iso(t);
    const form = rand();
    if (form < 0.1 && t % 86_400_000 === 0) return { text: text.slice(0, 10), at: t };
    if (form < 0.2 && t % 1000 === 0) return { text: text.replace('.000Z', 'Z'), at: t };
    // Microseconds (as Python's isoformat sends): 0.5 ms past t.
    if (form < 0.3) return { text: text.replace('Z', '500Z'), at: t + 0.5 };
    return { text, at: t };
  };
  const out: Window[] = [];
  while (out.length < n) {
    let [a, b] = [pick(), pick()];
    if (a && b && a.at > b.at) [a, b] = [b, a];
    if (a && b && a.at === b.at) continue;
    const r = rand();
    const path = r < 0.3 ? undefined : r < 0.95 ? PATHS[Math.floor(rand() * PATHS.length)] : '/scale/never';
    const params = new URLSearchParams();
    if (path) params.set('path', path);
    if (a) params.set('from', a.text);
    if (b) params.set('to', b.text);
    const query = params.size ? `?${params.toString()}` : '';
    out.push({ query, path, from: a?.at ?? -Infinity, to: b?.at ?? Infinity });
  }
  return out;
}

/** Brute force: the rows of the test in the window, plus the views of "now" (demo seed, other tests) when it reaches them. */
function expected(rows: Row[], w: Window, recent: { at: number; path: string }[]): number {
  const inWindow = (r: Row) => (w.path === undefined || r.path === w.path) && r.at >= w.from && r.at < w.to;
  return rows.filter(inWindow).length + recent.filter(inWindow).length;
}

async function total(api: Client, query = ''): Promise<number> {
  const reply = await api.get(`/api/analytics/views${query}`);
  expect(reply.status, `${query}: ${reply.text}`).toBe(200);
  expect(Object.keys(reply.body as object)).toEqual(['total']);
  return reply.body.total as number;
}

async function checkWindows(api: Client, rows: Row[], ws: Window[], recent: Row[], phase: string): Promise<void> {
  const wrong: string[] = [];
  for (const w of ws) {
    const got = await total(api, w.query);
    const want = expected(rows, w, recent);
    if (got !== want) wrong.push(`${phase}: ${w.query || '(unfiltered)'} gave ${got}, brute force ${want}`);
  }
  expect(wrong).toEqual([]);
}

const unfolded = async (store: Store) =>
  Number((await store.query<{ n: string }>(`SELECT count(*) AS n FROM "PageView" WHERE txid >= (SELECT watermark FROM "PageViewFold" WHERE id = 1)`))[0]!.n);

/** The views outside the test's rows: all at "now" (the demo seed, POSTs), with their paths. */
const recentRows = async (store: Store): Promise<Row[]> =>
  (await store.query<{ path: string; at: Date | string }>(`SELECT path, at FROM "PageView" WHERE at >= '2004-01-01'`)).map((r) => ({ path: r.path, at: new Date(r.at).getTime() }));

/**
 * The buckets agree with the rows: for every grain, the buckets of all paths and those of the
 * paths themselves add up to the views below the watermark, and per path to that path's views.
 */
async function checkBuckets(store: Store): Promise<void> {
  const folded = Number((await store.query<{ n: string }>(`SELECT count(*) AS n FROM "PageView" WHERE txid < (SELECT watermark FROM "PageViewFold" WHERE id = 1)`))[0]!.n);
  const sums = await store.query<{ scope: string; grain: number; n: string }>(
    `SELECT CASE WHEN path = '' THEN 'all' ELSE 'paths' END AS scope, grain, sum(count)::text AS n FROM "PageViewBucket" GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  expect(sums.map((s) => `${s.scope} ${s.grain} ${s.n}`)).toEqual([
    ...[1, 2, 3, 4, 5].map((g) => `all ${g} ${folded}`),
    ...[3, 4, 5].map((g) => `paths ${g} ${folded}`),
  ]);
  const perPath = await store.query<{ path: string; rows: string; buckets: string | null }>(
    `SELECT v.path, count(*)::text AS rows, (SELECT sum(count)::text FROM "PageViewBucket" b WHERE b.path = v.path AND b.grain = 3) AS buckets
       FROM "PageView" v WHERE v.txid < (SELECT watermark FROM "PageViewFold" WHERE id = 1) GROUP BY v.path`,
  );
  expect(perPath.filter((p) => p.rows !== p.buckets)).toEqual([]);
}

describe.each(DATABASES)('page-view totals at scale on %s', (kind) => {
  const dep = deployment(kind);
  const { d } = dep;
  beforeAll(async () => {
    await dep.create();
    await dep.start();
  }, 120_000);
  afterAll(() => dep.destroy());

  it('are exact at minute, hour, day, month, year and millisecond edges, folded or not, against brute force', { timeout: 240_000 }, async () => {
    const rand = random(kind === 'pglite' ? 1 : 2);
    const rows = edgeRows(rand);
    const ws = windows(rows, rand, 150);
    let recent: Row[] = [];
    if (kind === 'postgres') {
      // A transaction that took its id before the rows were written and stays open: the fold
      // cannot pass it, so every row below is counted unfolded first. It writes a view of its own
      // and commits last, out of id order: the case the watermark exists for.
      const late = new pg.Client({ connectionString: d.url });
      await late.connect();
      try {
        await late.query('BEGIN');
        const [{ xid }] = (await late.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid')).rows as [{ xid: string }];
        await late.query(`INSERT INTO "PageView" (path, at) VALUES ('/scale/a', '2001-03-15T13:27:00.000Z')`);
        await dep.direct(async (store) => {
          for (let i = 0; i < 3; i++) await insertRows(store, rows.filter((_, k) => k % 3 === i));
          recent = await recentRows(store);
        });
        await sleep(1_500); // the fold has run meanwhile, and could not pass `late`
        await dep.direct(async (store) => {
          expect(await unfolded(store)).toBeGreaterThanOrEqual(rows.length);
          const [{ w }] = await store.query<{ w: string }>(`SELECT watermark::text AS w FROM "PageViewFold"`) as [{ w: string }];
          expect(BigInt(w)).toBeLessThanOrEqual(BigInt(xid));
        });
        await checkWindows(d.api, rows, ws, recent, 'not folded');
        await late.query('COMMIT');
      } finally {
        await late.end();
      }
      rows.push({ path: '/scale/a', at: ms('2001-03-15T13:27:00.000Z') });
      await checkWindows(d.api, rows, ws.slice(0, 40), recent, 'late commit, not folded');
      await waitFor('the fold to catch up', () => dep.direct(async (store) => (await unfolded(store)) === 0));
    } else {
      await dep.direct(async (store) => {
        for (let i = 0; i < 3; i++) await insertRows(store, rows.filter((_, k) => k % 3 === i));
        recent = await recentRows(store);
      });
      // Started again over unfolded rows: the first totals may come before the first fold.
      await checkWindows(d.api, rows, ws.slice(0, 40), recent, 'just started');
      await sleep(1_500);
    }
    await checkWindows(d.api, rows, ws, recent, 'folded');
    await dep.direct(async (store) => {
      expect(await unfolded(store)).toBe(0);
      await checkBuckets(store);
    });
  });

  it('count every view answered 202 at once, with many recording in parallel, and emit one analytics.hit each', { timeout: 120_000 }, async () => {
    const paths = Array.from({ length: 10 }, (_, i) => `/load/${kind}/${i}`);
    const before = await total(d.api);
    const beforePath = await Promise.all(paths.map((p) => total(d.api, `?path=${encodeURIComponent(p)}`)));
    const N = 400;
    let sent = 0;
    let accepted = 0;
    const statuses: number[] = [];
    let writing = true;
    const writers = Array.from({ length: 40 }, async (_, w) => {
      for (let i = w; i < N; i += 40) {
        sent++;
        const reply = await d.api.post('/api/analytics/views', { path: paths[i % paths.length] });
        statuses.push(reply.status);
        if (reply.status === 202) accepted++;
      }
    });
    // A reader meanwhile: every total counts at least the views answered before it was asked,
    // at most those sent by the time it answered, and never goes down.
    const readings: string[] = [];
    const reader = (async () => {
      let last = before;
      while (writing) {
        const acked = accepted;
        const got = await total(d.api);
        const ceiling = sent;
        if (got < before + acked || got > before + ceiling || got < last) readings.push(`total ${got}: acked ${acked}, sent ${ceiling}, previous ${last}`);
        last = got;
      }
    })();
    await Promise.all(writers);
    writing = false;
    await reader;
    expect(readings).toEqual([]);
    expect(statuses.filter((s) => s !== 202)).toEqual([]);
    expect(accepted).toBe(N);
    expect(await total(d.api)).toBe(before + N);
    const afterPath = await Promise.all(paths.map((p) => total(d.api, `?path=${encodeURIComponent(p)}`)));
    expect(afterPath.map((n, i) => n - beforePath[i]!)).toEqual(paths.map(() => N / paths.length));
    const gql = await d.api.graphql('query ($path: String) { pageViews(path: $path) }', { path: paths[0] });
    expect(gql.body).toEqual({ data: { pageViews: afterPath[0] } });
    await sleep(1_200); // folded now, or being folded: the same totals either way
    expect(await total(d.api)).toBe(before + N);
    await dep.direct(async (store) => {
      const events = await store.query<{ type: string; payload: Record<string, unknown> }>(
        `SELECT type, payload FROM "Event" WHERE payload->>'path' LIKE $1`, [`/load/${kind}/%`],
      );
      expect(events).toHaveLength(N);
      for (const e of events) {
        expect(e.type).toBe('analytics.hit');
        expect(Object.keys(e.payload).sort()).toEqual(['event', 'path', 'timestamp']);
        expect(e.payload.event).toBe('analytics.hit');
        expect(e.payload.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      }
      const perPath = new Map<string, number>();
      for (const e of events) perPath.set(String(e.payload.path), (perPath.get(String(e.payload.path)) ?? 0) + 1);
      expect([...perPath.values()]).toEqual(paths.map(() => N / paths.length));
    });
  });

  it('refuse hostile input with 400 naming the field, and change nothing', { timeout: 120_000 }, async () => {
    const before = await total(d.api);
    const eventsBefore = await dep.direct(async (s) => Number((await s.query<{ n: string }>(`SELECT count(*) AS n FROM "Event"`))[0]!.n));
    const gets: [string, string, RegExp][] = [
      ['?path=%2Fa%00b', 'query.path', /^query\.path: must not contain NUL characters$/],
      [`?path=/${'a'.repeat(5000)}`, 'query.path', /^query\.path: must be at most 2048 characters$/],
      ['?path=', 'query.path', /^query\.path: /],
      ['?from=2001-01-01T00:00:00.000Z%00', 'query.from', /^query\.from: /],
      ['?from=%00', 'query.from', /^query\.from: /],
      [`?to=${'9'.repeat(10_000)}`, 'query.to', /^query\.to: /],
      ['?from=+002001-01-01T00:00:00Z', 'query.from', /^query\.from: /],
      ['?from=2001-01-02&to=2001-01-01', 'query.to', /^query\.to: must be later than from$/],
      ['?from=2001-01-01T00:00:00.000Z&to=2001-01-01', 'query.to', /^query\.to: must be later than from$/],
      // Equal and reversed below the millisecond: compared exactly, not rounded.
      ['?from=2001-01-01T00:00:00.0005Z&to=2001-01-01T00:00:00.0005Z', 'query.to', /^query\.to: must be later than from$/],
      ['?from=2001-01-01T00:00:00.0005Z&to=2001-01-01T00:00:00.0004Z', 'query.to', /^query\.to: must be later than from$/],
    ];
    for (const [query, field, message] of gets) expectError(await d.api.get(`/api/analytics/views${query}`), 400, message, field);
    // Ordered below the millisecond, both inside one millisecond: a valid, empty window.
    expect(await total(d.api, '?from=2001-01-01T00:00:00.0004Z&to=2001-01-01T00:00:00.0005Z')).toBe(0);
    const posts: [unknown, string, RegExp][] = [
      [{ path: '/a\u0000b' }, 'path', /^path: must not contain NUL characters$/],
      [{ path: `/${'a'.repeat(100_000)}` }, 'path', /^path: must be at most 2048 characters$/],
      [{ path: 42 }, 'path', /^path: /],
      [{ path: true }, 'path', /^path: /],
      [{ path: { $gt: '' } }, 'path', /^path: /],
      [{ path: ['/a'] }, 'path', /^path: /],
      [{ path: null }, 'path', /^path: /],
      [{}, 'path', /^path: is required$/],
      [{ path: '/a', at: '2001-01-01' }, 'at', /^at: unknown field$/],
      [[], 'body', /^body: /],
      ['"/a"', 'body', /^body: /],
    ];
    for (const [body, field, message] of posts) expectError(await d.api.post('/api/analytics/views', body), 400, message, field);
    const gql = await d.api.graphql('mutation { recordPageView(path: "/a\\u0000b") }');
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(gql.body.errors?.[0]?.message).toMatch(/path: must not contain NUL characters/);
    expect(await total(d.api)).toBe(before);
    const eventsAfter = await dep.direct(async (s) => Number((await s.query<{ n: string }>(`SELECT count(*) AS n FROM "Event"`))[0]!.n));
    expect(eventsAfter).toBe(eventsBefore);
  });
});

describe.each(DATABASES)('a %s database migrated from before the buckets', (kind) => {
  const dep = deployment(kind);
  const { d } = dep;
  afterAll(() => dep.destroy());

  it('counts the views it already had, exactly, and the new ones beside them', { timeout: 240_000 }, async () => {
    await dep.create();
    // The schema of old: every migration before the buckets, applied by the same engine (the
    // server applies the rest, the buckets' and any later one, when it starts).
    const list = await loadMigrationList();
    const old = { ...list, migrationDirectories: list.migrationDirectories.filter((m) => m.path < ROLLUP_MIGRATION) };
    expect(list.migrationDirectories.map((m) => m.path)).toContain(ROLLUP_MIGRATION);
    expect(old.migrationDirectories.length).toBeGreaterThan(0);
    const rows = edgeRows(random(3));
    if (kind === 'postgres') {
      const pool = new pg.Pool({ connectionString: d.url, max: 2 });
      try {
        await withSchemaEngine(new PrismaPg(pool), (engine) => engine.applyMigrations({ migrationsList: old, filters: { externalTables: [], externalEnums: [] } }));
      } finally {
        await pool.end();
      }
    } else {
      const lite = await PGlite.create(join(d.dataDir, 'pglite'));
      try {
        await withSchemaEngine(new PrismaPGlite(lite), (engine) => engine.applyMigrations({ migrationsList: old, filters: { externalTables: [], externalEnums: [] } }));
      } finally {
        await lite.close();
      }
    }
    const store = await openStore(kind, d.dataDir, d.url);
    try {
      expect(await store.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'PageView' AND column_name = 'txid'`)).toEqual([]);
      await insertRows(store, rows);
    } finally {
      await store.close();
    }

    await dep.start(); // applies the rollup migration, backfilling the buckets
    let recent: Row[] = [];
    await dep.direct(async (s) => {
      recent = await recentRows(s);
      // The backfilled views are folded by the migration itself; the demo seed's come after it.
      expect(Number((await s.query<{ n: string }>(`SELECT count(*) AS n FROM "PageView" WHERE txid = '1'`))[0]!.n)).toBe(rows.length);
    });
    await checkWindows(d.api, rows, windows(rows, random(4), 80), recent, 'migrated');
    const before = await total(d.api);
    for (let i = 0; i < 5; i++) expect((await d.api.post('/api/analytics/views', { path: '/scale/a' })).status).toBe(202);
    expect(await total(d.api)).toBe(before + 5);
    await waitFor('the fold to catch up', () => dep.direct(async (s) => (await unfolded(s)) === 0));
    expect(await total(d.api)).toBe(before + 5);
    await dep.direct(checkBuckets);
  });
});

const twoInstances = instancesTest({ env: NO_RATE_LIMITS })
  /** Runs `fn` on the instances' database, beside them. */
  .extend('direct', { scope: 'file' }, ({ a }) => async <T>(fn: (store: Store) => Promise<T>): Promise<T> => {
    const store = await openStore('postgres', a.config.dataDir, a.databaseUrl);
    try {
      return await fn(store);
    } finally {
      await store.close();
    }
  });

describe('two instances on one PostgreSQL', () => {
  const it = twoInstances;

  it('record and fold side by side: both count every view once, at once and after folding', { timeout: 120_000 }, async ({ a, b, direct }) => {
    const apis = [client(a.url), client(b.url)];
    const before = await total(apis[0]!);
    expect(await total(apis[1]!)).toBe(before);
    const N = 300;
    const statuses = await Promise.all(
      Array.from({ length: 30 }, async (_, w) => {
        const out: number[] = [];
        for (let i = w; i < N; i += 30) out.push((await apis[i % 2]!.post('/api/analytics/views', { path: `/two/${i % 7}` })).status);
        return out;
      }),
    );
    expect(statuses.flat().filter((s) => s !== 202)).toEqual([]);
    for (const api of apis) expect(await total(api)).toBe(before + N);
    await waitFor('the folds to catch up', () => direct(async (s) => (await unfolded(s)) === 0));
    for (const api of apis) {
      expect(await total(api)).toBe(before + N);
      expect(await total(api, '?path=/two/0')).toBe(Math.ceil(N / 7));
      expect(await total(api, `?from=${iso(Date.now() - 3_600_000)}&to=${iso(Date.now() + 1)}`)).toBeGreaterThanOrEqual(N);
    }
    await direct(checkBuckets);
  });
});
