// GET /api/users/{id} read through the response cache, as a REST client sees it: an ETag on every
// answer, If-None-Match answering 304, and never the old name once a rename has answered, on one
// instance or on another sharing the cache through Redis.
import { describe, expect, it } from 'vitest';
import { client, type Client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { TEST_REDIS_URL } from './support/process.js';
import { instancesForSuite, serverForSuite } from './support/server.js';

const ETAG = /^"[\w-]{22}"$/;

async function signIn(api: Client, who: 'grace' | 'alan') {
  const { token } = await api.loginAs(who);
  const me = (await api.get('/api/v1/user/me', { token })).body as { id: string; name: string };
  return { token, id: me.id, name: me.name };
}

describe('on one instance (in-process cache)', () => {
  const suite = serverForSuite({ env: NO_RATE_LIMITS });

  it('every answer has an ETag; If-None-Match answers 304 with no body; a rename is never followed by the old name', async () => {
    const { api } = suite;
    const grace = await signIn(api, 'grace');
    const path = `/api/users/${grace.id}`;
    const first = await api.get(path);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ id: grace.id, name: grace.name, joined: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(ETAG);
    // The same for everyone: a browser or a shared cache may keep it, and asks each time.
    expect(first.headers.get('cache-control')).toBe('no-cache');

    // From the cache: the same bytes and tag, counted by the budget like any request.
    const again = await api.get(path);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('etag')).toBe(etag);
    expect(Number(again.headers.get('x-ratelimit-remaining'))).toBe(Number(first.headers.get('x-ratelimit-remaining')) - 1);
    // However the path is spelt (a trailing slash, percent-encoding), one resource, one tag.
    expect((await api.get(`${path}/`)).headers.get('etag')).toBe(etag);
    expect((await api.get(`/api/users/${encodeURIComponent(grace.id).replace('_', '%5F')}`)).headers.get('etag')).toBe(etag);

    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const notModified = await api.get(path, { headers: { 'if-none-match': ifNoneMatch } });
      expect(notModified.status, ifNoneMatch).toBe(304);
      expect(notModified.text).toBe('');
      expect(notModified.headers.get('etag')).toBe(etag);
    }
    for (const ifNoneMatch of ['"other"', etag.slice(0, -2) + '"', 'x'.repeat(4000)]) {
      const full = await api.get(path, { headers: { 'if-none-match': ifNoneMatch } });
      expect(full.status, ifNoneMatch.slice(0, 20)).toBe(200);
      expect(full.text).toBe(first.text);
    }
    const head = await fetch(`${suite.server.url}${path}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(head.headers.get('etag')).toBe(etag);

    // A rename commits: the very next read has the new name and a new tag; the old tag is a 200.
    for (const name of [`Grace Brewster Hopper ${Date.now()}`, `Grace Hopper ${Date.now()}`]) {
      expect((await api.patch('/api/v1/user/me', { name }, { token: grace.token })).status).toBe(200);
      const after = await api.get(path, { headers: { 'if-none-match': etag } });
      expect(after.status).toBe(200);
      expect(after.body.name).toBe(name);
      expect(after.headers.get('etag')).toMatch(ETAG);
      expect(after.headers.get('etag')).not.toBe(etag);
      // GraphQL, renamed through REST, agrees.
      const user = await api.graphql('query ($id: ID!) { user(id: $id) { name } }', { id: grace.id });
      expect(user.body.data.user.name).toBe(name);
    }
  });

  it('an unknown or unusable id is a 404 without a tag, and stays one', async () => {
    for (const id of ['usr_nobody', 'x'.repeat(5000), '%00', '%F0%9F']) {
      for (let i = 0; i < 2; i++) {
        const reply = await suite.api.get(`/api/users/${id}`);
        expect(reply.status, id.slice(0, 20)).toBe(404);
        expect(reply.body).toMatchObject({ error: true, code: 404 });
        expect(reply.headers.get('etag')).toBeNull();
        expect(reply.headers.get('cache-control')).toBe('no-store');
      }
    }
  });

  it('the OpenAPI document declares the ETag, If-None-Match and the 304', async () => {
    const doc = (await suite.api.get('/api/openapi.json')).body;
    const operation = doc.paths['/api/users/{id}'].get;
    expect(operation.responses['200'].headers.ETag).toEqual({ $ref: '#/components/headers/ETag' });
    expect(operation.responses['304'].headers.ETag).toEqual({ $ref: '#/components/headers/ETag' });
    expect(operation.parameters).toContainEqual(expect.objectContaining({ name: 'If-None-Match', in: 'header', required: false }));
    // Every resource read has one (CONTRACT.md, "ETag on every resource read"), /me too, whose
    // tag is its caller's own.
    expect(doc.paths['/api/v1/user/me'].get.responses['304'].headers.ETag).toEqual({ $ref: '#/components/headers/ETag' });
  });
});

describe('on two instances sharing PostgreSQL and Redis', () => {
  const instances = instancesForSuite({ env: { ...NO_RATE_LIMITS, REDIS_URL: TEST_REDIS_URL } });

  it('read on B, rename on A, read on B: the new name at once, also with reads racing each rename', async () => {
    const onA = client(instances.a.url);
    const onB = client(instances.b.url);
    const alan = await signIn(onA, 'alan');
    const path = `/api/users/${alan.id}`;
    const first = await onB.get(path);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(ETAG);
    // Shared: A answers B's entry's tag with a 304.
    expect((await onA.get(path, { headers: { 'if-none-match': etag } })).status).toBe(304);

    // A read begun before a commit must not store the old name after the change dropped the entry.
    for (let round = 0; round < 20; round++) {
      const name = `Alan ${round} ${Date.now()}`;
      const racing = [onB.get(path), onB.get(path), onB.get(path)];
      expect((await onA.patch('/api/v1/user/me', { name }, { token: alan.token })).status).toBe(200);
      await Promise.all(racing);
      const read = await onB.get(path, { headers: { 'if-none-match': etag } });
      expect(read.status, `round ${round}`).toBe(200);
      expect(read.body.name, `round ${round}`).toBe(name);
    }
  });
});
