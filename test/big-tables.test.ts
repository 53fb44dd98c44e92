// On big tables, the statements behind the paged lists and the hot background reads read about
// what they return, not the table. Each test loads a few thousand rows straight with SQL, calls the
// service (or the dispatcher's claim) as the app does, checks what it returned, then runs the very
// statement it sent under EXPLAIN ANALYZE and counts the rows its scans read (returned and removed
// by a filter): a page, not the table. Never times: counted rows are the same on a slow machine.
// On PGlite and on PostgreSQL, each a migrated copy of the suite's template.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Caller } from '../src/modules/auth/caller.js';
import type { Database } from '../src/db/client.js';
import { openDatabase } from '../src/db/open-database.js';
import { loadConfig } from '../src/config.js';
import { parsePage } from '../src/db/keyset.js';
import { createEventLogService } from '../src/modules/events/list.js';
import { newestPosition } from '../src/modules/events/stored.js';
import { createLessonService } from '../src/modules/lessons/service.js';
import { CLAIM_SQL } from '../src/modules/webhooks/dispatch/claim.js';
import { createWrite } from '../src/modules/events/write.js';
import { createWebhookService } from '../src/modules/webhooks/service.js';
import { createPgDatabase, DATABASES, type DatabaseKind } from './support/server.js';

/** Rows of each big table (a cursor 90 % deep has 4,500 before it). */
const N = 5_000;

interface Sent {
  query: string;
  params: unknown[];
}

