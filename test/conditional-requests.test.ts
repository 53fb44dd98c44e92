// Conditional requests over real HTTP (CONTRACT.md "Retries, conditional requests and
// connections"): every resource read carries a strong ETag and answers If-None-Match with a 304
// that costs no rate-limit budget; writes of those resources honour If-Match (412 when stale,
// changing nothing and emitting nothing), checked race-free against what a GET shows now.
import { describe, expect } from 'vitest';
import { expectError } from './support/assert.js';
import { settledEvents } from './support/events-settled.js';
import { serverTest } from './support/fixtures.js';
import type { Reply } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';

const STRONG_TAG = /^"[A-Za-z0-9_-]{22}"$/;

const remaining = (reply: Reply) => Number(reply.headers.get('x-ratelimit-remaining'));

const it = serverTest({ kind: 'postgres', env: NO_RATE_LIMITS })
  .extend('countEvents', { scope: 'file' }, ({ api, ada }) => settledEvents(api, () => ada))
  /** The strong tag of what `token` reads at `path`. */
  .extend('tagOf', { scope: 'file' }, ({ api }) => async (path: string, token: string) => {
    const reply = await api.get(path, { token });
    expect(reply.status, reply.text).toBe(200);
    return reply.headers.get('etag')!;
  })
  .extend('newLesson', { scope: 'file' }, ({ api, ada }) => async () =>
    (await api.post('/api/v1/lessons', { title: 'Conditional', body: 'b' }, { token: ada })).body.id as string);

