// The GraphQL response cache as a client sees it: GET query results carry an ETag and
// If-None-Match answers 304; a change that commits is never followed by a stale read, on one
// instance or on another one sharing the cache through Redis; what depends on the caller is never
// served from the cache; POSTs get no ETag (test/response-cache-post.test.ts: their caching); and a flood of distinct queries leaves nothing in
// Redis that does not expire.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseCachePrefix } from '../src/modules/response-cache/index.js';
import { client, type Client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { TEST_REDIS_URL } from './support/process.js';
import { instancesForSuite, serverForSuite } from './support/server.js';
import { waitFor } from './support/wait.js';

const USER = 'query ($id: ID!) { user(id: $id) { id name joined } }';

function getUrl(query: string, variables?: Record<string, unknown>): string {
  const params = new URLSearchParams({ query });
  if (variables) params.set('variables', JSON.stringify(variables));
  return `/graphql?${params}`;
}

async function signIn(api: Client, email: string, password: string) {
  const { token } = await api.login(email, password);
  const me = (await api.get('/api/v1/user/me', { token })).body as { id: string; name: string };
  return { token, id: me.id, name: me.name };
}

describe('on one instance (in-process cache)', () => {
  const suite = serverForSuite({ env: NO_RATE_LIMITS });

  it('a GET query result has an ETag; If-None-Match answers 304 with no body; a rename is never followed by the old name', async () => {
    const grace = await signIn(suite.api, 'grace@example.com', 'hopper-1906');
    const url = getUrl(USER, { id: grace.id });
    const first = await suite.api.get(url);
    expect(first.status).toBe(200);
    expect(first.body.data.user.name).toBe(grace.name);
    const etag = first.headers.get('etag');
    // An entity tag as RFC 9110 writes it (a quoted string): the entry's key and its version.
    expect(etag).toMatch(/^"[0-9a-f]{64}\.[\w-]{16}"$/);

    const again = await suite.api.get(url);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.body).toEqual(first.body);

    const notModified = await suite.api.get(url, { headers: { 'if-none-match': etag! } });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
    expect(notModified.headers.get('etag')).toBe(etag);
    // A weak comparison (W/) matches too, as If-None-Match asks (RFC 9110 13.1.2).
    expect((await suite.api.get(url, { headers: { 'if-none-match': `W/${etag}` } })).status).toBe(304);

    // The change commits through REST; the very next read shows it, and the old ETag no longer
    // matches, not even once the new version is cached (the tag names the version).
    const renamed = `Grace Brewster Hopper ${Date.now()}`;
    expect((await suite.api.patch('/api/v1/user/me', { name: renamed }, { token: grace.token })).status).toBe(200);
    const after = await suite.api.get(url, { headers: { 'if-none-match': etag! } });
    expect(after.status).toBe(200);
    expect(after.body.data.user.name).toBe(renamed);
    expect(after.headers.get('etag')).not.toBe(etag);
    const stillOld = await suite.api.get(url, { headers: { 'if-none-match': etag! } });
    expect(stillOld.status).toBe(200);
    expect(stillOld.body.data.user.name).toBe(renamed);
    // The event then reaches this instance's bus and invalidates once more (the second of the two
    // invalidations, src/modules/response-cache), so the version cached right after the change
    // may be replaced once: a 200 with the new name and a newer tag. Once that has happened, the
    // current version's own tag answers 304.
    await waitFor('the new version to answer 304 to its own ETag', async () => {
      const current = await suite.api.get(url);
      expect(current.body.data.user.name).toBe(renamed);
      return (await suite.api.get(url, { headers: { 'if-none-match': current.headers.get('etag')! } })).status === 304;
    });

    // And through GraphQL.
    const back = `Grace Hopper ${Date.now()}`;
    const mutation = await suite.api.graphql('mutation ($n: String!) { updateMe(name: $n) { name } }', { n: back }, { token: grace.token });
    expect(mutation.body.errors).toBeUndefined();
    expect((await suite.api.get(url)).body.data.user.name).toBe(back);
  });

  it('answers HEAD of a GET query as its GET without the content: the same ETag, length and limit headers; 304 and 405 as GET has them', async () => {
    const url = getUrl('{ docs { slug title } }');
    const get = await fetch(`${suite.server.url}${url}`);
    const text = await get.text();
    const head = await fetch(`${suite.server.url}${url}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    for (const name of ['etag', 'content-type', 'ratelimit-policy', 'x-request-id']) expect(head.headers.get(name), name).toBeTruthy();
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    // The budget counted it, once.
    expect(Number(head.headers.get('x-ratelimit-remaining'))).toBe(Number(get.headers.get('x-ratelimit-remaining')) - 1);
    const conditional = await fetch(`${suite.server.url}${url}`, { method: 'HEAD', headers: { 'if-none-match': get.headers.get('etag')! } });
    expect(conditional.status).toBe(304);
    // Yoga answered 405 to every HEAD; a mutation still gets GET's 405.
    const mutation = await fetch(`${suite.server.url}${getUrl('mutation { logout(refreshToken: "x") }')}`, { method: 'HEAD' });
    expect(mutation.status).toBe(405);
  });

  it('never serves what depends on the caller from the cache: no ETag, and a signed-out token is refused at once', async () => {
    const ada = await signIn(suite.api, 'ada@example.com', 'lovelace-1815');
    const session = await suite.api.login('ada@example.com', 'lovelace-1815');
    for (const query of ['{ me { id name } }', '{ docs { slug } me { id } }', '{ lessons(first: 2) { edges { node { id } } } }', `{ user(id: "${ada.id}") { lessons(first: 1) { edges { node { id } } } } }`]) {
      const reply = await suite.api.get(getUrl(query), { token: session.token });
      expect(reply.status, query).toBe(200);
      expect(reply.body.errors, query).toBeUndefined();
      expect(reply.headers.get('etag'), query).toBeNull();
    }
    expect((await suite.api.post('/api/auth/logout', { refreshToken: session.refreshToken })).status).toBe(204);
    const me = await suite.api.get(getUrl('{ me { id } }'), { token: session.token });
    expect(me.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    // Page views change with every view: never cached either.
    const views = await suite.api.get(getUrl('{ pageViews }'));
    expect(views.headers.get('etag')).toBeNull();
    const before = views.body.data.pageViews as number;
    expect((await suite.api.post('/api/analytics/views', { path: '/cache' })).status).toBe(202);
    expect((await suite.api.get(getUrl('{ pageViews }'))).body.data.pageViews).toBe(before + 1);
  });

  it('answers a cached GET exactly as Yoga does, whatever JSON type the client accepts', async () => {
    const grace = await signIn(suite.api, 'grace@example.com', 'hopper-1906');
    const url = getUrl(USER, { id: grace.id });
    expect((await suite.api.get(url)).status).toBe(200); // stored
    // `extensions` sends the request Yoga's own way (its response-cache plugin serves the same entry).
    const yogaWay = `${url}&extensions=${encodeURIComponent('{}')}`;
    for (const accept of [undefined, '*/*', 'application/json', 'application/graphql-response+json', 'application/graphql-response+json, application/json;q=0.9']) {
      const headers: Record<string, string> = accept ? { accept } : {};
      const early = await suite.api.get(url, { headers });
      const viaYoga = await suite.api.get(yogaWay, { headers });
      for (const reply of [early, viaYoga]) expect(reply.status, accept).toBe(200);
      expect(early.headers.get('content-type'), accept).toBe(viaYoga.headers.get('content-type'));
      expect(early.headers.get('etag'), accept).toBe(viaYoga.headers.get('etag'));
      expect(early.headers.get('last-modified'), accept).toBe(viaYoga.headers.get('last-modified'));
      expect(early.text, accept).toBe(viaYoga.text);
      expect(early.body.data.user.id).toBe(grace.id);
    }
    // A media type only Yoga can serve (an event stream of the result) still gets one.
    const stream = await suite.api.get(url, { headers: { accept: 'text/event-stream' } });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
  });

  it('gives no ETag to POSTs or errors, nor a 304 to anything a stranger sends as If-None-Match', async () => {
    const posted = await suite.api.graphql('{ docs { slug } }');
    expect(posted.status).toBe(200);
    expect(posted.headers.get('etag')).toBeNull();
    const missing = await suite.api.get(getUrl(USER, { id: 'usr_nobody' }));
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(missing.headers.get('etag')).toBeNull();
    for (const value of ['*', 'x'.repeat(4000), '"quoted"', 'W/"weak"']) {
      const reply = await suite.api.get(getUrl('{ docs { slug } }'), { headers: { 'if-none-match': value } });
      expect(reply.status, value.slice(0, 20)).toBe(200);
      expect(reply.body.data.docs.length).toBeGreaterThan(0);
    }
    // The If-None-Match of a GraphQL result means nothing to a REST route.
    const docs = await suite.api.get(getUrl('{ docs { slug } }'));
    const rest = await suite.api.get('/api/content/docs', { headers: { 'if-none-match': docs.headers.get('etag')! } });
    expect(rest.status).toBe(200);
  });
});

describe('on two instances sharing PostgreSQL and Redis', () => {
  const instances = instancesForSuite({ env: { ...NO_RATE_LIMITS, REDIS_URL: TEST_REDIS_URL } });
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(TEST_REDIS_URL);
  });
  afterAll(() => redis?.disconnect());

  it('read on B, rename on A, read on B: the new name at once; both instances answer from one cache', async () => {
    const onA = client(instances.a.url);
    const onB = client(instances.b.url);
    const grace = await signIn(onA, 'grace@example.com', 'hopper-1906');
    const url = getUrl(USER, { id: grace.id });
    const first = await onB.get(url);
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    // Shared: A knows B's entry.
    expect((await onA.get(url, { headers: { 'if-none-match': etag } })).status).toBe(304);

    // Reads on B race each change on A: one begun before the commit must not store the old name
    // after the change dropped the entry (every invalidation bumps a generation the store checks).
    for (let round = 0; round < 20; round++) {
      const name = `Grace ${round} ${Date.now()}`;
      const racing = [onB.get(url), onB.get(url), onB.get(url)];
      expect((await onA.patch('/api/v1/user/me', { name }, { token: grace.token })).status).toBe(200);
      await Promise.all(racing);
      const read = await onB.get(url, { headers: { 'if-none-match': etag } });
      expect(read.status, `round ${round}`).toBe(200);
      expect(read.body.data.user.name, `round ${round}`).toBe(name);
    }
  });

  it('a flood of distinct queries leaves only keys that expire', async () => {
    const onB = client(instances.b.url);
    const grace = await signIn(onB, 'grace@example.com', 'hopper-1906');
    for (let i = 0; i < 150; i++) {
      const reply = await onB.get(getUrl(`query Flood${i} { user(id: "${grace.id}") { id name } }`));
      expect(reply.status).toBe(200);
    }
    const prefix = responseCachePrefix(instances.a.databaseUrl!);
    const keys = await redis.keys(`${prefix}*`);
    expect(keys.length).toBeGreaterThan(150);
    const ttls = await Promise.all(keys.map((key) => redis.pttl(key)));
    // -1 is a key without expiry, -2 one that is already gone.
    expect(ttls.filter((ttl) => ttl === -1)).toEqual([]);
  });
});