interface PlanNode {
  'Relation Name'?: string;
  'Node Type'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Sort Method'?: string;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

async function openMigrated(kind: DatabaseKind, sent: Sent[]): Promise<{ db: Database; dispose(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'learnstream-big-'));
  let drop: (() => Promise<void>) | undefined;
  let databaseUrl: string | undefined;
  if (kind === 'pglite') await cp(inject('pgliteTemplate'), dataDir, { recursive: true });
  else ({ url: databaseUrl, drop } = await createPgDatabase({ migrated: true }));
  const db = await openDatabase({ databaseUrl, dataDir, dbPoolSize: 2, onQuery: () => {} });
  // What Prisma sent, with its values (JSON: dates as ISO strings, arrays as arrays), to run again.
  db.prisma.$on('query' as never, (e: { query: string; params: string }) => sent.push({ query: e.query, params: JSON.parse(e.params) as unknown[] }));
  return {
    db,
    dispose: async () => {
      await db.close();
      await drop?.();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

describe.each(DATABASES)('big tables on %s', (kind) => {
  const sent: Sent[] = [];
  let db: Database;
  let dispose: () => Promise<void>;
  const admin = { userId: 'usr_admin', role: 'ADMIN', tier: 'PRO', sessionId: 'ses_x' } as Caller;
  const member = { userId: 'usr_member', role: 'MEMBER', tier: 'FREE', sessionId: 'ses_y' } as Caller;

  beforeAll(async () => {
    ({ db, dispose } = await openMigrated(kind, sent));
    await db.query(
      `INSERT INTO "User" (id, email, name, "passwordHash", "updatedAt")
       SELECT 'usr_' || lpad(g::text, 26, '0'), 'big' || g || '@example.com', 'Author ' || g, 'x', now() FROM generate_series(1, 3) g`,
      [],
    );
    // N lessons of author 1 and N of author 2, interleaved in time, every tenth a draft; two per
    // millisecond, so a cursor has a row of its own millisecond after it (the id decides).
    await db.query(
      `INSERT INTO "Lesson" (id, title, body, status, "authorId", "createdAt", "updatedAt")
       SELECT $1 || lpad(g::text, 26, '0'), 'Lesson ' || g, 'body',
              (CASE WHEN g % 10 = 0 THEN 'DRAFT' ELSE 'PUBLISHED' END)::"LessonStatus",
              'usr_' || lpad((1 + g % 2)::text, 26, '0'), timestamptz '2026-01-01' + (g / 2) * interval '1 ms', now()
         FROM generate_series(1, $2::int) g`,
      ['les_', 2 * N],
    );
    await db.query('ANALYZE "Lesson"', []);
  }, 120_000);
  afterAll(() => dispose?.());

  /** The statement sent during `call` that matches `pattern` (exactly one must). */
  async function statementOf(pattern: RegExp, call: () => Promise<unknown>): Promise<Sent> {
    sent.length = 0;
    await call();
    const matching = sent.filter((s) => pattern.test(s.query));
    expect(matching, sent.map((s) => s.query).join('\n')).toHaveLength(1);
    return matching[0]!;
  }

  /** EXPLAIN ANALYZE of `statement`: the rows its scans of `table` read, and its nodes. */
  async function work({ query, params }: Sent, table: string): Promise<{ read: number; nodes: PlanNode[] }> {
    const [row] = await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`, params);
    const plan = row!['QUERY PLAN'];
    const [root] = (typeof plan === 'string' ? JSON.parse(plan) : plan) as [{ Plan: PlanNode }];
    const nodes = nodesOf(root.Plan);
    const read = nodes
      .filter((n) => n['Relation Name'] === table)
      .reduce((sum, n) => sum + ((n['Actual Rows'] ?? 0) + (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0)) * (n['Actual Loops'] ?? 1), 0);
    return { read, nodes };
  }

  it('a lesson page deep in the list reads the page, not the rows before its cursor', async () => {
    const lessons = createLessonService({ db: db.prisma, write: createWrite({ db: db.prisma }) });
    for (const caller of [admin, member]) {
      // The cursor of the row 90 % deep: what a client paging that far holds.
      const all = await db.query<{ id: string; createdAt: Date }>(
        `SELECT id, "createdAt" FROM "Lesson" WHERE $1 OR status = 'PUBLISHED' ORDER BY "createdAt" DESC, id DESC`,
        [caller.role === 'ADMIN'],
      );
      const deep = Math.floor(all.length * 0.9);
      const cursor = Buffer.from(JSON.stringify([new Date(all[deep]!.createdAt).toISOString(), all[deep]!.id])).toString('base64url');
      let page: Awaited<ReturnType<typeof lessons.list>> | undefined;
      const statement = await statementOf(/FROM "public"."Lesson" WHERE/, async () => (page = await lessons.list({ caller, page: parsePage({ limit: 20, cursor }, { limit: 'limit', cursor: 'cursor' }) })));
      expect(page!.items.map((l) => l.id)).toEqual(all.slice(deep + 1, deep + 21).map((l) => l.id));
      expect(page!.nextCursor).not.toBeNull();
      const { read } = await work(statement, 'Lesson');
      // The page and the one row that tells there is a next, plus the cursor's own millisecond
      // (and, for a member, the drafts among them): it read about 9,000 (all before the cursor).
      expect(read, `${caller.role}: ${JSON.stringify(statement)}`).toBeLessThanOrEqual(40);
    }
  });

  it("a page of a webhook endpoint's deliveries deep in the list reads the page, not the rows before its cursor", async () => {
    await db.query(`INSERT INTO "WebhookEndpoint" (id, url, events, secret, "updatedAt") VALUES ('whk_list', 'http://127.0.0.1:9/', '{user.created}', 'whsec_x', now())`, []);
    await db.query(
      `INSERT INTO "WebhookDelivery" (id, "endpointId", "eventId", event, payload, status, "createdAt")
       SELECT 'dlv_' || lpad(g::text, 26, '0'), 'whk_list', 'evt_' || lpad(g::text, 26, '0'), 'user.created', '{}', 'SUCCEEDED',
              timestamptz '2026-01-01' + (g / 2) * interval '1 ms'
         FROM generate_series(1, $1::int) g`,
      [N],
    );
    await db.query('ANALYZE "WebhookDelivery"', []);
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: tmpdir() });
    const webhooks = createWebhookService({ db: db.prisma, config, write: createWrite({ db: db.prisma }) });
    const deep = Math.floor(N * 0.9);
    // Newest first: the row `deep` from the top is number N - deep.
    const at = (n: number) => ({ id: `dlv_${String(n).padStart(26, '0')}`, createdAt: new Date(Date.parse('2026-01-01') + Math.floor(n / 2)) });
    const cursorRow = at(N - deep);
    const cursor = Buffer.from(JSON.stringify([cursorRow.createdAt.toISOString(), cursorRow.id])).toString('base64url');
    let page: Awaited<ReturnType<typeof webhooks.deliveries>> | undefined;
    const statement = await statementOf(/FROM "public"."WebhookDelivery" WHERE/, async () => (page = await webhooks.deliveries({ caller: admin, id: 'whk_list', page: parsePage({ limit: 20, cursor }, { limit: 'limit', cursor: 'cursor' }) })));
    expect(page!.items.map((d) => d.id)).toEqual(Array.from({ length: 20 }, (_, i) => at(N - deep - 1 - i).id));
    const { read } = await work(statement, 'WebhookDelivery');
    expect(read, JSON.stringify(statement)).toBeLessThanOrEqual(40);
  });

  it("User.lessons' pages of many authors read each author's page, not all of each author's lessons", async () => {
    const lessons = createLessonService({ db: db.prisma, write: createWrite({ db: db.prisma }) });
    const authors = ['usr_' + '1'.padStart(26, '0'), 'usr_' + '2'.padStart(26, '0'), 'usr_' + '3'.padStart(26, '0')];
    const published = async (authorId: string) =>
      db.query<{ id: string; createdAt: Date }>(
        `SELECT id, "createdAt" FROM "Lesson" WHERE "authorId" = $1 AND status = 'PUBLISHED' ORDER BY "createdAt" DESC, id DESC`,
        [authorId],
      );
    const expected = await Promise.all(authors.map(published));
    for (const [limit, cursorAt] of [[1, undefined], [20, 3_000]] as const) {
      // The cursor: a row of author 1 (every author gets the same cursor, as in one GraphQL request).
      const row = cursorAt === undefined ? undefined : expected[0]![cursorAt]!;
      const cursor = row && Buffer.from(JSON.stringify([new Date(row.createdAt).toISOString(), row.id])).toString('base64url');
      let pages: Awaited<ReturnType<typeof lessons.publishedByAuthors>> | undefined;
      // Authors named twice are asked once (a dataloader may not dedupe across keys).
      const statement = await statementOf(/FROM "Lesson"|FROM "public"."Lesson"/, async () => (pages = await lessons.publishedByAuthors({ authorIds: [...authors, authors[0]!], page: parsePage({ limit, cursor }, { limit: 'limit', cursor: 'cursor' }) })));
      for (const [i, authorId] of authors.entries()) {
        const after = row ? expected[i]!.filter((l) => new Date(l.createdAt).getTime() < new Date(row.createdAt).getTime() || (new Date(l.createdAt).getTime() === new Date(row.createdAt).getTime() && l.id < row.id)) : expected[i]!;
        const page = pages!.get(authorId)!;
        expect(page.items.map((l) => l.id)).toEqual(after.slice(0, limit).map((l) => l.id));
        expect(page.hasMore).toBe(after.length > limit);
        if (page.items.length) expect(page.items.every((l) => l.status === 'PUBLISHED' && l.authorId === authorId)).toBe(true);
      }
      const { read, nodes } = await work(statement, 'Lesson');
      // One page and one row more per author: it read and sorted all 9,000 published lessons.
      expect(read, JSON.stringify(statement)).toBeLessThanOrEqual(2 * (limit + 1) + 4);
      expect(nodes.filter((n) => n['Sort Method'] === 'external merge')).toEqual([]);
    }
  });

  it('the newest event position reads one index entry, not every event', async () => {
    await db.query(
      `INSERT INTO "Event" (id, type, payload, "createdAt", position)
       SELECT 'evt_' || lpad(g::text, 26, '0'), 'analytics.hit', '{}', timestamptz '2026-01-01' + g * interval '1 ms', g
         FROM generate_series(1, $1::int) g`,
      [N],
    );
    // Two not yet positioned: max() skips them.
    await db.query(`INSERT INTO "Event" (id, type, payload) VALUES ('evt_z0000000000000000000000001', 'analytics.hit', '{}'), ('evt_z0000000000000000000000002', 'analytics.hit', '{}')`, []);
    await db.query('ANALYZE "Event"', []);
    let newest = 0;
    const statement = await statementOf(/"Event"/, async () => (newest = await newestPosition(db.prisma)));
    expect(newest).toBe(N);
    const { read } = await work(statement, 'Event');
    expect(read, JSON.stringify(statement)).toBeLessThanOrEqual(3);
  });

  it('the event list since a recent time reads the events since then, not the history before them (and stays exact)', async () => {
    const events = createEventLogService({ db: db.prisma });
    const [{ base }] = (await db.query<{ base: string }>('SELECT COALESCE(max(position), 0)::text AS base FROM "Event"', [])) as [{ base: string }];
    // 20,000 events two days old, then 500 of the last 20 minutes. One that is new (30 minutes
    // old) is positioned before the last nine old ones: its transaction began after theirs and
    // committed first. The list since an hour ago starts with it.
    await db.query(
      `INSERT INTO "Event" (id, type, payload, "createdAt", position)
       SELECT 'evt_s' || lpad(g::text, 25, '0'), 'analytics.hit', jsonb_build_object('event', 'analytics.hit', 'timestamp', '2026-01-01T00:00:00.000Z', 'path', '/since/' || g),
              CASE WHEN g = 19991 THEN now() - interval '30 minutes'
                   WHEN g <= 20000 THEN now() - interval '2 days' + g * interval '1 ms'
                   ELSE now() - interval '20 minutes' + g * interval '1 ms' END,
              $1::bigint + g
         FROM generate_series(1, 20500) g`,
      [base],
    );
    await db.query('ANALYZE "Event"', []);
    const since = new Date(Date.now() - 3_600_000).toISOString();
    let page: Awaited<ReturnType<typeof events.list>> | undefined;
    const statement = await statementOf(/FROM "Event"/, async () => (page = await events.list({ caller: admin, since, limit: 10 })));
    expect(page!.items.map((e) => e.id)).toEqual([19991, ...Array.from({ length: 9 }, (_, i) => 20001 + i)].map((g) => `evt_s${String(g).padStart(25, '0')}`));
    const { read } = await work(statement, 'Event');
    // The first 1,000 positions, then the 501 events since, counted and read: the walk up the
    // positions read the 25,000 before them.
    expect(read, JSON.stringify(statement)).toBeLessThanOrEqual(2_500);
    // An old `since` starts at the oldest event; one in the future lists nothing.
    const [oldest] = await db.query<{ id: string }>('SELECT id FROM "Event" WHERE position IS NOT NULL ORDER BY position LIMIT 1', []);
    expect((await events.list({ caller: admin, since: '0000-01-01', limit: 1 })).items.map((e) => e.id)).toEqual([oldest!.id]);
    expect((await events.list({ caller: admin, since: '9999-01-01', limit: 1 })).items).toEqual([]);
  });

  it("the webhook claim reads the enabled endpoints' due deliveries, not every due delivery of a disabled one", async () => {
    await db.query(
      `INSERT INTO "WebhookEndpoint" (id, url, events, secret, enabled, "updatedAt") VALUES
         ('whk_off', 'http://127.0.0.1:9/', '{user.created}', 'whsec_x', false, now()),
         ('whk_on1', 'http://127.0.0.1:9/', '{user.created}', 'whsec_x', true, now()),
         ('whk_on2', 'http://127.0.0.1:9/', '{user.created}', 'whsec_x', true, now())`,
      [],
    );
    // A disabled endpoint's backlog, due long ago; then a few due deliveries of two enabled ones.
    await db.query(
      `INSERT INTO "WebhookDelivery" (id, "endpointId", "eventId", event, payload, "nextAttemptAt")
       SELECT 'dlv_off' || lpad(g::text, 23, '0'), 'whk_off', 'evt_' || lpad(g::text, 26, '0'), 'user.created', '{}', now() - interval '1 day' + g * interval '1 ms'
         FROM generate_series(1, $1::int) g`,
      [N],
    );
    await db.query(
      `INSERT INTO "WebhookDelivery" (id, "endpointId", "eventId", event, payload, "nextAttemptAt")
       SELECT 'dlv_on' || (1 + g % 2) || lpad(g::text, 23, '0'), 'whk_on' || (1 + g % 2), 'evt_' || lpad(g::text, 26, '0'), 'user.created', '{}', now() - interval '1 hour' + g * interval '1 ms'
         FROM generate_series(1, 6) g`,
      [],
    );
    await db.query('ANALYZE "WebhookDelivery"', []);
    await db.query('ANALYZE "WebhookEndpoint"', []);
    // As the dispatcher claims with every slot free and nothing in flight: 512 free, a lease of
    // 20 s, nobody excluded, a window of 2,048, shares of 64.
    const params = [512, 20_000, [], 2_048, 64, [], []];
    const claimed = await db.query<{ id: string; endpointId: string }>(CLAIM_SQL, params);
    expect(claimed.map((d) => d.id).sort()).toEqual(Array.from({ length: 6 }, (_, i) => `dlv_on${1 + ((i + 1) % 2)}${String(i + 1).padStart(23, '0')}`).sort());
    // Released again, the same claim under EXPLAIN ANALYZE (which runs it).
    await db.query(`UPDATE "WebhookDelivery" SET "lockedUntil" = NULL WHERE "endpointId" <> 'whk_off'`, []);
    const { read } = await work({ query: CLAIM_SQL, params }, 'WebhookDelivery');
    // The six due deliveries, read to pick them and again to lock and lease them: it read the
    // 5,000 of the disabled endpoint.
    expect(read).toBeLessThanOrEqual(30);
  });
});
