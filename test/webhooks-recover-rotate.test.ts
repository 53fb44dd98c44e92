// Recover (bulk retry of FAILED deliveries) and secret rotation over real HTTP: endpoints made
// through the admin API, real receivers on 127.0.0.1, deliveries sent by the real worker and read
// back from the API (and, on PostgreSQL, from the database). Signatures are checked at the
// receiver with `standardwebhooks`, as a receiver would. Then both across a restart.
import { Webhook } from 'standardwebhooks';
import { describe, expect } from 'vitest';
import { expectError } from './support/assert.js';
import { serverTest, serverTestOn, startForDescribe } from './support/fixtures.js';
import { client, type Client } from './support/http.js';
import { DATABASES, sql, type TestServer } from './support/server.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { startReceiver as startHookReceiver, type Delivery, type Hit, type Receiver as HookReceiver } from './support/receiver.js';
import { waitFor } from './support/wait.js';

/** One retry 100 ms after the first attempt: a delivery to a failing receiver is FAILED quickly. */
const ENV = { ...NO_RATE_LIMITS, WEBHOOK_RETRY_SCHEDULE: '100ms', WEBHOOK_TIMEOUT_MS: '2000' };
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const DAY_MS = 24 * 3_600_000;

/** The shared receiver, answering with a status a test can change, and finding one event's hits. */
interface Receiver extends HookReceiver {
  /** The status the receiver answers with; change it at any time. */
  status: number;
  /** Hits for one event (`webhook-id`). */
  hitsOf(eventId: string): Hit[];
}

async function startReceiver(status = 200): Promise<Receiver> {
  const receiver: Receiver = {
    ...(await startHookReceiver(() => receiver.status)),
    status,
    hitsOf: (eventId) => receiver.hits.filter((h) => h.headers['webhook-id'] === eventId),
  };
  return receiver;
}

/** Does `secret` verify this delivery, as a receiver checks it (standardwebhooks)? */
function verifies(secret: string, hit: Hit): boolean {
  try {
    new Webhook(secret).verify(hit.body, hit.headers);
    return true;
  } catch {
    return false;
  }
}

/** The admin API calls these tests make, as ADMIN. */
function adminApi(api: Client, token: string) {
  const W = '/api/v1/webhooks';
  return {
    async endpoint(url: string): Promise<{ id: string; secret: string }> {
      const created = await api.post(W, { url, events: ['lesson.published'] }, { token });
      expect(created.status, created.text).toBe(201);
      return created.body as { id: string; secret: string };
    },
    async ping(id: string): Promise<Delivery> {
      const reply = await api.post(`${W}/${id}/test`, undefined, { token });
      expect(reply.status, reply.text).toBe(202);
      return reply.body as Delivery;
    },
    async delivery(id: string, deliveryId: string): Promise<Delivery> {
      const reply = await api.get(`${W}/${id}/deliveries?limit=100`, { token });
      expect(reply.status, reply.text).toBe(200);
      const found = (reply.body.items as Delivery[]).find((d) => d.id === deliveryId);
      expect(found, `delivery ${deliveryId}`).toBeDefined();
      return found!;
    },
    /** Waits until the delivery is `status` (and not leased mid-attempt: its last attempt is recorded). */
    async settled(id: string, deliveryId: string, status: Delivery['status'], attempts: number): Promise<Delivery> {
      return waitFor(`${deliveryId} ${status} after ${attempts} attempts`, async () => {
        const d = await this.delivery(id, deliveryId);
        return d.status === status && d.attempts.length === attempts ? d : undefined;
      });
    },
    recover: (id: string, body: unknown) => api.post(`${W}/${id}/recover`, body, { token }),
    rotate: (id: string) => api.post(`${W}/${id}/rotate-secret`, undefined, { token }),
    get: (id: string) => api.get(`${W}/${id}`, { token }),
  };
}

const overRest = serverTestOn({ env: ENV });
const overGraphQL = serverTest({ env: ENV });
const acrossRestart = serverTestOn({ env: ENV }, { per: 'describe' });

