// ADMIN management of webhook endpoints over real HTTP: REST on both databases, GraphQL, and the
// private-target guard. Sending is the delivery worker's job: these tests only look at the rows
// the routes manage (a test ping is PENDING when queued; what the worker does next is not asserted).
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule, { type FormatsPluginOptions } from 'ajv-formats';
import { describe, expect } from 'vitest';
import { expectError } from './support/assert.js';
import { serverTest, serverTestOn } from './support/fixtures.js';
import type { Client, Reply } from './support/http.js';
import { DATABASES, sql, type TestServer } from './support/server.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import type { Delivery } from './support/receiver.js';
// The client library's Webhook type, itself checked against the server's schema (test/client.test.ts).
import type { Webhook as Endpoint } from '../src/client/types.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const ENDPOINT_KEYS = ['createdAt', 'description', 'disabledReason', 'enabled', 'events', 'failingSince', 'id', 'lastSuccessAt', 'updatedAt', 'url'];
const DELIVERY_KEYS = ['attempts', 'createdAt', 'event', 'eventId', 'id', 'nextAttemptAt', 'status'];
const DOC_ID = 'https://learnstream.test/openapi.json';
// ajv-formats is CommonJS: depending on the interop, the plugin is the default import or its `default`.
type AddFormats = (ajv: Ajv2020, options?: FormatsPluginOptions) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;
/** Nothing listens on the discard port: a worker that tries it fails fast. */
const TARGET = 'http://127.0.0.1:9/hook';

function expectEndpoint(value: unknown): Endpoint {
  expect(Object.keys(value as object).sort()).toEqual(ENDPOINT_KEYS);
  const e = value as Endpoint;
  expect(e.id).toMatch(/^whk_/);
  expect(e.createdAt).toMatch(ISO_MS);
  expect(e.updatedAt).toMatch(ISO_MS);
  if (e.enabled) expect(e.disabledReason).toBeNull();
  for (const at of [e.lastSuccessAt, e.failingSince]) if (at !== null) expect(at).toMatch(ISO_MS);
  return e;
}

function expectDelivery(value: unknown): Delivery {
  expect(Object.keys(value as object).sort()).toEqual(DELIVERY_KEYS);
  const d = value as Delivery;
  expect(d.id).toMatch(/^dlv_/);
  expect(d.eventId).toMatch(/^evt_/);
  expect(['PENDING', 'SUCCEEDED', 'FAILED']).toContain(d.status);
  expect(d.createdAt).toMatch(ISO_MS);
  if (d.nextAttemptAt !== null) expect(d.nextAttemptAt).toMatch(ISO_MS);
  for (const a of d.attempts) {
    expect(Object.keys(a).sort()).toEqual(['at', 'durationMs', 'error', 'statusCode']);
    expect(a.at).toMatch(ISO_MS);
  }
  return d;
}

const overRest = serverTestOn({ env: NO_RATE_LIMITS });
const privateTargetsRefused = serverTest({ env: { ...NO_RATE_LIMITS, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } });
const overGraphQL = serverTest({ env: NO_RATE_LIMITS });

