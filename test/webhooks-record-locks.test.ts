// Lock order of the statements that update webhook endpoints, on real PostgreSQL: the dispatcher's
// record statement (several instances record for the same endpoints at once) and the housekeeping's
// disable pass. Each must lock the endpoint rows it updates in one order (id order), or two of them
// deadlock: PostgreSQL aborts one after deadlock_timeout, and the dispatcher retries its batch one
// attempt at a time. Seen with two instances under steady load: the record statement's UPDATE
// locked the endpoints in the order its plan read them, a sequential scan, i.e. where each row's
// current version sits in the heap, which every update moves.
//
// Not left to timing: other sessions hold row locks to stop each statement at a chosen row, and the
// test waits (pg_blocking_pids) until each is stopped where the interleaving needs it, so without a
// consistent order the deadlock happens on every run.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_SQL } from '../src/modules/webhooks/dispatch/record.js';
import { DISABLE_FAILING_SQL } from '../src/modules/webhooks/housekeeping.js';
import { createPgDatabase } from './support/server.js';
import { waitFor } from './support/wait.js';

const DISABLE_AFTER_MS = 3_600_000;
const LEASE = '2030-01-01T00:00:00.000Z';

let db: Awaited<ReturnType<typeof createPgDatabase>>;
const clients: pg.Client[] = [];

beforeAll(async () => {
  db = await createPgDatabase({ migrated: true });
});
afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.end().catch(() => {})));
  await db?.drop();
});

async function connect(): Promise<{ c: pg.Client; pid: number }> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  clients.push(c);
  const { rows } = await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  return { c, pid: rows[0]!.pid };
}

/** Waits until session `pid` waits on a lock that `by` holds (or is ahead in the queue for). */
async function blockedBy(observer: pg.Client, pid: number, by: number, what: string): Promise<void> {
  await waitFor(what, async () => {
    const { rows } = await observer.query<{ blocked: boolean }>('SELECT $2::int = ANY (pg_blocking_pids($1)) AS blocked', [pid, by]);
    return rows[0]?.blocked === true;
  });
}

/** Fresh endpoints (inserted in this order: their heap order) with one leased delivery each per `deliveries` entry. */
async function setUp(c: pg.Client, endpoints: string[], deliveries: [id: string, endpointId: string][], failing = false): Promise<void> {
  await c.query('TRUNCATE "WebhookEndpoint" CASCADE');
  for (const id of endpoints) {
    await c.query(
      `INSERT INTO "WebhookEndpoint" (id, url, events, secret, "updatedAt", "failingSince")
       VALUES ($1, 'http://127.0.0.1:9/hook', '{}', 'whsec_test', now(), CASE WHEN $2 THEN now() - interval '1 day' END)`,
      [id, failing],
    );
  }
  for (const [id, endpointId] of deliveries) {
    await c.query(
      `INSERT INTO "WebhookDelivery" (id, "endpointId", "eventId", event, payload, "nextAttemptAt", "lockedUntil")
       VALUES ($1, $2, $3, 'lesson.updated', '{}', now(), $4)`,
      [id, endpointId, `evt_${id}`, LEASE],
    );
  }
}

/** The record statement for successful attempts of `deliveries`, with the parameters the dispatcher passes. */
function record(c: pg.Client, deliveries: [id: string, endpointId: string][]): Promise<pg.QueryResult> {
  const at = new Date().toISOString();
  const each = <T>(value: T) => deliveries.map(() => value);
  return c.query(RECORD_SQL, [
    deliveries.map(([id]) => id),
    each(at),
    each(200),
    each(3),
    each(null),
    each('SUCCEEDED'),
    each(null),
    each(LEASE),
    deliveries.map(([, endpointId]) => endpointId),
    each(null),
    DISABLE_AFTER_MS,
    '1h',
  ]);
}

/** Every statement settled without an error (a deadlock is 40P01). */
function expectAllFulfilled(results: PromiseSettledResult<unknown>[]): void {
  const errors = results.flatMap((r) => (r.status === 'rejected' ? [String((r.reason as { code?: string; message?: string }).code) + ' ' + String((r.reason as Error).message)] : []));
  expect(errors).toEqual([]);
}

