// Webhook delivery across real processes (as `npm start` runs them) on one PostgreSQL
// database: a crash (SIGKILL) loses no delivery, two instances never make one attempt twice,
// and a graceful stop (SIGTERM) finishes the attempt in flight. Every child is killed in
// afterAll if a test left it running.
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { client, type Client } from './support/http.js';
import { processPool, TEST_JWT_SECRET as SECRET, type Child } from './support/process.js';
import { createPgDatabase } from './support/server.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { startReceiver as startHookReceiver, type Answer, type Hit } from './support/receiver.js';
import { sleep, waitFor as waitUntil } from './support/wait.js';

/** Generous: a cold start compiles TypeScript and may run migrations. */
const START_DEADLINE_MS = 60_000;
const SLOW = { timeout: 180_000 };

/** A hit with the status the receiver answered it with. */
interface Answered extends Hit {
  status: number;
}

const pool = processPool();
afterAll(() => pool.cleanup());
/** Cleanups that fail (a receiver or database already gone) do not fail the file. */
const defer = (fn: () => Promise<unknown>) => pool.defer(() => fn().catch(() => {}));
/** `spawnService(env)`: the process with exactly `env` (plus PATH/HOME), none of the pool's test defaults. */
const { spawn: spawnService } = pool;
/** Polls like waitUntil, with this file's longer default deadline (processes under load). */
const waitFor = <T,>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, ms = 30_000) => waitUntil(what, check, ms);

const listeningUrl = (child: Child): Promise<string> => pool.listeningUrl(child, START_DEADLINE_MS);



/** The shared receiver, closed when the file ends, recording every request with the status it answered. */
async function startReceiver(respond: (hit: Hit, n: number) => Answer): Promise<{ url: string; hits: Answered[] }> {
  const hits: Answered[] = [];
  const rx = await startHookReceiver((hit, n) => {
    const answer = respond(hit, n);
    hits.push({ ...hit, status: answer.status });
    return answer;
  });
  defer(() => rx.close());
  return { url: rx.url, hits };
}

/** A fresh database and data dir, and the environment a service process gets for them. */
async function environment(webhook: Record<string, string>): Promise<{ env: Record<string, string>; query: <T>(text: string, params?: unknown[]) => Promise<T[]> }> {
  const db = await createPgDatabase({ migrated: true });
  const dataDir = await pool.tempDir();
  const pgPool = new pg.Pool({ connectionString: db.url, max: 2 });
  defer(async () => {
    await pgPool.end();
    await db.drop();
  });
  return {
    env: {
      NODE_ENV: 'development', PORT: '0', DATA_DIR: dataDir, DATABASE_URL: db.url, JWT_SECRET: SECRET,
      ...NO_RATE_LIMITS, ...webhook,
    },
    query: async <T,>(text: string, params: unknown[] = []) => (await pgPool.query(text, params)).rows as T[],
  };
}

async function createEndpoint(api: Client, token: string, url: string): Promise<{ id: string; secret: string }> {
  const created = await api.post('/api/v1/webhooks', { url, events: ['analytics.hit'] }, { token });
  expect(created.status, created.text).toBe(201);
  return created.body as { id: string; secret: string };
}

interface DeliveryRow {
  id: string;
  eventId: string;
  status: string;
  attemptCount: number;
  lockedUntil: Date | null;
}