describe('conditional requests on postgres', () => {

  it('tags every resource read and answers If-None-Match with a 304 that costs no budget', async ({ api, ada, newLesson }) => {
    const lesson = await newLesson();
    const hook = (await api.post('/api/v1/webhooks', { url: 'http://127.0.0.1:9/h', events: ['lesson.updated'] }, { token: ada })).body.id as string;
    const apiKey = (await api.post('/api/v1/api-keys', { name: 'tagged' }, { token: ada })).body.id as string;
    const session = ((await api.get('/api/v1/sessions', { token: ada })).body.items as { id: string }[])[0]!.id;
    const reads = [
      `/api/v1/lessons?id=${lesson}`, '/api/v1/lessons', '/api/v1/lessons?limit=2', '/api/v1/user/me',
      '/api/v1/webhooks', `/api/v1/webhooks/${hook}`, `/api/v1/webhooks/${hook}/deliveries`,
      '/api/v1/api-keys', `/api/v1/api-keys/${apiKey}`, '/api/v1/sessions', `/api/v1/sessions/${session}`,
      '/api/v1/events', '/api/v1/event-types',
    ];
    for (const path of reads) {
      const first = await api.get(path, { token: ada });
      expect(first.status, `${path}: ${first.text}`).toBe(200);
      const etag = first.headers.get('etag');
      expect(etag, path).toMatch(STRONG_TAG);
      // The caller's data is never kept by a cache: the client keeps the tag.
      expect(first.headers.get('cache-control')).toBe('no-store');
      const notModified = await api.get(path, { token: ada, headers: { 'if-none-match': etag! } });
      expect(notModified.status, path).toBe(304);
      expect(notModified.text).toBe('');
      expect(notModified.headers.get('etag')).toBe(etag);
      // Still carries the limit headers, showing the budget as the 200 left it.
      expect(notModified.headers.get('ratelimit'), path).toMatch(/^"pro";r=\d+;t=\d+$/);
      expect(remaining(notModified), path).toBe(remaining(first));
      // A list of tags, or a weak one, matches too (If-None-Match compares weakly); another does not.
      expect((await api.get(path, { token: ada, headers: { 'if-none-match': `"other", W/${etag}` } })).status).toBe(304);
      const changedTag = await api.get(path, { token: ada, headers: { 'if-none-match': '"other"' } });
      expect(changedTag.status).toBe(200);
      expect(changedTag.text).toBe(first.text);
    }
  });

  it('a new version has a new tag: the old one gets the whole answer', async ({ api, ada, tagOf, newLesson }) => {
    const id = await newLesson();
    const old = await tagOf(`/api/v1/lessons?id=${id}`, ada);
    const patched = await api.patch(`/api/v1/lessons?id=${id}`, { title: 'Changed' }, { token: ada });
    // The write's answer is the new version, with the tag its GET now has.
    expect(patched.headers.get('etag')).toBe(await tagOf(`/api/v1/lessons?id=${id}`, ada));
    const reply = await api.get(`/api/v1/lessons?id=${id}`, { token: ada, headers: { 'if-none-match': old } });
    expect(reply.status).toBe(200);
    expect(reply.body.title).toBe('Changed');
  });

  it('keeps the public cached reads conditional, and their 304s free (REST and GraphQL)', async ({ api, grace }) => {
    const me = (await api.get('/api/v1/user/me', { token: grace })).body as { id: string };
    const first = await api.get(`/api/users/${me.id}`);
    expect(first.headers.get('etag')).toBeTruthy();
    const notModified = await api.get(`/api/users/${me.id}`, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(notModified.status).toBe(304);
    expect(remaining(notModified)).toBe(remaining(first));

    const url = `/graphql?${new URLSearchParams({ query: 'query ($id: ID!) { user(id: $id) { id name } }', variables: JSON.stringify({ id: me.id }) })}`;
    await api.get(url);
    const cached = await api.get(url);
    expect(cached.headers.get('etag')).toBeTruthy();
    const graphql304 = await api.get(url, { headers: { 'if-none-match': cached.headers.get('etag')! } });
    expect(graphql304.status).toBe(304);
    expect(remaining(graphql304)).toBe(remaining(cached));
  });

  it('refuses a lesson change with a stale If-Match (412): nothing changes, no event; a current one or * goes through', async ({ api, ada, tagOf, newLesson, countEvents }) => {
    const id = await newLesson();
    const path = `/api/v1/lessons?id=${id}`;
    const tag = await tagOf(path, ada);
    const before = (await api.get(path, { token: ada })).text;
    for (const stale of ['"stale"', `W/${tag}`, '"a", "b"']) {
      expectError(await api.patch(path, { title: 'Lost update' }, { token: ada, headers: { 'if-match': stale } }), 412, 'Precondition failed');
      expectError(await api.post(`/api/v1/lessons/publish?id=${id}`, undefined, { token: ada, headers: { 'if-match': stale } }), 412, 'Precondition failed');
    }
    expect((await api.get(path, { token: ada })).text).toBe(before);
    expect(await countEvents('lesson.updated', 'lessonId', id)).toBe(0);
    expect(await countEvents('lesson.published', 'lessonId', id)).toBe(0);

    const fresh = await api.patch(path, { title: 'Kept' }, { token: ada, headers: { 'if-match': `"other", ${tag}` } });
    expect(fresh.status, fresh.text).toBe(200);
    const published = await api.post(`/api/v1/lessons/publish?id=${id}`, undefined, { token: ada, headers: { 'if-match': fresh.headers.get('etag')! } });
    expect(published.status, published.text).toBe(200);
    expect((await api.patch(path, { summary: 'Any version' }, { token: ada, headers: { 'if-match': '*' } })).status).toBe(200);
    expect(await countEvents('lesson.updated', 'lessonId', id)).toBe(2);
    // `*` does not make an unknown resource exist.
    expectError(await api.patch('/api/v1/lessons?id=les_00000000000000000000000000', { title: 'x' }, { token: ada, headers: { 'if-match': '*' } }), 404);
  });

  it('checks If-Match race-free: of concurrent changes made against one version, exactly one wins', async ({ api, ada, tagOf, newLesson, countEvents }) => {
    const id = await newLesson();
    const tag = await tagOf(`/api/v1/lessons?id=${id}`, ada);
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) => api.patch(`/api/v1/lessons?id=${id}`, { title: `Writer ${i}` }, { token: ada, headers: { 'if-match': tag } })),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 412, 412, 412, 412, 412]);
    const winner = replies.find((r) => r.status === 200)!;
    expect((await api.get(`/api/v1/lessons?id=${id}`, { token: ada })).body.title).toBe(winner.body.title);
    expect(await countEvents('lesson.updated', 'lessonId', id)).toBe(1);
  });

  it('honours If-Match on the current user', async ({ api, grace, tagOf, countEvents }) => {
    const me = (await api.get('/api/v1/user/me', { token: grace })).body as { id: string; name: string };
    const tag = await tagOf('/api/v1/user/me', grace);
    const events = await countEvents('user.updated', 'userId', me.id);
    expectError(await api.patch('/api/v1/user/me', { name: 'Not me' }, { token: grace, headers: { 'if-match': '"stale"' } }), 412);
    expect((await api.get('/api/v1/user/me', { token: grace })).body.name).toBe(me.name);
    expect(await countEvents('user.updated', 'userId', me.id)).toBe(events);
    const renamed = await api.patch('/api/v1/user/me', { name: 'Grace H.' }, { token: grace, headers: { 'if-match': tag } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.headers.get('etag')).toBe(await tagOf('/api/v1/user/me', grace));
    // The tag it was sent with is stale now.
    expectError(await api.patch('/api/v1/user/me', { name: 'Again' }, { token: grace, headers: { 'if-match': tag } }), 412);
  });

  it('honours If-Match on webhooks, API keys and sessions', async ({ api, ada, grace, tagOf }) => {
    const hook = (await api.post('/api/v1/webhooks', { url: 'http://127.0.0.1:9/h', events: ['lesson.updated'] }, { token: ada })).body.id as string;
    const hookTag = await tagOf(`/api/v1/webhooks/${hook}`, ada);
    expectError(await api.patch(`/api/v1/webhooks/${hook}`, { description: 'x' }, { token: ada, headers: { 'if-match': '"stale"' } }), 412);
    expectError(await api.delete(`/api/v1/webhooks/${hook}`, { token: ada, headers: { 'if-match': '"stale"' } }), 412);
    expect((await api.get(`/api/v1/webhooks/${hook}`, { token: ada })).headers.get('etag')).toBe(hookTag);
    const patched = await api.patch(`/api/v1/webhooks/${hook}`, { description: 'current' }, { token: ada, headers: { 'if-match': hookTag } });
    expect(patched.status).toBe(200);
    expectError(await api.delete(`/api/v1/webhooks/${hook}`, { token: ada, headers: { 'if-match': hookTag } }), 412);
    expect((await api.delete(`/api/v1/webhooks/${hook}`, { token: ada, headers: { 'if-match': patched.headers.get('etag')! } })).status).toBe(204);
    expectError(await api.get(`/api/v1/webhooks/${hook}`, { token: ada }), 404);

    const created = (await api.post('/api/v1/api-keys', { name: 'conditional' }, { token: grace })).body as { id: string; key: string };
    expectError(await api.delete(`/api/v1/api-keys/${created.id}`, { token: grace, headers: { 'if-match': '"stale"' } }), 412);
    expect((await api.get('/api/v1/user/me', { headers: { 'x-api-key': created.key } })).status).toBe(200);
    const keyTag = await tagOf(`/api/v1/api-keys/${created.id}`, grace);
    expect((await api.delete(`/api/v1/api-keys/${created.id}`, { token: grace, headers: { 'if-match': keyTag } })).status).toBe(204);
    expectError(await api.get('/api/v1/user/me', { headers: { 'x-api-key': created.key } }), 403);

    const other = (await api.loginAs('grace')).token;
    const sessions = (await api.get('/api/v1/sessions', { token: other })).body.items as { id: string; current: boolean }[];
    const current = sessions.find((s) => s.current)!;
    // The tag of the session as its own token sees it (`current: true`) is not the one another token sees.
    const ownTag = await tagOf(`/api/v1/sessions/${current.id}`, other);
    expectError(await api.delete(`/api/v1/sessions/${current.id}`, { token: grace, headers: { 'if-match': ownTag } }), 412);
    expect((await api.get('/api/v1/user/me', { token: other })).status).toBe(200);
    const seenByGrace = await tagOf(`/api/v1/sessions/${current.id}`, grace);
    expect((await api.delete(`/api/v1/sessions/${current.id}`, { token: grace, headers: { 'if-match': seenByGrace } })).status).toBe(204);
    expectError(await api.get('/api/v1/user/me', { token: other }), 403);
  });
});
