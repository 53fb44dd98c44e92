// Idempotency-Key over real HTTP (CONTRACT.md "Retries, conditional requests and connections"):
// the same request with the same key gets the first response back byte for byte and changes
// nothing; another request with the key is 422, one while the first runs 409; keys are per caller;
// a failure frees its key; a response that showed a secret is never replayed; GraphQL mutations too.
import pg from 'pg';
import { describe, expect } from 'vitest';
import { expectError } from './support/assert.js';
import { settledEvents } from './support/events-settled.js';
import { serverTest } from './support/fixtures.js';
import type { Reply } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { sql } from './support/server.js';

let counter = 0;
/** A key no other test uses. */
const newKey = () => `key-${process.pid}-${Date.now()}-${++counter}`;
const keyed = (token: string, key: string, headers: Record<string, string> = {}) => ({ token, headers: { 'idempotency-key': key, ...headers } });

/** The first response again, byte for byte, marked as a replay. */
function expectReplay(first: Reply, again: Reply): void {
  expect(again.status, again.text).toBe(first.status);
  expect(again.text).toBe(first.text);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(first.headers.get('idempotent-replayed')).toBeNull();
}

const it = serverTest({ kind: 'postgres', env: NO_RATE_LIMITS })
  .extend('countEvents', { scope: 'file' }, ({ api, ada }) => settledEvents(api, () => ada))
  .extend('lessonCount', { scope: 'file' }, ({ server }) => async () =>
    Number((await sql<{ n: string }>(server, 'SELECT count(*) AS n FROM "Lesson"'))[0]!.n))
  /** The events of `type` naming the lesson, as GET /api/v1/events shows them to an ADMIN. */
  .extend('eventsOf', { scope: 'file' }, ({ countEvents }) => (type: string, lessonId: string) => countEvents(type, 'lessonId', lessonId))
  .extend('eventsOfUser', { scope: 'file' }, ({ countEvents }) => (userId: string) => countEvents('user.updated', 'userId', userId))
  .extend('newLesson', { scope: 'file' }, ({ api, ada }) => async () => {
    const reply = await api.post('/api/v1/lessons', { title: 'Draft', body: 'Text' }, { token: ada });
    expect(reply.status, reply.text).toBe(201);
    return reply.body.id as string;
  });
const onPglite = serverTest({ kind: 'pglite', env: NO_RATE_LIMITS });