describe.each(DATABASES)('webhook routes on %s', (kind) => {
  const it = overRest[kind];
  // The fixture's server, client and tokens, for the helpers and tests below.
  let server: TestServer;
  let api: Client;
  let ada: string;
  let grace: string;
  it.beforeAll(({ server: started, api: itsClient, ada: adaToken, grace: graceToken }) => {
    [server, api, ada, grace] = [started, itsClient, adaToken, graceToken];
  });

  async function create(body: Record<string, unknown> = {}): Promise<Endpoint & { secret: string }> {
    const reply = await api.post('/api/v1/webhooks', { url: TARGET, events: ['lesson.published'], ...body }, { token: ada });
    expect(reply.status, reply.text).toBe(201);
    const { secret, ...endpoint } = reply.body as Endpoint & { secret: string };
    expect(secret).toMatch(SECRET);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    return { ...expectEndpoint(endpoint), secret };
  }

  async function deliveries(id: string, qs = ''): Promise<{ items: Delivery[]; nextCursor: string | null }> {
    const reply = await api.get(`/api/v1/webhooks/${id}/deliveries${qs}`, { token: ada });
    expect(reply.status, reply.text).toBe(200);
    expect(Object.keys(reply.body as object).sort()).toEqual(['items', 'nextCursor']);
    return { items: (reply.body.items as unknown[]).map(expectDelivery), nextCursor: reply.body.nextCursor as string | null };
  }

  it('POST creates an enabled endpoint and shows its secret once; GET and the list never show it', async () => {
    const reply = await api.post('/api/v1/webhooks', { url: TARGET, events: ['lesson.published', 'user.created'], description: 'CI hook' }, { token: ada });
    expect(reply.status).toBe(201);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(reply.body as object).sort()).toEqual([...ENDPOINT_KEYS, 'secret'].sort());
    expect(reply.body).toMatchObject({ url: TARGET, events: ['lesson.published', 'user.created'], description: 'CI hook', enabled: true, disabledReason: null });
    expect(reply.body.secret).toMatch(SECRET);
    const id = reply.body.id as string;

    const one = await api.get(`/api/v1/webhooks/${id}`, { token: ada });
    expect(one.status).toBe(200);
    const { secret, ...withoutSecret } = reply.body as Endpoint & { secret: string };
    expect(expectEndpoint(one.body)).toEqual(withoutSecret);
    expect(one.text).not.toContain(secret);

    const list = await api.get('/api/v1/webhooks', { token: ada });
    expect(list.status).toBe(200);
    expect(Object.keys(list.body as object)).toEqual(['items']);
    (list.body.items as unknown[]).forEach(expectEndpoint);
    expect(list.body.items).toContainEqual(withoutSecret);
    expect(list.text).not.toContain('whsec_');

    // Every endpoint gets a secret of its own; description is optional.
    const other = await create();
    expect(other.description).toBeNull();
    expect(other.secret).not.toBe(secret);
  });

  it('lists newest first', async () => {
    const a = await create();
    const b = await create();
    const ids = ((await api.get('/api/v1/webhooks', { token: ada })).body.items as Endpoint[]).map((e) => e.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    const list = (await api.get('/api/v1/webhooks', { token: ada })).body.items as Endpoint[];
    for (let i = 1; i < list.length; i++) expect(list[i - 1]!.createdAt >= list[i]!.createdAt).toBe(true);
  });

  it('POST refuses bad input with a 400 naming the field', async () => {
    const post = (body: unknown) => api.post('/api/v1/webhooks', body, { token: ada });
    const events = ['lesson.published'];
    expectError(await post({ url: 'not a url', events }), 400, 'url: must be an absolute http or https URL', 'url');
    expectError(await post({ url: '/relative/path', events }), 400, 'url: must be an absolute http or https URL', 'url');
    expectError(await post({ url: 'ftp://example.com/hook', events }), 400, 'url: must be an absolute http or https URL', 'url');
    expectError(await post({ url: 'https://user:pw@example.com/hook', events }), 400, /^url: must not contain credentials/, 'url');
    expectError(await post({ url: 'https://user@example.com/hook', events }), 400, /^url: must not contain credentials/, 'url');
    expectError(await post({ url: `https://example.com/${'a'.repeat(2048)}`, events }), 400, 'url: must be at most 2048 characters', 'url');
    expectError(await post({ url: 42, events }), 400, /^url: /, 'url');
    expectError(await post({ events }), 400, 'url: is required', 'url');
    expectError(await post({ url: TARGET }), 400, 'events: is required', 'events');
    expectError(await post({ url: TARGET, events: [] }), 400, 'events: must name at least one event', 'events');
    expectError(await post({ url: TARGET, events: 'lesson.published' }), 400, /^events: /, 'events');
    expectError(await post({ url: TARGET, events: ['lesson.published', 'lesson.deleted'] }), 400, /^events\.1: must be one of user\.created, /, 'events.1');
    expectError(await post({ url: TARGET, events: ['webhook.test'] }), 400, /^events\.0: must be one of /, 'events.0');
    expectError(await post({ url: TARGET, events: ['user.created', 'user.created'] }), 400, 'events: must not name an event twice', 'events');
    expectError(await post({ url: TARGET, events, description: 'x'.repeat(501) }), 400, 'description: must be at most 500 characters', 'description');
    expectError(await post({ url: TARGET, events, secret: 'whsec_mine' }), 400, 'secret: unknown field', 'secret');
    expectError(await post({ url: TARGET, events, enabled: false }), 400, 'enabled: unknown field', 'enabled');
    expectError(await post([]), 400, undefined, 'body');
    expectError(await post('{'), 400);
    // Nothing was created by any of those.
    const list = (await api.get('/api/v1/webhooks', { token: ada })).body.items as Endpoint[];
    expect(list.some((e) => e.url !== TARGET)).toBe(false);
    // The limits themselves are allowed.
    expect((await post({ url: `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`, events, description: 'x'.repeat(500) })).status).toBe(201);
  });

  it('PATCH changes only the fields given; enabling clears disabledReason', async () => {
    const created = await create({ description: 'first' });
    const patch = (body: unknown, id = created.id) => api.patch(`/api/v1/webhooks/${id}`, body, { token: ada });

    const events = await patch({ events: ['analytics.hit', 'lesson.updated'] });
    expect(events.status).toBe(200);
    expect(expectEndpoint(events.body)).toMatchObject({ url: TARGET, events: ['analytics.hit', 'lesson.updated'], description: 'first', enabled: true });
    expect(events.body.updatedAt >= created.updatedAt).toBe(true);
    expect(events.text).not.toContain('whsec_');

    const moved = await patch({ url: 'https://receiver.example.com/hooks', description: null });
    expect(moved.body).toMatchObject({ url: 'https://receiver.example.com/hooks', description: null, events: ['analytics.hit', 'lesson.updated'] });

    const disabled = await patch({ enabled: false });
    expect(disabled.body).toMatchObject({ enabled: false, disabledReason: 'Disabled by an administrator' });

    // A reason the service recorded (the receiver said 410 Gone) is shown, and kept by another disable.
    if (kind === 'postgres') {
      await sql(server, `UPDATE "WebhookEndpoint" SET "disabledReason" = $2 WHERE id = $1`, [created.id, 'Receiver answered 410 Gone']);
      expect((await patch({ enabled: false })).body).toMatchObject({ enabled: false, disabledReason: 'Receiver answered 410 Gone' });
      expect((await api.get(`/api/v1/webhooks/${created.id}`, { token: ada })).body.disabledReason).toBe('Receiver answered 410 Gone');
    }

    const enabled = await patch({ enabled: true });
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null });
    expect((await api.get(`/api/v1/webhooks/${created.id}`, { token: ada })).body).toEqual(enabled.body);
    if (kind === 'postgres') {
      const [row] = await sql<{ disabledReason: string | null }>(server, `SELECT "disabledReason" FROM "WebhookEndpoint" WHERE id = $1`, [created.id]);
      expect(row!.disabledReason).toBeNull();
    }

    // Bad input changes nothing.
    expectError(await patch({}), 400, /give at least one of url, events, description, enabled/);
    expectError(await patch({ url: 'ftp://x/' }), 400, 'url: must be an absolute http or https URL', 'url');
    expectError(await patch({ events: [] }), 400, 'events: must name at least one event', 'events');
    expectError(await patch({ events: ['nope'] }), 400, /^events\.0: must be one of /, 'events.0');
    expectError(await patch({ events: ['analytics.hit', 'analytics.hit'] }), 400, 'events: must not name an event twice', 'events');
    expectError(await patch({ enabled: 'yes' }), 400, /^enabled: /, 'enabled');
    expectError(await patch({ secret: 'whsec_x' }), 400, 'secret: unknown field', 'secret');
    expectError(await patch({ id: 'whk_other' }), 400, 'id: unknown field', 'id');
    expect((await api.get(`/api/v1/webhooks/${created.id}`, { token: ada })).body).toEqual(enabled.body);

    expectError(await patch({ enabled: true }, 'whk_nope'), 404, 'Webhook whk_nope not found');
  });

  it('shows health: lastSuccessAt and failingSince null on a new endpoint', async () => {
    const created = await create();
    expect(created).toMatchObject({ lastSuccessAt: null, failingSince: null, enabled: true, disabledReason: null });
    expect((await api.get(`/api/v1/webhooks/${created.id}`, { token: ada })).body).toMatchObject({ lastSuccessAt: null, failingSince: null });
  });

  // The worker records health; here it is written from outside (the sql helper): PostgreSQL only.
  if (kind === 'postgres') it('shows health in GET and the list; re-enabling clears disabledReason and failingSince', async () => {
    const created = await create();
    const get = async () => expectEndpoint((await api.get(`/api/v1/webhooks/${created.id}`, { token: ada })).body);
    const patch = (body: unknown) => api.patch(`/api/v1/webhooks/${created.id}`, body, { token: ada });
    await sql(server, `UPDATE "WebhookEndpoint" SET "lastSuccessAt" = '2026-01-01T10:00:00.123Z', "failingSince" = '2026-01-02T00:00:00Z' WHERE id = $1`, [created.id]);
    const failing = await get();
    expect(failing).toMatchObject({ enabled: true, lastSuccessAt: '2026-01-01T10:00:00.123Z', failingSince: '2026-01-02T00:00:00.000Z', disabledReason: null });
    expect(((await api.get('/api/v1/webhooks', { token: ada })).body.items as Endpoint[]).find((e) => e.id === created.id)).toEqual(failing);

    // `enabled: true` on an endpoint that is enabled is not a re-enable: a failing one stays failing.
    expect((await patch({ enabled: true })).body).toMatchObject({ enabled: true, failingSince: '2026-01-02T00:00:00.000Z' });

    // Disabled by the worker for failing too long: the reason and since when are shown.
    await sql(server, `UPDATE "WebhookEndpoint" SET enabled = false, "disabledReason" = 'failing since 2026-01-02' WHERE id = $1`, [created.id]);
    expect(await get()).toMatchObject({ enabled: false, disabledReason: 'failing since 2026-01-02', failingSince: '2026-01-02T00:00:00.000Z' });
    // Other changes keep them.
    expect((await patch({ description: 'still down' })).body).toMatchObject({ enabled: false, disabledReason: 'failing since 2026-01-02', failingSince: '2026-01-02T00:00:00.000Z' });

    const enabled = await patch({ enabled: true });
    expect(enabled.status, enabled.text).toBe(200);
    // A fresh start; the last success is history and stays.
    expect(expectEndpoint(enabled.body)).toMatchObject({ enabled: true, disabledReason: null, failingSince: null, lastSuccessAt: '2026-01-01T10:00:00.123Z' });
    expect(await get()).toEqual(enabled.body);
    const [row] = await sql<{ disabledReason: string | null; failingSince: Date | null }>(server,
      `SELECT "disabledReason", "failingSince" FROM "WebhookEndpoint" WHERE id = $1`, [created.id]);
    expect(row).toEqual({ disabledReason: null, failingSince: null });
  });

  it('DELETE answers 204, then the endpoint and its deliveries are gone', async () => {
    const created = await create();
    expect((await api.post(`/api/v1/webhooks/${created.id}/test`, undefined, { token: ada })).status).toBe(202);
    const deleted = await api.delete(`/api/v1/webhooks/${created.id}`, { token: ada });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectError(await api.get(`/api/v1/webhooks/${created.id}`, { token: ada }), 404, `Webhook ${created.id} not found`);
    expectError(await api.delete(`/api/v1/webhooks/${created.id}`, { token: ada }), 404, `Webhook ${created.id} not found`);
    expectError(await api.get(`/api/v1/webhooks/${created.id}/deliveries`, { token: ada }), 404, `Webhook ${created.id} not found`);
    const list = (await api.get('/api/v1/webhooks', { token: ada })).body.items as Endpoint[];
    expect(list.map((e) => e.id)).not.toContain(created.id);
    if (kind === 'postgres') {
      expect(await sql(server, `SELECT id FROM "WebhookDelivery" WHERE "endpointId" = $1`, [created.id])).toEqual([]);
    }
  });

  it('POST /test queues a PENDING webhook.test delivery with an evt_ id, visible in deliveries', async () => {
    const created = await create();
    const before = Date.now();
    const reply = await api.post(`/api/v1/webhooks/${created.id}/test`, undefined, { token: ada });
    expect(reply.status, reply.text).toBe(202);
    const queued = expectDelivery(reply.body);
    expect(queued).toMatchObject({ event: 'webhook.test', status: 'PENDING', attempts: [] });
    expect(Date.parse(queued.nextAttemptAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(queued.nextAttemptAt!)).toBeLessThanOrEqual(Date.now() + 1000);

    const { items, nextCursor } = await deliveries(created.id);
    expect(nextCursor).toBeNull();
    expect(items).toHaveLength(1);
    // The worker may already have tried it; the delivery itself is the same one.
    expect(items[0]).toMatchObject({ id: queued.id, eventId: queued.eventId, event: 'webhook.test' });

    if (kind === 'postgres') {
      const [row] = await sql<{ payload: Record<string, unknown>; endpointId: string }>(
        server, `SELECT payload, "endpointId" FROM "WebhookDelivery" WHERE id = $1`, [queued.id]);
      expect(row!.endpointId).toBe(created.id);
      expect(Object.keys(row!.payload).sort()).toEqual(['event', 'timestamp']);
      expect(row!.payload.event).toBe('webhook.test');
      expect(row!.payload.timestamp).toMatch(ISO_MS);
      // To that endpoint only, and not recorded as an event for subscribers.
      expect(await sql(server, `SELECT id FROM "WebhookDelivery" WHERE "eventId" = $1 AND id <> $2`, [queued.eventId, queued.id])).toEqual([]);
      expect(await sql(server, `SELECT id FROM "Event" WHERE id = $1`, [queued.eventId])).toEqual([]);
    }
    // Each ping is an event of its own.
    const again = expectDelivery((await api.post(`/api/v1/webhooks/${created.id}/test`, undefined, { token: ada })).body);
    expect(again.eventId).not.toBe(queued.eventId);
    expectError(await api.post('/api/v1/webhooks/whk_nope/test', undefined, { token: ada }), 404, 'Webhook whk_nope not found');
  });

  it('GET deliveries pages newest first with limit and cursor; bad limit or cursor is 400', async () => {
    const created = await create();
    const queued: string[] = [];
    for (let i = 0; i < 5; i++) {
      queued.push((await api.post(`/api/v1/webhooks/${created.id}/test`, undefined, { token: ada })).body.id as string);
    }
    const first = await deliveries(created.id, '?limit=2');
    expect(first.items.map((d) => d.id)).toEqual([queued[4], queued[3]]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await deliveries(created.id, `?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect(second.items.map((d) => d.id)).toEqual([queued[2], queued[1]]);
    const third = await deliveries(created.id, `?limit=2&cursor=${encodeURIComponent(second.nextCursor!)}`);
    expect(third.items.map((d) => d.id)).toEqual([queued[0]]);
    expect(third.nextCursor).toBeNull();
    expect((await deliveries(created.id)).items.map((d) => d.id)).toEqual([...queued].reverse());

    const get = (qs: string) => api.get(`/api/v1/webhooks/${created.id}/deliveries${qs}`, { token: ada });
    expectError(await get('?limit=0'), 400, 'query.limit: must be an integer from 1 to 100', 'query.limit');
    expectError(await get('?limit=101'), 400, 'query.limit: must be an integer from 1 to 100', 'query.limit');
    expectError(await get('?limit=ten'), 400, 'query.limit: must be an integer from 1 to 100', 'query.limit');
    expectError(await get('?cursor=garbage'), 400, 'query.cursor: is not a valid cursor', 'query.cursor');
    expect((await get('?limit=100')).status).toBe(200);
    expectError(await api.get('/api/v1/webhooks/whk_nope/deliveries', { token: ada }), 404, 'Webhook whk_nope not found');
  });

  // Needs the database from outside the server (the sql helper): PostgreSQL only.
  if (kind === 'postgres') it('deliveries show their attempts, oldest first', async () => {
    const created = await create();
    await sql(server, `INSERT INTO "WebhookDelivery" (id, "endpointId", "eventId", event, payload, status, "nextAttemptAt", "attemptCount")
      VALUES ('dlv_attempts', $1, 'evt_attempts', 'lesson.published', '{}', 'FAILED', NULL, 2)`, [created.id]);
    await sql(server, `INSERT INTO "WebhookAttempt" ("deliveryId", at, "statusCode", "durationMs", error) VALUES
      ('dlv_attempts', '2026-01-01T00:00:05.000Z', NULL, 10000, 'timed out after 10000 ms'),
      ('dlv_attempts', '2026-01-01T00:00:00.000Z', 500, 12, 'HTTP 500')`);
    const { items } = await deliveries(created.id);
    expect(items).toEqual([{
      id: 'dlv_attempts', eventId: 'evt_attempts', event: 'lesson.published', status: 'FAILED', nextAttemptAt: null,
      createdAt: expect.stringMatching(ISO_MS) as string,
      attempts: [
        { at: '2026-01-01T00:00:00.000Z', statusCode: 500, durationMs: 12, error: 'HTTP 500' },
        { at: '2026-01-01T00:00:05.000Z', statusCode: null, durationMs: 10000, error: 'timed out after 10000 ms' },
      ],
    }]);
  });

  it('POST retry makes a delivery due now: PENDING, no lease', async () => {
    const created = await create();
    const ping = expectDelivery((await api.post(`/api/v1/webhooks/${created.id}/test`, undefined, { token: ada })).body);
    const retry = (deliveryId: string, id = created.id) => api.post(`/api/v1/webhooks/${id}/deliveries/${deliveryId}/retry`, undefined, { token: ada });

    const pending = await retry(ping.id);
    expect(pending.status, pending.text).toBe(202);
    expect(expectDelivery(pending.body)).toMatchObject({ id: ping.id, eventId: ping.eventId, status: 'PENDING' });

    if (kind === 'postgres') {
      // A FAILED delivery (schedule spent) and a SUCCEEDED one with a stale lease both get one more attempt.
      for (const [id, status] of [['dlv_failed', 'FAILED'], ['dlv_succeeded', 'SUCCEEDED']] as const) {
        await sql(server, `INSERT INTO "WebhookDelivery" (id, "endpointId", "eventId", event, payload, status, "nextAttemptAt", "lockedUntil", "attemptCount")
          VALUES ($1, $2, $3, 'lesson.published', '{"event":"lesson.published"}', $4, NULL, now() + interval '1 hour', 8)`,
        [id, created.id, `evt_${id}`, status]);
        const before = Date.now();
        const reply = await retry(id);
        expect(reply.status, reply.text).toBe(202);
        const delivery = expectDelivery(reply.body);
        expect(delivery).toMatchObject({ id, eventId: `evt_${id}`, status: 'PENDING' });
        expect(Date.parse(delivery.nextAttemptAt!)).toBeGreaterThanOrEqual(before - 1000);
        expect(Date.parse(delivery.nextAttemptAt!)).toBeLessThanOrEqual(Date.now() + 1000);
        const [row] = await sql<{ attemptCount: number; lockedUntil: Date | null }>(server,
          `SELECT "attemptCount", "lockedUntil" FROM "WebhookDelivery" WHERE id = $1`, [id]);
        // Its place in the schedule is the schedule's end (the default's 7 retries), so it gets
        // exactly one more attempt: a failure is FAILED, not retried. (The worker may have made that
        // attempt since, counting it, and only its own lease may be on it now.) This asserted 8 or
        // more, the count before the retry, which only a quick worker's attempt made true.
        expect([7, 8]).toContain(row!.attemptCount);
        if (row!.lockedUntil) expect(row!.lockedUntil.getTime()).toBeLessThan(Date.now() + 3_600_000 - 60_000);
      }
    }

    if (kind === 'postgres') {
      // One the relay has created but not yet made due (its event is not published yet) stays so:
      // it must not go out before subscribers see the event.
      await sql(server, `INSERT INTO "WebhookDelivery" (id, "endpointId", "eventId", event, payload, status, "nextAttemptAt")
        VALUES ('dlv_unpublished', $1, 'evt_unpublished', 'lesson.published', '{}', 'PENDING', NULL)`, [created.id]);
      const reply = await retry('dlv_unpublished');
      expect(reply.status).toBe(202);
      expect(reply.body).toMatchObject({ id: 'dlv_unpublished', status: 'PENDING', nextAttemptAt: null });
    }

    expectError(await retry('dlv_nope'), 404, 'Delivery dlv_nope not found');
    expectError(await retry(ping.id, 'whk_nope'), 404, 'Webhook whk_nope not found');
    // A delivery of another endpoint is not found under this one.
    const other = await create();
    expectError(await retry(ping.id, other.id), 404, `Delivery ${ping.id} not found`);
  });

  it('answers 404 for unknown ids on every route', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/v1/webhooks/whk_nope'],
      ['PATCH', '/api/v1/webhooks/whk_nope', { enabled: true }],
      ['DELETE', '/api/v1/webhooks/whk_nope'],
      ['POST', '/api/v1/webhooks/whk_nope/test'],
      ['GET', '/api/v1/webhooks/whk_nope/deliveries'],
      ['POST', '/api/v1/webhooks/whk_nope/deliveries/dlv_nope/retry'],
      ['POST', '/api/v1/webhooks/whk_nope/recover', { since: '2026-01-01' }],
      ['POST', '/api/v1/webhooks/whk_nope/rotate-secret'],
    ];
    for (const [method, path, body] of routes) {
      expectError(await api.request(method, path, { token: ada, body }), 404, 'Webhook whk_nope not found');
      // Ids no webhook can have (NUL, which PostgreSQL text cannot hold, other control characters,
      // a huge id) are a 404 too, not a failed query, and are not echoed back.
      for (const impossible of ['%00', 'whk_nope%00', 'whk_%0D%0A', `whk_${'x'.repeat(3000)}`]) {
        expectError(await api.request(method, path.replace('whk_nope', impossible), { token: ada, body }), 404, 'Webhook not found');
      }
    }
    const created = await create();
    for (const impossible of ['%00', `dlv_${'x'.repeat(3000)}`]) {
      expectError(await api.post(`/api/v1/webhooks/${created.id}/deliveries/${impossible}/retry`, undefined, { token: ada }), 404, 'Delivery not found');
    }
  });

  it('a MEMBER gets 403 Forbidden and no token gets 403 Missing or invalid token, on every route', async () => {
    const created = await create();
    const ping = (await api.post(`/api/v1/webhooks/${created.id}/test`, undefined, { token: ada })).body.id as string;
    const routes: [string, string, unknown?][] = [
      ['POST', '/api/v1/webhooks', { url: TARGET, events: ['lesson.published'] }],
      ['GET', '/api/v1/webhooks'],
      ['GET', `/api/v1/webhooks/${created.id}`],
      ['PATCH', `/api/v1/webhooks/${created.id}`, { enabled: false }],
      ['DELETE', `/api/v1/webhooks/${created.id}`],
      ['POST', `/api/v1/webhooks/${created.id}/test`],
      ['GET', `/api/v1/webhooks/${created.id}/deliveries`],
      ['POST', `/api/v1/webhooks/${created.id}/deliveries/${ping}/retry`],
      ['POST', `/api/v1/webhooks/${created.id}/recover`, { since: '2026-01-01' }],
      ['POST', `/api/v1/webhooks/${created.id}/rotate-secret`],
      ['POST', '/api/v1/webhooks/whk_nope/rotate-secret'],
      ['POST', `/api/v1/webhooks/${created.id}/recover`, { since: 'never' }],
      // Before any other check: an unknown id or a bad body tells a MEMBER nothing.
      ['GET', '/api/v1/webhooks/whk_nope'],
      ['POST', '/api/v1/webhooks', { url: 'ftp://x', events: [] }],
    ];
    for (const [method, path, body] of routes) {
      expectError(await api.request(method, path, { token: grace, body }), 403, 'Forbidden');
      expectError(await api.request(method, path, { body }), 403, 'Missing or invalid token');
      expectError(await api.request(method, path, { token: 'not-a-token', body }), 403, 'Missing or invalid token');
    }
    // Nothing changed.
    expect((await api.get(`/api/v1/webhooks/${created.id}`, { token: ada })).body).toMatchObject({ enabled: true });
    expect((await deliveries(created.id)).items).toHaveLength(1);
  });

  it('every response, success or error, is what /api/openapi.json documents for the route', async () => {
    const doc = (await api.get('/api/openapi.json')).body as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
    };
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(doc, DOC_ID);
    const pointer = (...segments: string[]) => segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
    let checked = 0;
    const documented = (reply: Reply, method: string, path: string) => {
      const responses = doc.paths[path]![method.toLowerCase()]!.responses;
      expect(Object.keys(responses), `${method} ${path} documents ${reply.status}`).toContain(String(reply.status));
      if (reply.status === 204 || (reply.status === 202 && !responses['202']!.content)) {
        expect(reply.text).toBe('');
      } else {
        const ref = `${DOC_ID}#/${pointer('paths', path, method.toLowerCase(), 'responses', String(reply.status), 'content', 'application/json', 'schema')}`;
        const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
        expect(validate(reply.body), `${method} ${path} ${reply.status}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
      checked++;
    };
    const W = '/api/v1/webhooks';
    const created = await api.post(W, { url: TARGET, events: ['user.created'], description: 'doc' }, { token: ada });
    documented(created, 'POST', W);
    const id = created.body.id as string;
    documented(await api.post(W, { url: 'ftp://x', events: ['user.created'] }, { token: ada }), 'POST', W);
    documented(await api.post(W, { url: TARGET, events: ['user.created'] }, { token: grace }), 'POST', W);
    documented(await api.get(W, { token: ada }), 'GET', W);
    documented(await api.get(W), 'GET', W);
    documented(await api.get(`${W}/${id}`, { token: ada }), 'GET', `${W}/{id}`);
    documented(await api.get(`${W}/whk_nope`, { token: ada }), 'GET', `${W}/{id}`);
    documented(await api.patch(`${W}/${id}`, { enabled: false }, { token: ada }), 'PATCH', `${W}/{id}`);
    documented(await api.patch(`${W}/${id}`, { description: null, enabled: true }, { token: ada }), 'PATCH', `${W}/{id}`);
    documented(await api.patch(`${W}/${id}`, { events: [] }, { token: ada }), 'PATCH', `${W}/{id}`);
    documented(await api.patch(`${W}/whk_nope`, { enabled: true }, { token: ada }), 'PATCH', `${W}/{id}`);
    const ping = await api.post(`${W}/${id}/test`, undefined, { token: ada });
    documented(ping, 'POST', `${W}/{id}/test`);
    documented(await api.post(`${W}/whk_nope/test`, undefined, { token: ada }), 'POST', `${W}/{id}/test`);
    await api.post(`${W}/${id}/test`, undefined, { token: ada });
    const page = await api.get(`${W}/${id}/deliveries?limit=1`, { token: ada });
    expect(page.body.nextCursor).toEqual(expect.any(String));
    documented(page, 'GET', `${W}/{id}/deliveries`);
    documented(await api.get(`${W}/${id}/deliveries?limit=1&cursor=${page.body.nextCursor as string}`, { token: ada }), 'GET', `${W}/{id}/deliveries`);
    documented(await api.get(`${W}/${id}/deliveries?limit=0`, { token: ada }), 'GET', `${W}/{id}/deliveries`);
    const retryPath = `${W}/{id}/deliveries/{deliveryId}/retry`;
    documented(await api.post(`${W}/${id}/deliveries/${ping.body.id as string}/retry`, undefined, { token: ada }), 'POST', retryPath);
    documented(await api.post(`${W}/${id}/deliveries/dlv_nope/retry`, undefined, { token: ada }), 'POST', retryPath);
    documented(await api.post(`${W}/${id}/recover`, { since: '2026-01-01' }, { token: ada }), 'POST', `${W}/{id}/recover`);
    documented(await api.post(`${W}/${id}/recover`, { since: 'yesterday' }, { token: ada }), 'POST', `${W}/{id}/recover`);
    documented(await api.post(`${W}/whk_nope/recover`, { since: '2026-01-01' }, { token: ada }), 'POST', `${W}/{id}/recover`);
    documented(await api.post(`${W}/${id}/rotate-secret`, undefined, { token: ada }), 'POST', `${W}/{id}/rotate-secret`);
    documented(await api.post(`${W}/${id}/rotate-secret`, undefined, { token: grace }), 'POST', `${W}/{id}/rotate-secret`);
    documented(await api.post(`${W}/whk_nope/rotate-secret`, undefined, { token: ada }), 'POST', `${W}/{id}/rotate-secret`);
    documented(await api.delete(`${W}/${id}`, { token: grace }), 'DELETE', `${W}/{id}`);
    documented(await api.delete(`${W}/${id}`, { token: ada }), 'DELETE', `${W}/{id}`);
    documented(await api.delete(`${W}/${id}`, { token: ada }), 'DELETE', `${W}/{id}`);
    expect(checked).toBe(27);
    // The schemas are not vacuous: a secret in a listed endpoint, or a missing field, does not validate.
    const listSchema = ajv.compile({ $ref: `${DOC_ID}#/${pointer('paths', W, 'get', 'responses', '200', 'content', 'application/json', 'schema')}` });
    expect(listSchema({ items: [{ ...created.body }] })).toBe(false);
    const { secret: _secret, ...endpoint } = created.body as Record<string, unknown>;
    expect(listSchema({ items: [endpoint] })).toBe(true);
    const { disabledReason: _reason, ...partial } = endpoint;
    expect(listSchema({ items: [partial] })).toBe(false);
  });

  it('accepts loopback targets when private targets are allowed (the default outside production)', async () => {
    expect(server.config.webhook.allowPrivateTargets).toBe(true);
    for (const url of ['http://127.0.0.1:9/x', 'http://localhost/x', 'http://10.0.0.1/', 'http://[::1]/']) {
      expect((await api.post('/api/v1/webhooks', { url, events: ['user.created'] }, { token: ada })).status).toBe(201);
    }
  });
});

describe('webhook targets with WEBHOOK_ALLOW_PRIVATE_TARGETS=false', () => {
  const it = privateTargetsRefused;

  const PRIVATE = [
    'http://127.0.0.1:9/x', 'http://localhost/x', 'http://LOCALHOST./x', 'http://api.localhost/x', 'http://10.0.0.1/',
    'http://[::1]/', 'http://169.254.169.254/', 'http://192.168.1.1/', 'http://172.16.0.1/', 'http://100.64.0.1/',
    'http://0.0.0.0/', 'http://224.0.0.1/', 'http://[fd00::1]/', 'http://[fe80::1]/', 'http://[::ffff:10.0.0.1]/',
    // Other spellings of 127.0.0.1 that the URL parser normalises.
    'http://2130706433/', 'http://0x7f.1/',
  ];

  it('refuses loopback, private, link-local and metadata targets with a 400 on url', async ({ api, ada }) => {
    for (const url of PRIVATE) {
      const reply = await api.post('/api/v1/webhooks', { url, events: ['user.created'] }, { token: ada });
      expectError(reply, 400, /^url: must not target a private, loopback or link-local address/, 'url');
    }
    expect((await api.get('/api/v1/webhooks', { token: ada })).body.items).toEqual([]);
  });

  it('refuses them on PATCH too, and accepts a public address', async ({ api, ada }) => {
    const created = await api.post('/api/v1/webhooks', { url: 'https://93.184.215.14/hook', events: ['user.created'] }, { token: ada });
    expect(created.status, created.text).toBe(201);
    for (const url of ['http://127.0.0.1:9/x', 'http://[::1]/', 'http://169.254.169.254/latest/meta-data']) {
      expectError(await api.patch(`/api/v1/webhooks/${created.body.id}`, { url }, { token: ada }), 400, /^url: must not target/, 'url');
    }
    expect((await api.get(`/api/v1/webhooks/${created.body.id}`, { token: ada })).body.url).toBe('https://93.184.215.14/hook');
  });

  it('refuses them over GraphQL as BAD_USER_INPUT', async ({ api, ada }) => {
    const reply = await api.graphql(
      'mutation ($input: CreateWebhookInput!) { createWebhook(input: $input) { id } }',
      { input: { url: 'http://169.254.169.254/', events: ['user.created'] } },
      { token: ada },
    );
    expect(reply.status).toBe(200);
    expect(reply.body.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', status: 400, details: { field: 'url' } } });
    expect(reply.body.errors[0].message).toMatch(/^url: must not target/);
  });
});

describe('webhook management over GraphQL', () => {
  const it = overGraphQL;
  // The fixture's client and tokens, for the helpers and tests below.
  let api: Client;
  let ada: string;
  let grace: string;
  it.beforeAll(({ api: itsClient, ada: adaToken, grace: graceToken }) => {
    [api, ada, grace] = [itsClient, adaToken, graceToken];
  });

  const FIELDS = 'id url events description enabled disabledReason lastSuccessAt failingSince createdAt updatedAt';
  const DELIVERY = 'id eventId event status attempts { at statusCode durationMs error } nextAttemptAt createdAt';

  async function data(query: string, variables?: Record<string, unknown>, token = ada) {
    const reply = await api.graphql(query, variables, { token });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.errors, reply.text).toBeUndefined();
    return reply.body.data;
  }
  function onlyError(reply: Reply, code: string, message?: string | RegExp) {
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.errors, reply.text).toHaveLength(1);
    const error = reply.body.errors[0];
    expect(error.extensions.code).toBe(code);
    if (typeof message === 'string') expect(error.message).toBe(message);
    else if (message) expect(error.message).toMatch(message);
    return error as { message: string; extensions: Record<string, unknown> };
  }
  const createWebhook = (input: Record<string, unknown>, token = ada) =>
    api.graphql(`mutation ($input: CreateWebhookInput!) { createWebhook(input: $input) { ${FIELDS} secret } }`, { input }, { token });

  it('createWebhook shows the secret once; webhook and webhooks agree with REST and have no secret', async () => {
    const reply = await createWebhook({ url: TARGET, events: ['lesson.updated'], description: 'gql' });
    expect(reply.body.errors, reply.text).toBeUndefined();
    const created = reply.body.data.createWebhook;
    expect(created).toMatchObject({ url: TARGET, events: ['lesson.updated'], description: 'gql', enabled: true, disabledReason: null });
    expect(created.secret).toMatch(SECRET);
    const { secret: _secret, ...endpoint } = created;

    const rest = await api.get(`/api/v1/webhooks/${created.id}`, { token: ada });
    expect((await data(`query ($id: ID!) { webhook(id: $id) { ${FIELDS} } }`, { id: created.id })).webhook).toEqual(rest.body);
    expect(rest.body).toEqual(endpoint);
    const { webhooks } = await data(`{ webhooks { ${FIELDS} } }`);
    expect(webhooks).toEqual((await api.get('/api/v1/webhooks', { token: ada })).body.items);

    // WebhookEndpoint has no secret field at all.
    const asked = await api.graphql(`{ webhooks { id secret } }`, undefined, { token: ada });
    expect(asked.body.errors[0].message).toMatch(/Cannot query field "secret" on type "WebhookEndpoint"/);
  });

  it('createWebhook and updateWebhook refuse bad input as BAD_USER_INPUT naming the field', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ url: 'not a url', events: ['user.created'] }, /^url: must be an absolute http or https URL$/],
      [{ url: 'ftp://example.com/', events: ['user.created'] }, /^url: /],
      [{ url: 'https://u:p@example.com/', events: ['user.created'] }, /^url: must not contain credentials/],
      [{ url: TARGET, events: [] }, /^events: must name at least one event$/],
      [{ url: TARGET, events: ['nope'] }, /^events\.0: must be one of /],
      [{ url: TARGET, events: ['user.created', 'user.created'] }, /^events: must not name an event twice$/],
      [{ url: TARGET, events: ['user.created'], description: 'x'.repeat(501) }, /^description: must be at most 500 characters$/],
    ];
    for (const [input, message] of cases) onlyError(await createWebhook(input), 'BAD_USER_INPUT', message);
    // Missing or unknown input fields are refused by GraphQL validation itself.
    expect((await createWebhook({ url: TARGET })).body.errors).toHaveLength(1);
    expect((await createWebhook({ url: TARGET, events: ['user.created'], secret: 'x' })).body.errors).toHaveLength(1);

    const { createWebhook: created } = await data(`mutation { createWebhook(input: {url: "${TARGET}", events: ["user.created"]}) { id } }`);
    const update = (input: Record<string, unknown>, id = created.id as string) =>
      api.graphql(`mutation ($id: ID!, $input: UpdateWebhookInput!) { updateWebhook(id: $id, input: $input) { ${FIELDS} } }`, { id, input }, { token: ada });
    onlyError(await update({}), 'BAD_USER_INPUT', /give at least one of/);
    onlyError(await update({ events: ['user.created', 'user.created'] }), 'BAD_USER_INPUT', 'events: must not name an event twice');
    onlyError(await update({ url: 'ftp://x/' }), 'BAD_USER_INPUT', 'url: must be an absolute http or https URL');
    onlyError(await update({ enabled: true }, 'whk_nope'), 'NOT_FOUND', 'Webhook whk_nope not found');

    // PATCH semantics: null means "not given", except for description, which it clears.
    const changed = (await update({ description: 'd', enabled: false, url: null })).body.data.updateWebhook;
    expect(changed).toMatchObject({ url: TARGET, description: 'd', enabled: false, disabledReason: 'Disabled by an administrator' });
    const cleared = (await update({ description: null, enabled: true })).body.data.updateWebhook;
    expect(cleared).toMatchObject({ url: TARGET, description: null, enabled: true, disabledReason: null });
    expect(cleared).toEqual((await api.get(`/api/v1/webhooks/${created.id}`, { token: ada })).body);
  });

  it('testWebhook, webhookDeliveries and retryWebhookDelivery match REST', async () => {
    const { createWebhook: created } = await data(`mutation { createWebhook(input: {url: "${TARGET}", events: ["user.created"]}) { id } }`);
    const { testWebhook: ping } = await data(`mutation ($id: ID!) { testWebhook(id: $id) { ${DELIVERY} } }`, { id: created.id });
    expect(ping).toMatchObject({ event: 'webhook.test', status: 'PENDING', attempts: [] });
    expect(ping.eventId).toMatch(/^evt_/);
    await data(`mutation ($id: ID!) { testWebhook(id: $id) { id } }`, { id: created.id });
    await data(`mutation ($id: ID!) { testWebhook(id: $id) { id } }`, { id: created.id });

    const page = async (first: number, after?: string) =>
      (await data(`query ($id: ID!, $first: Int, $after: String) { webhookDeliveries(webhookId: $id, first: $first, after: $after) {
        edges { cursor node { id eventId event } } pageInfo { hasNextPage endCursor } } }`, { id: created.id, first, after })).webhookDeliveries;
    const one = await page(2);
    expect(one.edges).toHaveLength(2);
    expect(one.pageInfo.hasNextPage).toBe(true);
    const two = await page(2, one.pageInfo.endCursor);
    expect(two.edges).toHaveLength(1);
    expect(two.pageInfo.hasNextPage).toBe(false);
    expect(two.edges[0].node).toEqual({ id: ping.id, eventId: ping.eventId, event: 'webhook.test' });
    const rest = (await api.get(`/api/v1/webhooks/${created.id}/deliveries`, { token: ada })).body.items as Delivery[];
    expect([...one.edges, ...two.edges].map((e: { node: { id: string } }) => e.node.id)).toEqual(rest.map((d) => d.id));

    const { retryWebhookDelivery: retried } = await data(
      `mutation ($w: ID!, $d: ID!) { retryWebhookDelivery(webhookId: $w, deliveryId: $d) { ${DELIVERY} } }`, { w: created.id, d: ping.id });
    expect(retried).toMatchObject({ id: ping.id, eventId: ping.eventId, status: 'PENDING' });

    const q = `query ($id: ID!, $first: Int, $after: String) { webhookDeliveries(webhookId: $id, first: $first, after: $after) { edges { node { id } } } }`;
    onlyError(await api.graphql(q, { id: created.id, first: 0 }, { token: ada }), 'BAD_USER_INPUT', 'first: must be an integer from 1 to 100');
    onlyError(await api.graphql(q, { id: created.id, after: 'garbage' }, { token: ada }), 'BAD_USER_INPUT', 'after: is not a valid cursor');
    onlyError(await api.graphql(q, { id: 'whk_nope' }, { token: ada }), 'NOT_FOUND', 'Webhook whk_nope not found');
    onlyError(await api.graphql(`mutation { retryWebhookDelivery(webhookId: "${created.id}", deliveryId: "dlv_nope") { id } }`, undefined, { token: ada }),
      'NOT_FOUND', 'Delivery dlv_nope not found');
    onlyError(await api.graphql('mutation { testWebhook(id: "whk_nope") { id } }', undefined, { token: ada }), 'NOT_FOUND', 'Webhook whk_nope not found');
  });

  it('deleteWebhook deletes; then webhook(id) is null with NOT_FOUND', async () => {
    const { createWebhook: created } = await data(`mutation { createWebhook(input: {url: "${TARGET}", events: ["user.created"]}) { id } }`);
    expect((await data('mutation ($id: ID!) { deleteWebhook(id: $id) }', { id: created.id })).deleteWebhook).toBe(true);
    const gone = await api.graphql('query ($id: ID!) { webhook(id: $id) { id } }', { id: created.id }, { token: ada });
    onlyError(gone, 'NOT_FOUND', `Webhook ${created.id} not found`);
    expect(gone.body.data).toEqual({ webhook: null });
    onlyError(await api.graphql('mutation ($id: ID!) { deleteWebhook(id: $id) }', { id: created.id }, { token: ada }), 'NOT_FOUND');
    expectError(await api.get(`/api/v1/webhooks/${created.id}`, { token: ada }), 404, `Webhook ${created.id} not found`);
  });

  it('every field is FORBIDDEN to a MEMBER and UNAUTHENTICATED without a token', async () => {
    const { createWebhook: created } = await data(`mutation { createWebhook(input: {url: "${TARGET}", events: ["user.created"]}) { id } }`);
    const { testWebhook: ping } = await data(`mutation ($id: ID!) { testWebhook(id: $id) { id } }`, { id: created.id });
    const count = ((await api.get('/api/v1/webhooks', { token: ada })).body.items as unknown[]).length;
    const operations = [
      '{ webhooks { id } }',
      `{ webhook(id: "${created.id}") { id } }`,
      `{ webhookDeliveries(webhookId: "${created.id}") { edges { node { id } } } }`,
      `mutation { createWebhook(input: {url: "${TARGET}", events: ["user.created"]}) { id secret } }`,
      `mutation { updateWebhook(id: "${created.id}", input: {enabled: false}) { id } }`,
      `mutation { deleteWebhook(id: "${created.id}") }`,
      `mutation { testWebhook(id: "${created.id}") { id } }`,
      `mutation { retryWebhookDelivery(webhookId: "${created.id}", deliveryId: "${ping.id}") { id } }`,
      `mutation { recoverWebhook(id: "${created.id}", since: "2026-01-01") { count } }`,
      `mutation { rotateWebhookSecret(id: "${created.id}") { secret } }`,
      '{ webhook(id: "whk_nope") { id } }',
      'mutation { rotateWebhookSecret(id: "whk_nope") { secret } }',
    ];
    for (const op of operations) {
      const member = onlyError(await api.graphql(op, undefined, { token: grace }), 'FORBIDDEN', 'Forbidden');
      expect(member.extensions.status).toBe(403);
      onlyError(await api.graphql(op), 'UNAUTHENTICATED', 'Missing or invalid token');
    }
    expect((await api.get(`/api/v1/webhooks/${created.id}`, { token: ada })).body.enabled).toBe(true);
    expect((await api.get('/api/v1/webhooks', { token: ada })).body.items).toHaveLength(count);
    expect((await api.get(`/api/v1/webhooks/${created.id}/deliveries`, { token: ada })).body.items).toHaveLength(1);
  });
});