/** Every delivery SUCCEEDED with its one attempt recorded, and its endpoint's lastSuccessAt set. */
async function expectAllRecorded(observer: pg.Client, deliveries: [id: string, endpointId: string][]): Promise<void> {
  const { rows } = await observer.query<{ id: string; status: string; attempts: number }>(
    `SELECT d.id, d.status::text AS status, (SELECT count(*)::int FROM "WebhookAttempt" a WHERE a."deliveryId" = d.id) AS attempts
       FROM "WebhookDelivery" d ORDER BY d.id`,
  );
  expect(rows).toEqual(deliveries.map(([id]) => ({ id, status: 'SUCCEEDED', attempts: 1 })).sort((x, y) => x.id.localeCompare(y.id)));
  const endpoints = await observer.query<{ id: string }>(`SELECT id FROM "WebhookEndpoint" WHERE "lastSuccessAt" IS NOT NULL ORDER BY id`);
  expect(endpoints.rows.map((r) => r.id)).toEqual([...new Set(deliveries.map(([, e]) => e))].sort());
}

describe('webhook endpoint rows are locked in one order', () => {
  it('a batch for three endpoints and a batch for two of them do not deadlock', async () => {
    // The UPDATE alone reads a batch of one or two endpoints by id (a nested loop over the sorted
    // batch) and a batch of more in heap order (a hash join over a sequential scan), and the heap
    // order is not the id order once an update has moved a row: seen with two instances.
    const { c: observer } = await connect();
    const { c: h, pid: hPid } = await connect();
    const { c: s1, pid: s1Pid } = await connect();
    const { c: s2, pid: s2Pid } = await connect();
    const first: [string, string][] = [['dlv_1a', 'whe_a'], ['dlv_1b', 'whe_b'], ['dlv_1c', 'whe_c']];
    const second: [string, string][] = [['dlv_2a', 'whe_a'], ['dlv_2c', 'whe_c']];
    await setUp(observer, ['whe_a', 'whe_b', 'whe_c'], [...first, ...second]);
    // a's current version now sits after c in the heap: b, c, a.
    await observer.query(`UPDATE "WebhookEndpoint" SET "updatedAt" = "updatedAt" WHERE id = 'whe_a'`);

    // h holds c. In heap order s1 takes b and waits at c; in id order it takes a and b and waits at c.
    await h.query('BEGIN');
    await h.query(`SELECT id FROM "WebhookEndpoint" WHERE id = 'whe_c' FOR SHARE`);
    const s1Done = record(s1, first);
    await blockedBy(observer, s1Pid, hPid, 's1 to wait for h on whe_c');
    // s2 (a, c), by id: takes a and waits at c, then s1, given c, waits for s2 at a. With s1 holding
    // a too, s2 waits for s1 at a, holding nothing.
    const s2Done = record(s2, second);
    await blockedBy(observer, s2Pid, s1Pid, 's2 to wait for s1');
    await h.query('COMMIT');

    expectAllFulfilled(await Promise.allSettled([s1Done, s2Done]));
    await expectAllRecorded(observer, [...first, ...second]);
  });

  it('two batches for the same endpoints, their snapshots straddling a third update, do not deadlock', async () => {
    // Both batches in heap order (four endpoints, three in each), but one read the heap before an
    // update that moved a row was committed and the other after.
    const { c: observer } = await connect();
    const { c: h1, pid: h1Pid } = await connect();
    const { c: h2, pid: h2Pid } = await connect();
    const { c: s1, pid: s1Pid } = await connect();
    const { c: s2, pid: s2Pid } = await connect();
    const first: [string, string][] = [['dlv_1a', 'whe_a'], ['dlv_1b', 'whe_b'], ['dlv_1c', 'whe_c']];
    const second: [string, string][] = [['dlv_2a', 'whe_a'], ['dlv_2c', 'whe_c'], ['dlv_2d', 'whe_d']];
    await setUp(observer, ['whe_a', 'whe_b', 'whe_c', 'whe_d'], [...first, ...second]);

    // h1 updates a (its new version goes after d in the heap) and holds it: s1, whose snapshot
    // still sees a first, waits for it.
    await h1.query('BEGIN');
    await h1.query(`UPDATE "WebhookEndpoint" SET "updatedAt" = "updatedAt" WHERE id = 'whe_a'`);
    const s1Done = record(s1, first);
    await blockedBy(observer, s1Pid, h1Pid, 's1 to wait for h1 on whe_a');
    // h2 holds b: once h1 commits, s1 takes a and stops at b.
    await h2.query('BEGIN');
    await h2.query(`SELECT id FROM "WebhookEndpoint" WHERE id = 'whe_b' FOR SHARE`);
    await h1.query('COMMIT');
    await blockedBy(observer, s1Pid, h2Pid, 's1 to hold whe_a and wait for h2 on whe_b');
    // s2's snapshot sees a after d. In heap order it takes c and d, then waits for s1 at a; and s1,
    // given b, would wait for s2 at c. In id order it waits for s1 at a, holding nothing.
    const s2Done = record(s2, second);
    await blockedBy(observer, s2Pid, s1Pid, 's2 to wait for s1');
    await h2.query('COMMIT');

    expectAllFulfilled(await Promise.allSettled([s1Done, s2Done]));
    await expectAllRecorded(observer, [...first, ...second]);
  });

  it('the housekeeping disable pass and a record statement lock the endpoints in the same order', async () => {
    const { c: observer } = await connect();
    const { c: h, pid: hPid } = await connect();
    const { c: pass, pid: passPid } = await connect();
    const { c: rec, pid: recPid } = await connect();
    const deliveries: [string, string][] = [['dlv_a', 'whe_a'], ['dlv_b', 'whe_b']];
    // Three endpoints failing for a day (past WEBHOOK_DISABLE_AFTER); a is moved after c in the heap.
    await setUp(observer, ['whe_a', 'whe_b', 'whe_c'], deliveries, true);
    await observer.query(`UPDATE "WebhookEndpoint" SET "updatedAt" = "updatedAt" WHERE id = 'whe_a'`);

    // h holds c. In heap order (b, c, a) the pass takes b and waits at c; the record statement, for
    // a and b by id, takes a and waits for the pass at b; given c, the pass waits for it at a. In id
    // order the pass takes a and b and waits at c, and the record statement waits for it at a,
    // holding nothing.
    await h.query('BEGIN');
    await h.query(`SELECT id FROM "WebhookEndpoint" WHERE id = 'whe_c' FOR SHARE`);
    const passDone = pass.query(DISABLE_FAILING_SQL, [DISABLE_AFTER_MS, '1h']);
    await blockedBy(observer, passPid, hPid, 'the disable pass to wait for h on whe_c');
    const recDone = record(rec, deliveries);
    await blockedBy(observer, recPid, passPid, 'the record statement to wait for the disable pass');
    await h.query('COMMIT');

    const results = await Promise.allSettled([passDone, recDone]);
    expectAllFulfilled(results);
    const disabled = results[0].status === 'fulfilled' ? (results[0].value as pg.QueryResult<{ id: string }>).rows.map((r) => r.id).sort() : [];
    expect(disabled).toEqual(['whe_a', 'whe_b', 'whe_c']);
    const { rows } = await observer.query<{ id: string; enabled: boolean; attempts: number }>(
      `SELECT e.id, e.enabled, (SELECT count(*)::int FROM "WebhookAttempt" a JOIN "WebhookDelivery" d ON d.id = a."deliveryId" WHERE d."endpointId" = e.id) AS attempts
         FROM "WebhookEndpoint" e ORDER BY e.id`,
    );
    expect(rows).toEqual([
      { id: 'whe_a', enabled: false, attempts: 1 },
      { id: 'whe_b', enabled: false, attempts: 1 },
      { id: 'whe_c', enabled: false, attempts: 0 },
    ]);
  });
});