describe('Idempotency-Key on postgres', () => {

  it('replays a create byte for byte: one lesson, whatever the number of sends', async ({ api, ada, lessonCount }) => {
    const key = newKey();
    const before = await lessonCount();
    const first = await api.post('/api/v1/lessons', { title: 'Once', body: 'Only once' }, keyed(ada, key));
    expect(first.status, first.text).toBe(201);
    const again = await api.post('/api/v1/lessons', { title: 'Once', body: 'Only once' }, keyed(ada, key));
    expectReplay(first, again);
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(await lessonCount()).toBe(before + 1);
  });

  it('replays a change without a second event', async ({ api, ada, eventsOf, newLesson }) => {
    const id = await newLesson();
    const key = newKey();
    const first = await api.patch(`/api/v1/lessons?id=${id}`, { title: 'Renamed' }, keyed(ada, key));
    expect(first.status, first.text).toBe(200);
    // Changed meanwhile by someone else: the replay is still the first answer, and changes nothing back.
    expect((await api.patch(`/api/v1/lessons?id=${id}`, { title: 'Other' }, { token: ada })).status).toBe(200);
    const again = await api.patch(`/api/v1/lessons?id=${id}`, { title: 'Renamed' }, keyed(ada, key));
    expectReplay(first, again);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect((await api.get(`/api/v1/lessons?id=${id}`, { token: ada })).body.title).toBe('Other');
    expect(await eventsOf('lesson.updated', id)).toBe(2);

    const publish = newKey();
    const published = await api.post(`/api/v1/lessons/publish?id=${id}`, undefined, keyed(ada, publish));
    expect(published.status, published.text).toBe(200);
    expectReplay(published, await api.post(`/api/v1/lessons/publish?id=${id}`, undefined, keyed(ada, publish)));
    expect(await eventsOf('lesson.published', id)).toBe(1);
  });

  it('replays a 204 (DELETE) as a 204', async ({ api, grace }) => {
    const created = await api.post('/api/v1/api-keys', { name: 'to revoke' }, { token: grace });
    const key = newKey();
    const first = await api.delete(`/api/v1/api-keys/${created.body.id}`, keyed(grace, key));
    expect(first.status).toBe(204);
    const again = await api.delete(`/api/v1/api-keys/${created.body.id}`, keyed(grace, key));
    expect(again.status).toBe(204);
    expect(again.text).toBe('');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    // Without the key it is what it is: gone.
    expectError(await api.delete(`/api/v1/api-keys/${created.body.id}`, { token: grace }), 404);
  });

  it('refuses the key with another body, path or method (422), and changes nothing', async ({ api, ada, lessonCount, eventsOf, newLesson }) => {
    const id = await newLesson();
    const key = newKey();
    expect((await api.patch(`/api/v1/lessons?id=${id}`, { title: 'First' }, keyed(ada, key))).status).toBe(200);
    const before = await lessonCount();
    const reused = /Idempotency-Key was used for another request/;
    expectError(await api.patch(`/api/v1/lessons?id=${id}`, { title: 'Second' }, keyed(ada, key)), 422, reused);
    expectError(await api.patch(`/api/v1/lessons?id=${id}&x=1`, { title: 'First' }, keyed(ada, key)), 422, reused);
    expectError(await api.post('/api/v1/lessons', { title: 'First', body: 'b' }, keyed(ada, key)), 422, reused);
    // The same JSON spelt otherwise is another body.
    expectError(await api.patch(`/api/v1/lessons?id=${id}`, '{ "title": "First" }', keyed(ada, key)), 422, reused);
    expect(await lessonCount()).toBe(before);
    expect((await api.get(`/api/v1/lessons?id=${id}`, { token: ada })).body.title).toBe('First');
    expect(await eventsOf('lesson.updated', id)).toBe(1);
  });

  it('answers 409 while the first request with the key is still running (a real concurrent duplicate)', async ({ server, api, ada, eventsOf, newLesson }) => {
    const id = await newLesson();
    const key = newKey();
    // Hold the lesson's row: the first PATCH waits inside its transaction, its key claimed.
    const blocker = new pg.Client({ connectionString: server.databaseUrl });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT id FROM "Lesson" WHERE id = $1 FOR UPDATE', [id]);
      const first = api.patch(`/api/v1/lessons?id=${id}`, { title: 'Slow' }, keyed(ada, key));
      // Until the first has claimed the key, a duplicate would claim it itself (and wait too).
      for (let i = 0; i < 200; i++) {
        const rows = await sql<{ state: string }>(server, 'SELECT state FROM "IdempotencyKey" WHERE key = $1', [key]);
        if (rows.length) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const duplicate = await api.patch(`/api/v1/lessons?id=${id}`, { title: 'Slow' }, keyed(ada, key));
      expectError(duplicate, 409, /first request with this Idempotency-Key is still in progress/);
      await blocker.query('COMMIT');
      const done = await first;
      expect(done.status, done.text).toBe(200);
      expectReplay(done, await api.patch(`/api/v1/lessons?id=${id}`, { title: 'Slow' }, keyed(ada, key)));
      expect(await eventsOf('lesson.updated', id)).toBe(1);
    } finally {
      await blocker.end();
    }
  });

  it('takes over a claim abandoned by a crashed process once its lease has passed, not before', async ({ server, api, grace }) => {
    const me = (await api.get('/api/v1/user/me', { token: grace })).body as { id: string };
    const body = JSON.stringify({ name: 'Grace Hopper' });
    const { createHash } = await import('node:crypto');
    const fingerprint = createHash('sha256').update(body).digest('hex');
    const running = async (key: string, age: string) =>
      sql(server, `INSERT INTO "IdempotencyKey" ("userId", key, method, path, fingerprint, state, claim, "claimedAt", "createdAt")
                   VALUES ($1, $2, 'PATCH', '/api/v1/user/me', $3, 'RUNNING', 'crashed', now() - $4::interval, now() - $4::interval)`, [me.id, key, fingerprint, age]);
    const fresh = newKey();
    await running(fresh, '5 seconds');
    expectError(await api.patch('/api/v1/user/me', body, keyed(grace, fresh)), 409);
    const abandoned = newKey();
    await running(abandoned, '2 minutes');
    const taken = await api.patch('/api/v1/user/me', body, keyed(grace, abandoned));
    expect(taken.status, taken.text).toBe(200);
    expectReplay(taken, await api.patch('/api/v1/user/me', body, keyed(grace, abandoned)));
  });

  it('never stores a response that showed a secret: the key again is 409', async ({ server, api, ada, grace }) => {
    const shownOnce = /showed a secret, which is shown only once/;
    const key = newKey();
    const created = await api.post('/api/v1/api-keys', { name: 'ci' }, keyed(grace, key));
    expect(created.status, created.text).toBe(201);
    expectError(await api.post('/api/v1/api-keys', { name: 'ci' }, keyed(grace, key)), 409, shownOnce);
    const stored = await sql<{ body: string | null; state: string }>(server, 'SELECT body, state FROM "IdempotencyKey" WHERE key = $1', [key]);
    expect(stored).toEqual([{ body: null, state: 'SECRET_SHOWN' }]);

    const hookKey = newKey();
    const hook = await api.post('/api/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['lesson.published'] }, keyed(ada, hookKey));
    expect(hook.status, hook.text).toBe(201);
    expectError(await api.post('/api/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['lesson.published'] }, keyed(ada, hookKey)), 409, shownOnce);
    const rotateKey = newKey();
    const rotated = await api.post(`/api/v1/webhooks/${hook.body.id}/rotate-secret`, undefined, keyed(ada, rotateKey));
    expect(rotated.status, rotated.text).toBe(200);
    expectError(await api.post(`/api/v1/webhooks/${hook.body.id}/rotate-secret`, undefined, keyed(ada, rotateKey)), 409, shownOnce);
    expect((await api.get('/api/v1/webhooks', { token: ada })).body.items.filter((w: { id: string }) => w.id === hook.body.id)).toHaveLength(1);
  });

  it('refuses a malformed key with 400 naming the header, changing nothing', async ({ api, ada, lessonCount }) => {
    const before = await lessonCount();
    for (const bad of ['', 'x'.repeat(256), 'tab\there', 'caf\u00e9']) {
      const reply = await api.post('/api/v1/lessons', { title: 'Bad key', body: 'b' }, keyed(ada, bad));
      expectError(reply, 400, /^Idempotency-Key: /, 'Idempotency-Key');
    }
    expect(await lessonCount()).toBe(before);
    // 255 printable characters, spaces inside included, are a key.
    const longest = `a b${'~'.repeat(252)}`;
    expect((await api.post('/api/v1/lessons', { title: 'Longest key', body: 'b' }, keyed(ada, longest))).status).toBe(201);
    expect((await api.post('/api/v1/lessons', { title: 'Longest key', body: 'b' }, keyed(ada, longest))).headers.get('idempotent-replayed')).toBe('true');
  });

  it('keeps keys per caller: another user runs with the same key; the same user by API key replays', async ({ api, ada, grace }) => {
    const key = newKey();
    const byAda = await api.patch('/api/v1/user/me', { name: 'Ada Lovelace' }, keyed(ada, key));
    const byGrace = await api.patch('/api/v1/user/me', { name: 'Ada Lovelace' }, keyed(grace, key));
    expect(byAda.status).toBe(200);
    expect(byGrace.status).toBe(200);
    expect(byGrace.headers.get('idempotent-replayed')).toBeNull();
    expect(byGrace.body.id).not.toBe(byAda.body.id);
    const apiKey = (await api.post('/api/v1/api-keys', { name: 'same caller' }, { token: ada })).body.key as string;
    const again = await api.request('PATCH', '/api/v1/user/me', { body: { name: 'Ada Lovelace' }, headers: { 'x-api-key': apiKey, 'idempotency-key': key } });
    expectReplay(byAda, again);
  });

  it('frees the key of a request that failed, for a retry', async ({ api, ada, eventsOf, newLesson }) => {
    const key = newKey();
    expectError(await api.patch('/api/v1/lessons?id=les_00000000000000000000000000', { title: 'x' }, keyed(ada, key)), 404);
    expectError(await api.patch('/api/v1/lessons?id=les_00000000000000000000000000', { title: 'x' }, keyed(ada, key)), 404);

    const id = await newLesson();
    const retried = newKey();
    const stale = await api.patch(`/api/v1/lessons?id=${id}`, { title: 'Retried' }, keyed(ada, retried, { 'if-match': '"stale"' }));
    expectError(stale, 412, 'Precondition failed');
    const etag = (await api.get(`/api/v1/lessons?id=${id}`, { token: ada })).headers.get('etag')!;
    const retry = await api.patch(`/api/v1/lessons?id=${id}`, { title: 'Retried' }, keyed(ada, retried, { 'if-match': etag }));
    expect(retry.status, retry.text).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await eventsOf('lesson.updated', id)).toBe(1);
  });

  it('forgets a key after 24 hours: the same request runs again', async ({ server, api, ada, eventsOf, newLesson }) => {
    const id = await newLesson();
    const key = newKey();
    const first = await api.patch(`/api/v1/lessons?id=${id}`, { summary: 'Day one' }, keyed(ada, key));
    expect(first.status).toBe(200);
    await sql(server, `UPDATE "IdempotencyKey" SET "createdAt" = now() - interval '24 hours 1 second' WHERE key = $1`, [key]);
    const later = await api.patch(`/api/v1/lessons?id=${id}`, { summary: 'Day one' }, keyed(ada, key));
    expect(later.status).toBe(200);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(await eventsOf('lesson.updated', id)).toBe(2);
    // Stored anew: replayed from now on.
    expectReplay(later, await api.patch(`/api/v1/lessons?id=${id}`, { summary: 'Day one' }, keyed(ada, key)));
  });

  it('is not offered on /api/auth/*: a login with a key signs in afresh each time', async ({ server, api }) => {
    const key = newKey();
    const body = { email: 'grace@example.com', password: 'hopper-1906' };
    const first = await api.post('/api/auth/login', body, { headers: { 'idempotency-key': key } });
    const again = await api.post('/api/auth/login', body, { headers: { 'idempotency-key': key } });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.token).not.toBe(first.body.token);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await sql(server, 'SELECT 1 FROM "IdempotencyKey" WHERE key = $1', [key])).toEqual([]);
  });

  describe('GraphQL mutations', () => {
    const UPDATE_ME = 'mutation ($name: String!) { updateMe(name: $name) { id name } }';

    it('replays a mutation byte for byte, with one event', async ({ api, grace, eventsOfUser }) => {
      const key = newKey();
      const me = (await api.get('/api/v1/user/me', { token: grace })).body as { id: string };
      const before = await eventsOfUser(me.id);
      const first = await api.graphql(UPDATE_ME, { name: 'Grace B. Hopper' }, keyed(grace, key));
      expect(first.status, first.text).toBe(200);
      expect(first.body.data.updateMe.name).toBe('Grace B. Hopper');
      expectReplay(first, await api.graphql(UPDATE_ME, { name: 'Grace B. Hopper' }, keyed(grace, key)));
      expect(await eventsOfUser(me.id)).toBe(before + 1);
      // Another mutation with the key: 422 as a GraphQL error.
      const other = await api.graphql(UPDATE_ME, { name: 'Someone else' }, keyed(grace, key));
      expect(other.status).toBe(422);
      expect(other.body.errors[0].extensions.code).toBe('IDEMPOTENCY_KEY_REUSED');
    });

    it('stores no result with errors, runs a query with a key, and refuses a bad key', async ({ api, ada, newLesson }) => {
      const id = await newLesson();
      expect((await api.post(`/api/v1/lessons/publish?id=${id}`, undefined, { token: ada })).status).toBe(200);
      const key = newKey();
      const publish = `mutation { publishLesson(id: "${id}") { id } }`;
      for (let i = 0; i < 2; i++) {
        const reply = await api.graphql(publish, undefined, keyed(ada, key));
        expect(reply.body.errors[0].extensions.code).toBe('CONFLICT');
        expect(reply.headers.get('idempotent-replayed')).toBeNull();
      }
      const query = await api.graphql('{ me { id } }', undefined, keyed(ada, key));
      expect(query.status).toBe(200);
      expect(query.body.data.me.id).toEqual(expect.any(String));
      const bad = await api.graphql(UPDATE_ME, { name: 'x' }, keyed(ada, ''));
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0].message).toMatch(/^Idempotency-Key: /);
    });

    it('never stores a secret a mutation showed', async ({ api, grace }) => {
      const key = newKey();
      const create = 'mutation { createApiKey(name: "gql") { key } }';
      const first = await api.graphql(create, undefined, keyed(grace, key));
      expect(first.status, first.text).toBe(200);
      expect(first.body.data.createApiKey.key).toMatch(/^lp_/);
      const again = await api.graphql(create, undefined, keyed(grace, key));
      expect(again.status).toBe(409);
      expect(again.body.errors[0].message).toMatch(/shown only once/);
    });
  });
});

describe('Idempotency-Key on pglite', () => {
  onPglite('replays, refuses another request and keeps no secret, as on PostgreSQL', async ({ api }) => {
    const { token } = await api.loginAs('ada');
    const key = newKey();
    const first = await api.post('/api/v1/lessons', { title: 'Embedded', body: 'b' }, keyed(token, key));
    expect(first.status, first.text).toBe(201);
    expectReplay(first, await api.post('/api/v1/lessons', { title: 'Embedded', body: 'b' }, keyed(token, key)));
    expectError(await api.post('/api/v1/lessons', { title: 'Other', body: 'b' }, keyed(token, key)), 422);
    const secret = newKey();
    expect((await api.post('/api/v1/api-keys', { name: 'k' }, keyed(token, secret))).status).toBe(201);
    expectError(await api.post('/api/v1/api-keys', { name: 'k' }, keyed(token, secret)), 409);
  });
});
