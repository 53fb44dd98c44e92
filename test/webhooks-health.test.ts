// Endpoint health, signing during a secret rotation, and the delivery log's retention, over real
// HTTP with real receivers: what an ADMIN sees through the API (and, where the API has no window
// on it, the database), across a restart.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect } from 'vitest';
import { newId } from '../src/ids.js';
import { client, type Client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { serverAndReceiverTest, serversTest, startForDescribe, startServersForDescribe, type ServersTest } from './support/fixtures.js';
import { startReceiver, type Delivery, type Receiver } from './support/receiver.js';
import { DATABASES, sql, type DatabaseKind, type TestServer } from './support/server.js';
import { sleep, waitFor as waitUntil } from './support/wait.js';

/**
 * How long to wait for something the worker does. Generous: the event relay positions an event only
 * once every older transaction on the PostgreSQL server has ended (txid_snapshot_xmin is server-wide),
 * so a long transaction in another database on a shared server holds every delivery back.
 */
const WAIT_MS = 60_000;
const waitFor = <T,>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, ms = WAIT_MS) => waitUntil(what, check, ms);

const ENV = {
  ...NO_RATE_LIMITS,
  // Failed deliveries keep trying for a while (30 × 200 ms), longer than the 2 s it takes to disable.
  WEBHOOK_RETRY_SCHEDULE: Array.from({ length: 30 }, () => '200ms').join(','),
  WEBHOOK_TIMEOUT_MS: '1000',
};

interface Endpoint {
  id: string;
  enabled: boolean;
  disabledReason: string | null;
  lastSuccessAt: string | null;
  failingSince: string | null;
  updatedAt: string;
}

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** The admin API of one server, as ada. */
function adminOf(server: () => TestServer) {
  let api: Client;
  let token: string;
  const self = {
    async login(): Promise<void> {
      api = client(server().url);
      token = (await api.loginAs('ada')).token;
    },
    async endpoint(url: string): Promise<{ id: string; secret: string }> {
      const created = await api.post('/api/v1/webhooks', { url, events: ['analytics.hit'] }, { token });
      expect(created.status, created.text).toBe(201);
      return created.body as { id: string; secret: string };
    },
    async show(id: string): Promise<Endpoint> {
      const reply = await api.get(`/api/v1/webhooks/${id}`, { token });
      expect(reply.status, reply.text).toBe(200);
      return reply.body as Endpoint;
    },
    async deliveries(id: string): Promise<Delivery[]> {
      const reply = await api.get(`/api/v1/webhooks/${id}/deliveries?limit=100`, { token });
      expect(reply.status, reply.text).toBe(200);
      return (reply.body as { items: Delivery[] }).items;
    },
    /** Commits one analytics.hit event through the API. */
    async pageView(): Promise<void> {
      const reply = await api.post('/api/analytics/views', { path: `/${newId('doc')}` });
      expect(reply.status, reply.text).toBeLessThan(300);
    },
  };
  return self;
}

// Each describe's servers run only while it does: the file would otherwise run five at once.
const health = Object.fromEntries(
  DATABASES.map((kind) => [kind, serversTest({ failing: { kind, env: { ...ENV, WEBHOOK_DISABLE_AFTER: '2s' } }, steady: { kind, env: ENV } }, { per: 'describe' })]),
) as Record<DatabaseKind, ServersTest<'failing' | 'steady'>>;
const onPostgres = serverAndReceiverTest({ kind: 'postgres', env: ENV }, { per: 'describe' });

