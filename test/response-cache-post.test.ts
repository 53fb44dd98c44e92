// GraphQL queries over POST are read through the response cache too (hits answered without
// running the query), as a client sees it: never the old data once a change has answered, on one
// instance or on another sharing the cache through Redis; no ETag and no 304 for a POST; and
// nothing that is not a query (a mutation) is ever answered from the cache.
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseCachePrefix } from '../src/modules/response-cache/index.js';
import { client, type Client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { TEST_REDIS_URL } from './support/process.js';
import { monitorRedis } from './support/redis-monitor.js';
import { instancesForSuite, serverForSuite } from './support/server.js';

const USER = 'query ($id: ID!) { user(id: $id) { id name joined } }';

async function signIn(api: Client, who: 'grace' | 'alan') {
  const { token, refreshToken } = await api.loginAs(who);
  const me = (await api.get('/api/v1/user/me', { token })).body as { id: string; name: string };
  return { token, refreshToken, id: me.id, name: me.name };
}

describe('on one instance (in-process cache)', () => {
  const suite = serverForSuite({ env: NO_RATE_LIMITS });

  it('a POST query is never answered with the old data once a rename has answered; it has no ETag and never gets a 304', async () => {
    const { api } = suite;
    const grace = await signIn(api, 'grace');
    const first = await api.graphql(USER, { id: grace.id });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ data: { user: { id: grace.id, name: grace.name, joined: expect.any(String) } } });
    expect(first.headers.get('etag')).toBeNull();
    expect(first.headers.get('cache-control')).toBe('no-store');
    const again = await api.graphql(USER, { id: grace.id });
    expect(again.text).toBe(first.text);
    expect(again.headers.get('etag')).toBeNull();

    // The GET of the same query has a tag; sent with a POST it means nothing: the full answer.
    const get = await api.get(`/graphql?${new URLSearchParams({ query: USER, variables: JSON.stringify({ id: grace.id }) })}`);
    const etag = get.headers.get('etag')!;
    expect(etag).toBeTruthy();
    for (const ifNoneMatch of [etag, '*']) {
      const posted = await api.post('/graphql', { query: USER, variables: { id: grace.id } }, { headers: { 'if-none-match': ifNoneMatch } });
      expect(posted.status).toBe(200);
      expect(posted.text).toBe(first.text);
    }

    for (let round = 0; round < 5; round++) {
      const name = `Grace ${round} ${Date.now()}`;
      const racing = [api.graphql(USER, { id: grace.id }), api.graphql(USER, { id: grace.id })];
      const renamed = await api.graphql('mutation ($n: String!) { updateMe(name: $n) { name } }', { n: name }, { token: grace.token });
      expect(renamed.body.errors).toBeUndefined();
      await Promise.all(racing);
      expect((await api.graphql(USER, { id: grace.id })).body.data.user.name, `round ${round}`).toBe(name);
      // The GET agrees (one cache).
      expect((await api.get(`/graphql?${new URLSearchParams({ query: USER, variables: JSON.stringify({ id: grace.id }) })}`)).body.data.user.name).toBe(name);
    }
  });

  it('answers a cached POST exactly as Yoga does, and a body the checks refuse is refused even when its query is cached', async () => {
    const { api } = suite;
    const grace = await signIn(api, 'grace');
    const body = { query: USER, variables: { id: grace.id } };
    for (const accept of [undefined, 'application/json', 'application/graphql-response+json']) {
      const headers = accept ? { accept } : undefined;
      const [miss, hit] = [await api.post('/graphql', body, { headers }), await api.post('/graphql', body, { headers })];
      expect(hit.status, accept).toBe(200);
      expect(hit.text, accept).toBe(miss.text);
      expect(hit.headers.get('content-type'), accept).toBe(miss.headers.get('content-type'));
      expect(hit.headers.get('etag')).toBeNull();
    }
    const raw = (text: string, headers: Record<string, string> = {}) =>
      fetch(`${suite.server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: text });
    const json = JSON.stringify(body);
    // The same entry's request, spelt so that the checks refuse it.
    const twice = await raw(`{"query": ${JSON.stringify(USER)}, "query": ${JSON.stringify(USER)}, "variables": ${JSON.stringify(body.variables)}}`);
    expect(twice.status).toBe(400);
    expect((await twice.json()).errors[0].message).toBe('The request body names the key "query" twice in one object.');
    const badPersisted = await raw(JSON.stringify({ ...body, extensions: { persistedQuery: { version: 2 } } }));
    expect(badPersisted.status).toBe(400);
    const gzipped = await raw(json, { 'content-encoding': 'gzip' });
    expect(gzipped.status).toBe(400);
    const repeated = await fetch(`${suite.server.url}/graphql?a=1&a=2`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: json });
    expect(repeated.status).toBe(400);
    // And the plain request is still answered from the entry.
    expect(await (await raw(json)).text()).toBe((await api.post('/graphql', body)).text);
  });

  it('a mutation is never answered from the cache: the same mutation twice runs twice', async () => {
    const { api } = suite;
    const login = 'mutation { login(email: "alan@example.com", password: "turing-1912") { token refreshToken } }';
    const [one, two] = [await api.graphql(login), await api.graphql(login)];
    expect(one.body.errors).toBeUndefined();
    expect(two.body.errors).toBeUndefined();
    expect(two.body.data.login.refreshToken).not.toBe(one.body.data.login.refreshToken);
    // A refresh token used twice (within the reuse grace): the second gets a new pair of its own,
    // not the first one's answer.
    const refresh = 'mutation ($t: String!) { refreshToken(refreshToken: $t) { refreshToken } }';
    const first = await api.graphql(refresh, { t: one.body.data.login.refreshToken });
    expect(first.body.errors).toBeUndefined();
    const again = await api.graphql(refresh, { t: one.body.data.login.refreshToken });
    expect(again.body.errors).toBeUndefined();
    expect(again.body.data.refreshToken.refreshToken).toMatch(/^rt_/);
    expect(again.body.data.refreshToken.refreshToken).not.toBe(first.body.data.refreshToken.refreshToken);
    // Page views: each recorded.
    const views = 'query ($p: String!) { pageViews(path: $p) }';
    const path = `/post-cache/${Date.now()}`;
    for (let i = 0; i < 3; i++) expect((await api.graphql('mutation ($p: String!) { recordPageView(path: $p) }', { p: path })).body.errors).toBeUndefined();
    expect((await api.graphql(views, { p: path })).body.data.pageViews).toBe(3);
  });

  it("never answers the caller's own data from the cache: a signed-out token is refused at once", async () => {
    const { api } = suite;
    const session = await api.login('grace@example.com', 'hopper-1906');
    const me = await api.graphql('{ me { id name } }', undefined, { token: session.token });
    expect(me.body.data.me.name).toBeTruthy();
    expect((await api.post('/api/auth/logout', { refreshToken: session.refreshToken })).status).toBe(204);
    const after = await api.graphql('{ me { id name } }', undefined, { token: session.token });
    expect(after.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('on two instances sharing PostgreSQL and Redis', () => {
  const instances = instancesForSuite({ env: { ...NO_RATE_LIMITS, REDIS_URL: TEST_REDIS_URL } });
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(TEST_REDIS_URL);
  });
  afterAll(() => redis?.disconnect());

  it('a POST on B is stored for every instance; rename on A, POST on B: the new name at once, also with reads racing each rename', async () => {
    const onA = client(instances.a.url);
    const onB = client(instances.b.url);
    const alan = await signIn(onA, 'alan');
    const query = `query PostCache${Date.now()} ($id: ID!) { user(id: $id) { id name } }`;
    expect((await onB.graphql(query, { id: alan.id })).body.data.user.name).toBe(alan.name);
    // Stored in the shared cache, under the key of its document, operation name and variables.
    const key = createHash('sha256').update(`${query}||${JSON.stringify({ id: alan.id })}`).digest('hex');
    expect(await redis.exists(`${responseCachePrefix(instances.a.databaseUrl!)}r:${key}`)).toBe(1);

    for (let round = 0; round < 20; round++) {
      const name = `Alan ${round} ${Date.now()}`;
      const racing = [onB.graphql(query, { id: alan.id }), onB.graphql(query, { id: alan.id }), onB.graphql(query, { id: alan.id })];
      expect((await onA.patch('/api/v1/user/me', { name }, { token: alan.token })).status).toBe(200);
      await Promise.all(racing);
      expect((await onB.graphql(query, { id: alan.id })).body.data.user.name, `round ${round}`).toBe(name);
    }
  });

  it('a query that is never stored (it reads the caller) costs no read of the shared cache once it has run, over POST or GET; a stored one still reads it', async () => {
    const api = client(instances.a.url);
    const alan = await signIn(api, 'alan');
    const prefix = responseCachePrefix(instances.a.databaseUrl!);
    // Every command Redis runs, as Redis itself reports it; the reads are those on this deployment's cache keys.
    const monitor = await monitorRedis(TEST_REDIS_URL);
    const reads = () => monitor.commands.filter((args) => ['get', 'mget'].includes(args[0]!.toLowerCase()) && args.some((a) => a.startsWith(prefix))).map((args) => args.join(' '));
    const { settled } = monitor;
    try {
      const me = `query MeNeverCached${Date.now()} { me { id name } }`;
      // Its first request, over GET: looked up (it has not run yet), and known from then on.
      expect((await api.get(`/graphql?${new URLSearchParams({ query: me })}`, { token: alan.token })).body.data.me).toEqual({ id: alan.id, name: alan.name });
      await settled();
      monitor.commands.length = 0;
      for (let i = 0; i < 3; i++) {
        expect((await api.graphql(me, undefined, { token: alan.token })).body.data.me).toEqual({ id: alan.id, name: alan.name });
        const got = await api.get(`/graphql?${new URLSearchParams({ query: me })}`, { token: alan.token });
        expect(got.body.data.me).toEqual({ id: alan.id, name: alan.name });
        expect(got.headers.get('etag')).toBeNull();
      }
      await settled();
      // Read under its entry's key (of its document, operation name and variables): none.
      const entryOf = (query: string, variables: object) => `${prefix}r:${createHash('sha256').update(`${query}||${JSON.stringify(variables)}`).digest('hex')}`;
      expect(reads().filter((r) => r.includes(entryOf(me, {}))), 'cache reads for a document never stored').toEqual([]);

      // A query that is stored is read from the shared cache (what the empty list above is worth).
      const user = `query UserCached${Date.now()} ($id: ID!) { user(id: $id) { id name } }`;
      for (let i = 0; i < 2; i++) expect((await api.graphql(user, { id: alan.id })).body.data.user.name).toBe(alan.name);
      await settled();
      expect(reads().filter((r) => r.includes(entryOf(user, { id: alan.id }))).length, 'cache reads for a stored query').toBeGreaterThan(0);
    } finally {
      monitor.close();
    }
  });
});