describe('webhook delivery across processes (PostgreSQL)', () => {
  it('SIGKILL while a delivery waits for its retry: a new process delivers it, same webhook-id', SLOW, async () => {
    const { env, query } = await environment({ WEBHOOK_RETRY_SCHEDULE: '2s,2s', WEBHOOK_TIMEOUT_MS: '2000' });
    const rx = await startReceiver((_hit, n) => ({ status: n === 1 ? 500 : 200 }));
    const first = spawnService(env);
    const api = client(await listeningUrl(first));
    const ada = (await api.loginAs('ada')).token;
    const { secret } = await createEndpoint(api, ada, rx.url);
    expect((await api.post('/api/analytics/views', { path: '/crash' })).status).toBeLessThan(300);
    // The 500 is recorded: the delivery waits for its retry, no lease held.
    await waitFor('the first attempt recorded', async () => (await query<{ n: number }>(`SELECT count(*)::int AS n FROM "WebhookAttempt"`))[0]!.n === 1);
    first.proc.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    const second = spawnService(env);
    await listeningUrl(second);
    const [delivery] = await waitFor('SUCCEEDED', async () => {
      const rows = await query<DeliveryRow>(`SELECT id, "eventId", status, "attemptCount", "lockedUntil" FROM "WebhookDelivery"`);
      return rows[0]?.status === 'SUCCEEDED' ? rows : undefined;
    });
    expect(rx.hits.map((h) => h.status)).toEqual([500, 200]);
    expect(rx.hits[1]!.headers['webhook-id']).toBe(rx.hits[0]!.headers['webhook-id']);
    expect(rx.hits[1]!.headers['webhook-id']).toBe(delivery!.eventId);
    expect(new Webhook(secret).verify(rx.hits[1]!.body, rx.hits[1]!.headers)).toMatchObject({ event: 'analytics.hit', path: '/crash' });
    expect(delivery).toMatchObject({ attemptCount: 2, lockedUntil: null });
    second.proc.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  });

  it('SIGKILL in the middle of an attempt: once the lease runs out a new process delivers it', SLOW, async () => {
    // Lease = timeout + 10 s margin: a crashed claim is taken over after about 11 s.
    const { env, query } = await environment({ WEBHOOK_RETRY_SCHEDULE: '1s', WEBHOOK_TIMEOUT_MS: '1000' });
    const rx = await startReceiver((_hit, n) => (n === 1 ? { status: 200, delayMs: 30_000 } : { status: 200 }));
    const first = spawnService(env);
    const api = client(await listeningUrl(first));
    const ada = (await api.loginAs('ada')).token;
    await createEndpoint(api, ada, rx.url);
    expect((await api.post('/api/analytics/views', { path: '/mid-attempt' })).status).toBeLessThan(300);
    await waitFor('the attempt in flight', () => rx.hits.length === 1);
    first.proc.kill('SIGKILL');
    await first.exited;
    const [held] = await query<DeliveryRow>(`SELECT id, "eventId", status, "attemptCount", "lockedUntil" FROM "WebhookDelivery"`);
    expect(held).toMatchObject({ status: 'PENDING', attemptCount: 0 });
    expect(held!.lockedUntil).not.toBeNull();

    const second = spawnService(env);
    await listeningUrl(second);
    const [done] = await waitFor('SUCCEEDED', async () => {
      const rows = await query<DeliveryRow>(`SELECT id, "eventId", status, "attemptCount", "lockedUntil" FROM "WebhookDelivery"`);
      return rows[0]?.status === 'SUCCEEDED' ? rows : undefined;
    }, 40_000);
    expect(rx.hits).toHaveLength(2);
    expect(rx.hits[1]!.headers['webhook-id']).toBe(done!.eventId);
    // Not before the crashed process's lease ran out.
    const [attempt] = await query<{ at: Date }>(`SELECT at FROM "WebhookAttempt" WHERE "deliveryId" = $1`, [done!.id]);
    expect(attempt!.at.getTime()).toBeGreaterThanOrEqual(held!.lockedUntil!.getTime());
    second.proc.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  });

  it('two processes, 200 events: every event delivered, each attempt made exactly once', { timeout: 300_000 }, async () => {
    // Ten quick retries: a delivery whose every attempt lands on a failing request (1 in 7) would
    // otherwise, rarely, spend a short schedule and end FAILED.
    const { env, query } = await environment({ WEBHOOK_RETRY_SCHEDULE: Array(10).fill('100ms').join(','), WEBHOOK_TIMEOUT_MS: '5000' });
    // Every seventh request fails, so retries are claimed by either process too.
    const rx = await startReceiver((_hit, n) => ({ status: n % 7 === 0 ? 503 : 200 }));
    const a = spawnService(env);
    const apiA = client(await listeningUrl(a));
    const b = spawnService(env);
    const apiB = client(await listeningUrl(b));
    const ada = (await apiA.loginAs('ada')).token;
    const { secret } = await createEndpoint(apiA, ada, rx.url);

    const COUNT = 200;
    // In waves of 50 concurrent requests: what is tested is delivery, not how many requests a
    // loaded machine's connection pools can queue at once.
    const replies = [];
    for (let wave = 0; wave < COUNT; wave += 50) {
      replies.push(
        ...(await Promise.all(
          Array.from({ length: 50 }, (_, j) => wave + j).map((i) => (i % 2 ? apiA : apiB).post('/api/analytics/views', { path: `/many/${i}` })),
        )),
      );
    }
    expect(replies.filter((r) => r.status >= 300).map((r) => `${r.status} ${r.text}`)).toEqual([]);

    const rows = await waitFor('every delivery SUCCEEDED', async () => {
      const r = await query<DeliveryRow>(`SELECT id, "eventId", status, "attemptCount", "lockedUntil" FROM "WebhookDelivery"`);
      return r.length === COUNT && r.every((d) => d.status === 'SUCCEEDED') ? r : undefined;
    }, 150_000);
    const events = await query<{ id: string }>(`SELECT id FROM "Event" WHERE type = 'analytics.hit'`);
    expect(new Set(rows.map((d) => d.eventId))).toEqual(new Set(events.map((e) => e.id)));

    // Give any stray (duplicate) attempt time to show up before counting.
    await sleep(500);
    const [{ attempts }] = (await query<{ attempts: number }>(`SELECT count(*)::int AS attempts FROM "WebhookAttempt"`)) as [{ attempts: number }];
    expect(attempts).toBe(rx.hits.length);
    expect(rows.reduce((sum, d) => sum + d.attemptCount, 0)).toBe(rx.hits.length);
    // Exactly one success per event, and every body verifies.
    const succeeded = rx.hits.filter((h) => h.status === 200).map((h) => h.headers['webhook-id']);
    expect(succeeded).toHaveLength(COUNT);
    expect(new Set(succeeded).size).toBe(COUNT);
    const verifier = new Webhook(secret);
    for (const hit of rx.hits) expect(() => verifier.verify(hit.body, hit.headers)).not.toThrow();
    expect(rx.hits.some((h) => h.status === 503)).toBe(true);

    a.proc.kill('SIGTERM');
    b.proc.kill('SIGTERM');
    expect((await a.exited).code).toBe(0);
    expect((await b.exited).code).toBe(0);
  });

  it('SIGTERM with a slow attempt in flight: the attempt finishes and is recorded; a restart completes the delivery', SLOW, async () => {
    const { env, query } = await environment({ WEBHOOK_RETRY_SCHEDULE: '1s', WEBHOOK_TIMEOUT_MS: '8000' });
    const rx = await startReceiver((_hit, n) => (n === 1 ? { status: 500, delayMs: 2_000 } : { status: 200 }));
    const first = spawnService(env);
    const api = client(await listeningUrl(first));
    const ada = (await api.loginAs('ada')).token;
    await createEndpoint(api, ada, rx.url);
    expect((await api.post('/api/analytics/views', { path: '/graceful' })).status).toBeLessThan(300);
    await waitFor('the attempt in flight', () => rx.hits.length === 1);
    first.proc.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });

    // Stopped only after the receiver answered: the attempt is recorded, the lease dropped.
    const [stopped] = await query<DeliveryRow>(`SELECT id, "eventId", status, "attemptCount", "lockedUntil" FROM "WebhookDelivery"`);
    expect(stopped).toMatchObject({ status: 'PENDING', attemptCount: 1, lockedUntil: null });
    const attempts = await query<{ statusCode: number; durationMs: number }>(`SELECT "statusCode", "durationMs" FROM "WebhookAttempt"`);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.statusCode).toBe(500);
    expect(attempts[0]!.durationMs).toBeGreaterThanOrEqual(1_900);

    const second = spawnService(env);
    await listeningUrl(second);
    await waitFor('SUCCEEDED', async () => (await query<DeliveryRow>(`SELECT status FROM "WebhookDelivery"`))[0]?.status === 'SUCCEEDED');
    expect(rx.hits).toHaveLength(2);
    expect(rx.hits[1]!.headers['webhook-id']).toBe(stopped!.eventId);
    second.proc.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  });
});