describe.each(DATABASES)('endpoint health on %s', (kind) => {
  const it = health[kind];
  let failing: TestServer;
  let steady: TestServer;
  const cleanups: (() => Promise<unknown>)[] = [];
  const short = adminOf(() => failing);
  const long = adminOf(() => steady);

  startServersForDescribe(it);
  it.beforeAll(async ({ servers }) => {
    ({ failing, steady } = servers);
    await Promise.all([short.login(), long.login()]);
  });
  it.afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  async function receiver(status?: () => number): Promise<Receiver> {
    const r = await startReceiver(status);
    cleanups.push(() => r.close());
    return r;
  }

  it('an endpoint that has only failed for WEBHOOK_DISABLE_AFTER is disabled with a reason, and stays disabled across a restart', { timeout: 180_000 }, async () => {
    const rx = await receiver(() => 500);
    const { id } = await short.endpoint(rx.url);
    await short.pageView();

    const disabled = await waitFor('the endpoint disabled', async () => {
      const e = await short.show(id);
      return e.enabled ? undefined : e;
    });
    const [delivery] = await short.deliveries(id);
    // Failing since its first failed attempt, never a success, and disabled only once that was 2 s ago.
    expect(disabled.failingSince).toBe(delivery!.attempts[0]!.at);
    expect(delivery!.attempts.every((a) => a.statusCode === 500)).toBe(true);
    expect(disabled.lastSuccessAt).toBeNull();
    expect(disabled.disabledReason).toBe(`failing since ${disabled.failingSince} with no successful delivery for 2s`);
    expect(Date.parse(disabled.updatedAt) - Date.parse(disabled.failingSince!)).toBeGreaterThanOrEqual(2_000);

    // Nothing more is sent to it.
    const sent = rx.hits.length;
    await sleep(800);
    expect(rx.hits).toHaveLength(sent);

    failing = await failing.restart();
    await short.login();
    expect(await short.show(id)).toMatchObject({ enabled: false, disabledReason: disabled.disabledReason, failingSince: disabled.failingSince });
    await short.pageView();
    await sleep(1_500);
    expect(rx.hits).toHaveLength(sent);
    expect(await short.deliveries(id)).toHaveLength(1);
  });

  it('a failed attempt sets failingSince; the next 2xx clears it and records lastSuccessAt', { timeout: 180_000 }, async () => {
    let healthy = false;
    const rx = await receiver(() => (healthy ? 204 : 503));
    const { id } = await long.endpoint(rx.url);
    await long.pageView();

    const sick = await waitFor('failingSince', async () => {
      const e = await long.show(id);
      return e.failingSince ? e : undefined;
    });
    expect(sick).toMatchObject({ enabled: true, lastSuccessAt: null });
    const [first] = await long.deliveries(id);
    expect(sick.failingSince).toBe(first!.attempts[0]!.at);

    healthy = true;
    const done = await waitFor('SUCCEEDED', async () => {
      const [d] = await long.deliveries(id);
      return d?.status === 'SUCCEEDED' ? d : undefined;
    });
    const well = await long.show(id);
    expect(well).toMatchObject({ enabled: true, failingSince: null, lastSuccessAt: done.attempts.at(-1)!.at });
    expect(done.attempts.slice(0, -1).every((a) => a.statusCode === 503)).toBe(true);
    expect(rx.hits.length).toBe(done.attempts.length);
  });
});