describe.each(DATABASES)('recover and rotate-secret on %s', (kind) => {
  const it = overRest[kind];
  // The fixture's server, client and tokens, for the helpers and tests below.
  let server: TestServer;
  let api: Client;
  let ada: string;
  let grace: string;
  let admin: ReturnType<typeof adminApi>;
  const receivers: Receiver[] = [];

  it.beforeAll(({ server: started, api: itsClient, ada: adaToken, grace: graceToken }) => {
    [server, api, ada, grace] = [started, itsClient, adaToken, graceToken];
    admin = adminApi(api, ada);
  });
  it.afterAll(async () => {
    for (const r of receivers) await r.close();
  });

  async function receiver(status = 200): Promise<Receiver> {
    const r = await startReceiver(status);
    receivers.push(r);
    return r;
  }

  it('recover gives every FAILED delivery of the endpoint created since `since` one more attempt, and nothing else', async () => {
    const rx = await receiver(500);
    const hook = await admin.endpoint(rx.url);
    const other = await admin.endpoint(rx.url);
    // A, then B and C: FAILED after the two attempts the schedule allows. Each is created once
    // the one before it has failed, so their createdAt are strictly ordered.
    const a = await admin.ping(hook.id);
    await admin.settled(hook.id, a.id, 'FAILED', 2);
    const b = await admin.ping(hook.id);
    await admin.settled(hook.id, b.id, 'FAILED', 2);
    const c = await admin.ping(hook.id);
    const elsewhere = await admin.ping(other.id);
    await admin.settled(hook.id, c.id, 'FAILED', 2);
    await admin.settled(other.id, elsewhere.id, 'FAILED', 2);
    expect(a.createdAt < b.createdAt && b.createdAt < c.createdAt).toBe(true);
    // D succeeded: it is not FAILED.
    rx.status = 200;
    const d = await admin.ping(hook.id);
    await admin.settled(hook.id, d.id, 'SUCCEEDED', 1);
    expect(rx.hitsOf(b.eventId)).toHaveLength(2);

    // `since` is inclusive: B's own createdAt recovers B and C, not A, not D, not the other endpoint's.
    const recovered = await admin.recover(hook.id, { since: b.createdAt });
    expect(recovered.status, recovered.text).toBe(202);
    expect(recovered.headers.get('content-type')).toMatch(/^application\/json/);
    expect(recovered.body).toEqual({ count: 2 });
    for (const x of [b, c]) {
      const done = await admin.settled(hook.id, x.id, 'SUCCEEDED', 3);
      expect(done.attempts.map((t) => t.statusCode)).toEqual([500, 500, 200]);
      // The same event: the receiver can de-duplicate on webhook-id.
      expect(rx.hitsOf(x.eventId).map((h) => h.headers['webhook-id'])).toEqual([x.eventId, x.eventId, x.eventId]);
      expect(verifies(hook.secret, rx.hitsOf(x.eventId)[2]!)).toBe(true);
    }
    expect(await admin.delivery(hook.id, a.id)).toMatchObject({ status: 'FAILED', nextAttemptAt: null });
    expect((await admin.delivery(hook.id, a.id)).attempts).toHaveLength(2);
    expect((await admin.delivery(hook.id, d.id)).attempts).toHaveLength(1);
    expect(await admin.delivery(other.id, elsewhere.id)).toMatchObject({ status: 'FAILED' });
    expect(rx.hitsOf(d.eventId)).toHaveLength(1);
    expect(rx.hitsOf(elsewhere.eventId)).toHaveLength(2);

    // Nothing is FAILED since B any more; a date (midnight UTC) long ago reaches A too.
    expect((await admin.recover(hook.id, { since: b.createdAt })).body).toEqual({ count: 0 });
    const longAgo = await admin.recover(hook.id, { since: '2000-01-01' });
    expect(longAgo.status).toBe(202);
    expect(longAgo.body).toEqual({ count: 1 });
    await admin.settled(hook.id, a.id, 'SUCCEEDED', 3);
    // Now, to the millisecond, is not the future.
    expect((await admin.recover(hook.id, { since: new Date().toISOString() })).body).toEqual({ count: 0 });
  });

  it('recover refuses bad input with a 400 naming the field, unknown or impossible ids with a 404, others with a 403; nothing changes', async () => {
    const rx = await receiver(500);
    const hook = await admin.endpoint(rx.url);
    const failed = await admin.ping(hook.id);
    await admin.settled(hook.id, failed.id, 'FAILED', 2);
    // Were any of the requests below to recover it, it would be attempted again and succeed.
    rx.status = 200;
    const recover = (body: unknown) => admin.recover(hook.id, body);
    const DATE = /^since: must be an ISO 8601 date \(YYYY-MM-DD\) or UTC date-time/;
    expectError(await recover({}), 400, 'since: is required', 'since');
    expectError(await recover(undefined), 400, 'since: is required', 'since');
    for (const since of [null, 42, true, [], {}, ['2026-01-01'], { $gte: '2026-01-01' }]) {
      expectError(await recover({ since }), 400, /^since: /, 'since');
    }
    for (const since of [
      '', 'yesterday', '2026-13-01', '2026-02-30', '2026-01-01T00:00:00', '2026-01-01T00:00:00+02:00', '1767225600000',
      `2026-01-01${'0'.repeat(100_000)}`, 'x'.repeat(500_000), '2026-01-01 ',
    ]) {
      expectError(await recover({ since }), 400, DATE, 'since');
    }
    const tomorrow = new Date(Date.now() + DAY_MS).toISOString();
    expectError(await recover({ since: tomorrow }), 400, 'since: must not be in the future', 'since');
    expectError(await recover({ since: '9999-12-31' }), 400, 'since: must not be in the future', 'since');
    expectError(await recover({ since: '2026-01-01', status: 'FAILED' }), 400, 'status: unknown field', 'status');
    expectError(await recover({ since: '2026-01-01', 'a\u0000b': 1 }), 400, 'a\u0000b: must not contain NUL characters', 'a\u0000b');
    // NUL anywhere in a body is refused by the one input rule (src/input.ts) before the schema.
    for (const since of ['2026-01-01\u0000', '\u00002026-01-01']) {
      expectError(await recover({ since }), 400, 'since: must not contain NUL characters', 'since');
    }
    expectError(await recover([]), 400, undefined, 'body');
    expectError(await recover('{"since":'), 400, 'body: must be valid JSON', 'body');
    expectError(await recover('"2026-01-01"'), 400, undefined, 'body');

    const at = (id: string) => api.post(`/api/v1/webhooks/${id}/recover`, { since: '2026-01-01' }, { token: ada });
    expectError(await at('whk_nope'), 404, 'Webhook whk_nope not found');
    expectError(await at(failed.id), 404, `Webhook ${failed.id} not found`);
    // Ids no webhook can have are not looked up, nor echoed: NUL (PostgreSQL text cannot hold it),
    // other control characters, a huge id; percent-encoded as a client would send them.
    for (const id of ['%00', `${hook.id}%00`, 'whk_%0A', 'whk_%1B%5B31m', `whk_${'a'.repeat(4000)}`]) {
      expectError(await at(id), 404, 'Webhook not found');
    }
    expectError(await api.post(`/api/v1/webhooks/${hook.id}/recover`, { since: '2026-01-01' }, { token: grace }), 403, 'Forbidden');
    expectError(await api.post(`/api/v1/webhooks/${hook.id}/recover`, { since: '2026-01-01' }), 403, 'Missing or invalid token');

    // Still FAILED, with its two attempts, and the receiver heard nothing more.
    const after = await admin.delivery(hook.id, failed.id);
    expect(after).toMatchObject({ status: 'FAILED', nextAttemptAt: null });
    expect(after.attempts).toHaveLength(2);
    expect(rx.hitsOf(failed.eventId)).toHaveLength(2);
    // The same request, well formed, does recover it.
    expect((await recover({ since: '2026-01-01' })).body).toEqual({ count: 1 });
    await admin.settled(hook.id, failed.id, 'SUCCEEDED', 3);
  });

  it('recover reads since as every date bound: before year 1 means every FAILED delivery (year 0000 was a 500), digits past the millisecond count', async () => {
    const rx = await receiver(500);
    const hooks = [await admin.endpoint(rx.url), await admin.endpoint(rx.url)] as const;
    const pings = [await admin.ping(hooks[0].id), await admin.ping(hooks[1].id)] as const;
    for (const [i, hook] of hooks.entries()) await admin.settled(hook.id, pings[i]!.id, 'FAILED', 2);
    const [hook, a] = [hooks[0], pings[0]];
    // One digit past A's millisecond is after A: nothing to recover (it was read as A's millisecond).
    for (const since of [a.createdAt.replace('Z', '1Z'), a.createdAt.replace('Z', '0000001Z')]) {
      const none = await admin.recover(hook.id, { since });
      expect(none.status, none.text).toBe(202);
      expect(none.body, since).toEqual({ count: 0 });
    }
    // Signed years are no date of this API.
    for (const since of ['-000001-01-01T00:00:00Z', '-271821-04-20T00:00:00Z']) {
      expectError(await admin.recover(hook.id, { since }), 400, 'since: must be an ISO 8601 date (YYYY-MM-DD) or UTC date-time (…Z)', 'since');
    }
    expect(rx.hitsOf(a.eventId)).toHaveLength(2);
    rx.status = 200;
    for (const [i, since] of ['0000-01-01', '0000-06-30T12:00:00.000Z'].entries()) {
      const all = await admin.recover(hooks[i]!.id, { since });
      expect(all.status, all.text).toBe(202);
      expect(all.body, since).toEqual({ count: 1 });
      await admin.settled(hooks[i]!.id, pings[i]!.id, 'SUCCEEDED', 3);
    }
    expect((await admin.recover(hook.id, { since: '0001-01-01' })).body).toEqual({ count: 0 });
  });

  it('refuses a deliveries cursor holding a time no delivery can have (before year 1: it was a 500) with 400 naming cursor', async () => {
    const hook = await admin.endpoint('http://127.0.0.1:9/hook');
    const ping = await admin.ping(hook.id);
    for (const time of ['0000-01-01T00:00:00.000Z', '-000001-01-01T00:00:00.000Z', '-271821-04-20T00:00:00.000Z']) {
      for (const id of [ping.id, 'dlv_01m88nfnwa8vz9tqzjvmy3fe2f']) {
        const cursor = Buffer.from(JSON.stringify([time, id])).toString('base64url');
        expectError(await api.get(`/api/v1/webhooks/${hook.id}/deliveries?cursor=${cursor}`, { token: ada }), 400,
          'query.cursor: is not a valid cursor', 'query.cursor');
      }
    }
    const first = Buffer.from(JSON.stringify(['0001-01-01T00:00:00.000Z', ping.id])).toString('base64url');
    expect((await api.get(`/api/v1/webhooks/${hook.id}/deliveries?cursor=${first}`, { token: ada })).body).toEqual({ items: [], nextCursor: null });
  });

  it('rotate-secret answers 200 {secret}: a new whsec_ each time, never shown by GET or the list', async () => {
    const hook = await admin.endpoint('http://127.0.0.1:9/hook');
    const before = (await admin.get(hook.id)).body as { updatedAt: string };
    const rotated = await admin.rotate(hook.id);
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(rotated.body as object)).toEqual(['secret']);
    const secret = rotated.body.secret as string;
    expect(secret).toMatch(SECRET);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(secret).not.toBe(hook.secret);
    const again = (await admin.rotate(hook.id)).body.secret as string;
    expect(again).toMatch(SECRET);
    expect(new Set([hook.secret, secret, again]).size).toBe(3);

    const one = await admin.get(hook.id);
    expect(one.body.updatedAt > before.updatedAt).toBe(true);
    const list = await api.get('/api/v1/webhooks', { token: ada });
    for (const text of [one.text, list.text]) expect(text).not.toMatch(/whsec_|secret/i);

    if (kind === 'postgres') {
      const row = async () =>
        (await sql<{ secret: string; previousSecret: string | null; expiresInMs: number }>(server,
          `SELECT secret, "previousSecret", (extract(epoch FROM "previousSecretExpiresAt" - now()) * 1000)::float8 AS "expiresInMs"
             FROM "WebhookEndpoint" WHERE id = $1`, [hook.id]))[0]!;
      // Rotating within the 24 h replaced the first previous secret with the one the first rotation made.
      const stored = await row();
      expect(stored).toMatchObject({ secret: again, previousSecret: secret });
      expect(stored.expiresInMs).toBeGreaterThan(DAY_MS - 60_000);
      expect(stored.expiresInMs).toBeLessThanOrEqual(DAY_MS);

      // A MEMBER, no token, an unknown or impossible id: nothing rotates.
      expectError(await api.post(`/api/v1/webhooks/${hook.id}/rotate-secret`, undefined, { token: grace }), 403, 'Forbidden');
      expectError(await api.post(`/api/v1/webhooks/${hook.id}/rotate-secret`), 403, 'Missing or invalid token');
      expect(await row()).toMatchObject({ secret: again, previousSecret: secret });
    }
    expectError(await admin.rotate('whk_nope'), 404, 'Webhook whk_nope not found');
    for (const id of ['%00', `${hook.id}%00`, `whk_${'a'.repeat(4000)}`]) expectError(await admin.rotate(id), 404, 'Webhook not found');
    // A delivery id is not a webhook id.
    expectError(await admin.rotate((await admin.ping(hook.id)).id), 404, /^Webhook dlv_\w+ not found$/);
  });

  // Needs the dispatcher's dual signing (webhook-signature: v1,<new> v1,<old> while the previous
  // secret has not expired).
  it('after a rotation, deliveries verify with the new and with the previous secret (new first); after expiry only with the new', async () => {
    const rx = await receiver(200);
    const hook = await admin.endpoint(rx.url);
    const rotated = (await admin.rotate(hook.id)).body.secret as string;
    const ping = await admin.ping(hook.id);
    await admin.settled(hook.id, ping.id, 'SUCCEEDED', 1);
    const [hit] = rx.hitsOf(ping.eventId) as [Hit];
    const signatures = hit.headers['webhook-signature']!.split(' ');
    expect(signatures).toHaveLength(2);
    expect(signatures.every((s) => s.startsWith('v1,'))).toBe(true);
    expect(verifies(rotated, hit)).toBe(true);
    expect(verifies(hook.secret, hit)).toBe(true);
    // New first: the first signature alone is the new secret's.
    expect(verifies(rotated, { ...hit, headers: { ...hit.headers, 'webhook-signature': signatures[0]! } })).toBe(true);
    expect(verifies(hook.secret, { ...hit, headers: { ...hit.headers, 'webhook-signature': signatures[0]! } })).toBe(false);
    // Neither signature is a wildcard: a secret never issued verifies nothing.
    expect(verifies(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, hit)).toBe(false);

    if (kind === 'postgres') {
      // The previous secret's 24 hours are over.
      await sql(server, `UPDATE "WebhookEndpoint" SET "previousSecretExpiresAt" = now() - interval '1 second' WHERE id = $1`, [hook.id]);
      const later = await admin.ping(hook.id);
      await admin.settled(hook.id, later.id, 'SUCCEEDED', 1);
      const [expired] = rx.hitsOf(later.eventId) as [Hit];
      expect(expired.headers['webhook-signature']!.split(' ')).toHaveLength(1);
      expect(verifies(rotated, expired)).toBe(true);
      expect(verifies(hook.secret, expired)).toBe(false);
    }
  });

  // Needs the dispatcher's health record (lastSuccessAt, failingSince).
  it('GET shows the worker\'s health record: failingSince while failing, lastSuccessAt and failingSince null after a success', async () => {
    const rx = await receiver(500);
    const hook = await admin.endpoint(rx.url);
    const failing = await admin.ping(hook.id);
    await admin.settled(hook.id, failing.id, 'FAILED', 2);
    const down = (await admin.get(hook.id)).body as { lastSuccessAt: string | null; failingSince: string | null };
    expect(down.lastSuccessAt).toBeNull();
    expect(down.failingSince).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    rx.status = 200;
    expect((await admin.recover(hook.id, { since: failing.createdAt })).body).toEqual({ count: 1 });
    await admin.settled(hook.id, failing.id, 'SUCCEEDED', 3);
    const up = await waitFor('the success recorded', async () => {
      const e = (await admin.get(hook.id)).body as { lastSuccessAt: string | null; failingSince: string | null };
      return e.lastSuccessAt ? e : undefined;
    });
    expect(up.failingSince).toBeNull();
    expect(up.lastSuccessAt! >= down.failingSince!).toBe(true);
  });
});