describe('secret rotation signing and delivery log retention on postgres', () => {
  const it = onPostgres;
  let server: TestServer;
  const admin = adminOf(() => server);
  let rx: Receiver;

  startForDescribe(it);
  it.beforeAll(async ({ server: started, rx: receiver }) => {
    server = started;
    rx = receiver;
    await admin.login();
  });

  it('while the previous secret is live, deliveries carry both signatures, the new one first; then only the new one', { timeout: 180_000 }, async () => {
    const { id, secret: old } = await admin.endpoint(rx.url);
    const current = newSecret();
    // As a rotation leaves it (the rotate-secret endpoint is tested with the REST API elsewhere).
    await sql(server, `UPDATE "WebhookEndpoint" SET secret = $2, "previousSecret" = $3, "previousSecretExpiresAt" = now() + interval '1 hour' WHERE id = $1`, [id, current, old]);
    const before = rx.hits.length;
    await admin.pageView();
    const hit = await waitFor('the delivery', () => rx.hits[before]);

    const signatures = hit.headers['webhook-signature']!.split(' ');
    expect(signatures).toHaveLength(2);
    // A receiver holding either secret accepts it.
    expect(new Webhook(current).verify(hit.body, hit.headers)).toMatchObject({ event: 'analytics.hit' });
    expect(new Webhook(old).verify(hit.body, hit.headers)).toMatchObject({ event: 'analytics.hit' });
    // New first.
    expect(() => new Webhook(current).verify(hit.body, { ...hit.headers, 'webhook-signature': signatures[0]! })).not.toThrow();
    expect(() => new Webhook(old).verify(hit.body, { ...hit.headers, 'webhook-signature': signatures[1]! })).not.toThrow();
    expect(() => new Webhook(newSecret()).verify(hit.body, hit.headers)).toThrow();

    // The overlap is over: the old secret no longer verifies.
    await sql(server, `UPDATE "WebhookEndpoint" SET "previousSecretExpiresAt" = now() - interval '1 second' WHERE id = $1`, [id]);
    await admin.pageView();
    const after = await waitFor('the next delivery', () => rx.hits[before + 1]);
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(new Webhook(current).verify(after.body, after.headers)).toMatchObject({ event: 'analytics.hit' });
    expect(() => new Webhook(old).verify(after.body, after.headers)).toThrow();
  });

  it('deliveries older than WEBHOOK_LOG_RETENTION_DAYS are deleted with their attempts; a PENDING one only if its endpoint is disabled', { timeout: 180_000 }, async () => {
    const { id: live } = await admin.endpoint(rx.url);
    const { id: off } = await admin.endpoint(rx.url);
    await sql(server, `UPDATE "WebhookEndpoint" SET enabled = false, "disabledReason" = 'test' WHERE id = $1`, [off]);
    const insert = (id: string, endpointId: string, status: string, ageDays: number, nextAttemptInDays: number | null) =>
      sql(
        server,
        `INSERT INTO "WebhookDelivery" (id, "endpointId", "eventId", event, payload, status, "nextAttemptAt", "attemptCount", "createdAt")
         VALUES ($1, $2, $3, 'analytics.hit', '{"event":"analytics.hit","timestamp":"2026-01-01T00:00:00.000Z","path":"/old"}',
                 $4::"DeliveryStatus", now() + $6::float8 * interval '1 day', 1, now() - $5::float8 * interval '1 day')`,
        [id, endpointId, newId('evt'), status, ageDays, nextAttemptInDays],
      );
    const ids = {
      oldSucceeded: newId('dlv'),
      oldFailed: newId('dlv'),
      oldPendingEnabled: newId('dlv'),
      oldPendingDisabled: newId('dlv'),
      youngSucceeded: newId('dlv'),
    };
    await insert(ids.oldSucceeded, live, 'SUCCEEDED', 31, null);
    await insert(ids.oldFailed, live, 'FAILED', 45, null);
    await insert(ids.oldPendingEnabled, live, 'PENDING', 31, 1);
    await insert(ids.oldPendingDisabled, off, 'PENDING', 31, -31);
    await insert(ids.youngSucceeded, live, 'SUCCEEDED', 29, null);
    for (const id of Object.values(ids)) {
      await sql(server, `INSERT INTO "WebhookAttempt" ("deliveryId", at, "statusCode", "durationMs") VALUES ($1, now() - interval '31 days', 200, 5)`, [id]);
    }

    // Housekeeping runs as the worker starts, then once a minute.
    server = await server.restart();
    await admin.login();
    const kept = await waitFor('the old deliveries deleted', async () => {
      const rows = await sql<{ id: string }>(server, `SELECT id FROM "WebhookDelivery" WHERE id = ANY($1) ORDER BY id`, [Object.values(ids)]);
      return rows.length === 2 ? rows.map((r) => r.id) : undefined;
    });
    expect(kept.sort()).toEqual([ids.oldPendingEnabled, ids.youngSucceeded].sort());
    const attempts = await sql<{ deliveryId: string }>(server, `SELECT "deliveryId" FROM "WebhookAttempt" WHERE "deliveryId" = ANY($1)`, [Object.values(ids)]);
    expect(attempts.map((a) => a.deliveryId).sort()).toEqual(kept.sort());
    expect((await admin.deliveries(live)).map((d) => d.id).sort()).toEqual(kept.sort());
    expect(await admin.deliveries(off)).toEqual([]);
  });
});