describe('recoverWebhook and rotateWebhookSecret over GraphQL', () => {
  const it = overGraphQL;
  // The fixture's client and tokens, and a receiver, for the helpers and tests below.
  let api: Client;
  let ada: string;
  let grace: string;
  let admin: ReturnType<typeof adminApi>;
  let rx: Receiver;

  it.beforeAll(async ({ api: itsClient, ada: adaToken, grace: graceToken }) => {
    [api, ada, grace] = [itsClient, adaToken, graceToken];
    admin = adminApi(api, ada);
    rx = await startReceiver(500);
  });
  it.afterAll(() => rx?.close());

  const RECOVER = 'mutation ($id: ID!, $since: DateTime!) { recoverWebhook(id: $id, since: $since) { count } }';
  const ROTATE = 'mutation ($id: ID!) { rotateWebhookSecret(id: $id) { secret } }';

  function onlyError(reply: { status: number; text: string; body: { errors?: { message: string; extensions: Record<string, unknown> }[] } }, code: string, message: string | RegExp) {
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.errors, reply.text).toHaveLength(1);
    const [error] = reply.body.errors!;
    expect(error!.extensions.code).toBe(code);
    expect(error!.message).toMatch(message);
    return error!;
  }

  it('recoverWebhook is REST recover: the same count, the same deliveries attempted again', async () => {
    const hook = await admin.endpoint(rx.url);
    const a = await admin.ping(hook.id);
    const b = await admin.ping(hook.id);
    await admin.settled(hook.id, a.id, 'FAILED', 2);
    await admin.settled(hook.id, b.id, 'FAILED', 2);
    rx.status = 200;
    const first = a.createdAt < b.createdAt ? a : b;
    const reply = await api.graphql(RECOVER, { id: hook.id, since: first.createdAt }, { token: ada });
    expect(reply.body, reply.text).toEqual({ data: { recoverWebhook: { count: 2 } } });
    await admin.settled(hook.id, a.id, 'SUCCEEDED', 3);
    await admin.settled(hook.id, b.id, 'SUCCEEDED', 3);
    // A date works too; and now nothing is FAILED: REST and GraphQL agree.
    expect((await api.graphql(RECOVER, { id: hook.id, since: '2026-01-01' }, { token: ada })).body.data).toEqual({ recoverWebhook: { count: 0 } });
    expect((await admin.recover(hook.id, { since: '2026-01-01' })).body).toEqual({ count: 0 });
    rx.status = 500;

    const error = onlyError(await api.graphql(RECOVER, { id: hook.id, since: new Date(Date.now() + DAY_MS).toISOString() }, { token: ada }),
      'BAD_USER_INPUT', 'since: must not be in the future');
    expect(error.extensions).toMatchObject({ status: 400, details: { field: 'since' } });
    onlyError(await api.graphql(RECOVER, { id: 'whk_nope', since: '2026-01-01' }, { token: ada }), 'NOT_FOUND', 'Webhook whk_nope not found');
    onlyError(await api.graphql(RECOVER, { id: 'whk_\u0000', since: '2026-01-01' }, { token: ada }), 'NOT_FOUND', /^Webhook not found$/);
    onlyError(await api.graphql(RECOVER, { id: 'x'.repeat(100_000), since: '2026-01-01' }, { token: ada }), 'NOT_FOUND', /^Webhook not found$/);
    onlyError(await api.graphql(RECOVER, { id: hook.id, since: '2026-01-01' }, { token: grace }), 'FORBIDDEN', 'Forbidden');
    onlyError(await api.graphql(RECOVER, { id: hook.id, since: '2026-01-01' }), 'UNAUTHENTICATED', 'Missing or invalid token');
    // Values that are not a DateTime, or not an ID, are refused before anything runs.
    for (const variables of [{ id: hook.id, since: 'yesterday' }, { id: hook.id, since: 42 }, { id: hook.id, since: null }, { id: hook.id }, { id: true, since: '2026-01-01' }, { id: ['x'], since: '2026-01-01' }]) {
      const refused = await api.graphql(RECOVER, variables, { token: ada });
      expect(refused.body.data ?? null, refused.text).toBeNull();
      expect(refused.body.errors, refused.text).toHaveLength(1);
    }
  });

  it('recoverWebhook reads since as REST does: before year 1 is every FAILED delivery (it was "Unexpected error."), digits past the millisecond count, offsets are refused', async () => {
    rx.status = 500;
    const hook = await admin.endpoint(rx.url);
    const a = await admin.ping(hook.id);
    await admin.settled(hook.id, a.id, 'FAILED', 2);
    const recover = (since: string) => api.graphql(RECOVER, { id: hook.id, since }, { token: ada });
    expect((await recover(a.createdAt.replace('Z', '1Z'))).body).toEqual({ data: { recoverWebhook: { count: 0 } } });
    for (const since of [a.createdAt.replace('Z', '+00:00'), '2026-01-01T00:00:00+02:00', '-000001-01-01T00:00:00Z']) {
      const refused = await recover(since);
      expect(refused.body.data ?? null, refused.text).toBeNull();
      onlyError(refused, 'BAD_USER_INPUT', 'DateTime: must be an ISO 8601 date or date-time in UTC (YYYY-MM-DD or …Z)');
    }
    expect(rx.hitsOf(a.eventId)).toHaveLength(2);
    rx.status = 200;
    const literal = await api.graphql(`mutation { recoverWebhook(id: "${hook.id}", since: "0000-01-01") { count } }`, undefined, { token: ada });
    expect(literal.body, literal.text).toEqual({ data: { recoverWebhook: { count: 1 } } });
    await admin.settled(hook.id, a.id, 'SUCCEEDED', 3);
    rx.status = 500;

    // A page cursor before year 1 is `after: is not a valid cursor`, as any cursor the service did not write.
    const cursor = Buffer.from(JSON.stringify(['0000-01-01T00:00:00.000Z', a.id])).toString('base64url');
    const page = await api.graphql('query ($id: ID!, $after: String) { webhookDeliveries(webhookId: $id, first: 1, after: $after) { edges { node { id } } } }',
      { id: hook.id, after: cursor }, { token: ada });
    expect(page.body.data ?? null, page.text).toBeNull();
    onlyError(page, 'BAD_USER_INPUT', 'after: is not a valid cursor');
  });

  it('rotateWebhookSecret is REST rotate-secret: a new secret, and deliveries verify with it', async () => {
    const receiver = await startReceiver(200);
    try {
      const hook = await admin.endpoint(receiver.url);
      const reply = await api.graphql(ROTATE, { id: hook.id }, { token: ada });
      expect(reply.body.errors, reply.text).toBeUndefined();
      const { secret } = reply.body.data.rotateWebhookSecret as { secret: string };
      expect(secret).toMatch(SECRET);
      expect(secret).not.toBe(hook.secret);
      const ping = await admin.ping(hook.id);
      await admin.settled(hook.id, ping.id, 'SUCCEEDED', 1);
      expect(verifies(secret, receiver.hitsOf(ping.eventId)[0]!)).toBe(true);

      onlyError(await api.graphql(ROTATE, { id: 'whk_nope' }, { token: ada }), 'NOT_FOUND', 'Webhook whk_nope not found');
      onlyError(await api.graphql(ROTATE, { id: `${hook.id}\u0000` }, { token: ada }), 'NOT_FOUND', /^Webhook not found$/);
      onlyError(await api.graphql(ROTATE, { id: hook.id }, { token: grace }), 'FORBIDDEN', 'Forbidden');
      onlyError(await api.graphql(ROTATE, { id: hook.id }), 'UNAUTHENTICATED', 'Missing or invalid token');
      // None of those rotated it: the next delivery still verifies with the secret given above.
      const next = await admin.ping(hook.id);
      await admin.settled(hook.id, next.id, 'SUCCEEDED', 1);
      // (The first signature is the current secret's, whether or not a previous one also signs.)
      const [hit] = receiver.hitsOf(next.eventId) as [Hit];
      const newest = hit.headers['webhook-signature']!.split(' ')[0]!;
      expect(verifies(secret, { ...hit, headers: { ...hit.headers, 'webhook-signature': newest } })).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});

describe.each(DATABASES)('recover and rotation across a restart on %s', (kind) => {
  // Servers of their own, running only while this describe does: the test restarts them.
  const it = acrossRestart[kind];
  let rx: Receiver;
  startForDescribe(it);
  it.beforeAll(async () => {
    rx = await startReceiver(500);
  });
  it.afterAll(() => rx?.close());

  it('a recovered delivery and a rotated secret survive a restart: the delivery goes out after it, signed with both secrets', { timeout: 180_000 }, async ({ server: started, api: itsClient, ada }) => {
    let server = started;
    let api = itsClient;
    let token = ada;
    let admin = adminApi(api, token);
    const hook = await admin.endpoint(rx.url);
    const failed = await admin.ping(hook.id);
    await admin.settled(hook.id, failed.id, 'FAILED', 2);
    // Disabled, so the worker holds the recovered delivery: it is still due when the server stops.
    expect((await api.patch(`/api/v1/webhooks/${hook.id}`, { enabled: false }, { token })).status).toBe(200);
    expect((await admin.recover(hook.id, { since: failed.createdAt })).body).toEqual({ count: 1 });
    const rotated = (await admin.rotate(hook.id)).body.secret as string;
    expect(rotated).toMatch(SECRET);
    const held = await admin.delivery(hook.id, failed.id);
    expect(held).toMatchObject({ status: 'PENDING' });
    expect(held.nextAttemptAt).not.toBeNull();

    server = await server.restart();
    api = client(server.url);
    token = (await api.loginAs('ada')).token;
    admin = adminApi(api, token);

    // Still recovered: PENDING, due, with its two attempts.
    const kept = await admin.delivery(hook.id, failed.id);
    expect(kept).toMatchObject({ status: 'PENDING', nextAttemptAt: held.nextAttemptAt });
    expect(kept.attempts).toHaveLength(2);
    expect(rx.hitsOf(failed.eventId)).toHaveLength(2);

    rx.status = 200;
    expect((await api.patch(`/api/v1/webhooks/${hook.id}`, { enabled: true }, { token })).body).toMatchObject({ enabled: true, disabledReason: null });
    const done = await admin.settled(hook.id, failed.id, 'SUCCEEDED', 3);
    expect(done.attempts.map((a) => a.statusCode)).toEqual([500, 500, 200]);
    const hits = rx.hitsOf(failed.eventId);
    expect(hits).toHaveLength(3);
    // Signed with the secret rotated in before the restart...
    expect(verifies(rotated, hits[2]!)).toBe(true);
    // ...and, within its 24 hours, with the previous one.
    expect(verifies(hook.secret, hits[2]!)).toBe(true);
  });
});
