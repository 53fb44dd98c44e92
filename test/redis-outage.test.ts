// Redis going away, for every instance or for one. Two instances on one database, each reaching
// Redis through a TCP proxy of its own that can be cut and restored.
// - An outage (both cut) while a change commits: the change's invalidation cannot reach Redis;
//   once Redis is back, neither instance may answer with what was cached before the change.
// - A partition (only A cut): a change committed on A cannot be published on Redis, yet B must
//   learn of it. Its cached reads must stop answering with what the change replaced, and the
//   live subscribers of both must receive the change's event. The database is the record of
//   every event, so they hear of it from there.
import { createClient as createSseClient } from 'graphql-sse';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { tcpProxy } from '../bench/lib/tcp-proxy.js';
import type { LearningEvent } from '../src/client/index.js';
import { client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { scrape, total } from './support/metrics.js';
import { TEST_REDIS_URL } from './support/process.js';
import { startTestServer, type TestServer } from './support/server.js';
import { sleep, waitFor } from './support/wait.js';

const USER = 'query ($id: ID!) { user(id: $id) { id name } }';
const userUrl = (id: string) => `/graphql?${new URLSearchParams({ query: USER, variables: JSON.stringify({ id }) })}`;
const EVENTS = 'subscription { events { id event userId } }';
/** Well inside the 60 s a cached entry lives: without the database's word, B would serve the old name this long. */
const DEADLINE_MS = 10_000;

let a: TestServer;
let b: TestServer;
const toRedis = { a: tcpProxy(TEST_REDIS_URL), b: tcpProxy(TEST_REDIS_URL) };

// Bespoke: each instance's REDIS_URL is its own proxy's, known only once the proxy listens, and the
// proxies must outlive the servers (a fixture's server is stopped after the file's afterAll).
beforeAll(async () => {
  a = await startTestServer({ env: { ...NO_RATE_LIMITS, REDIS_URL: await toRedis.a.listen() } });
  b = await startTestServer({ env: { ...NO_RATE_LIMITS, REDIS_URL: await toRedis.b.listen() }, reuse: { dataDir: a.config.dataDir, databaseUrl: a.databaseUrl } });
});
afterEach(() => {
  toRedis.a.restore();
  toRedis.b.restore();
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
  await Promise.all([toRedis.a.close(), toRedis.b.close()]);
});

/** The subscriptions open on `server`, as its /metrics says. */
const openSubscriptions = async (server: TestServer) => total(await scrape(client(server.url)), 'learnstream_subscriptions_open');

/** Grace's user as `user(id)` on GET: read on B, so that it is cached in Redis for both instances. */
async function cachedRead() {
  const onA = client(a.url);
  const onB = client(b.url);
  const { token } = await onA.login('grace@example.com', 'hopper-1906');
  const me = (await onA.get('/api/v1/user/me', { token })).body as { id: string; name: string };
  const url = userUrl(me.id);
  const first = await onB.get(url);
  expect(first.body.data.user.name).toBe(me.name);
  expect((await onA.get(url, { headers: { 'if-none-match': first.headers.get('etag')! } })).status).toBe(304);
  return { onA, onB, token, me, url };
}

it('a rename committed while Redis is away is never followed by the old name once Redis is back', async () => {
  const { onA, onB, token, url } = await cachedRead();
  toRedis.a.cut();
  toRedis.b.cut();
  const name = `Grace ${Date.now()}`;
  expect((await onA.patch('/api/v1/user/me', { name }, { token })).status).toBe(200);
  // While Redis is away, reads are answered from the database.
  expect((await onB.get(url)).body.data.user.name).toBe(name);
  toRedis.a.restore();
  toRedis.b.restore();

  // Long enough for both instances to reconnect (ioredis retries at most every 2 s).
  const until = Date.now() + 5_000;
  const seen = new Set<string>();
  while (Date.now() < until) {
    for (const api of [onA, onB]) {
      const read = await api.get(url);
      expect(read.status).toBe(200);
      seen.add(read.body.data.user.name);
    }
    await sleep(50);
  }
  expect([...seen]).toEqual([name]);
});

it('a change committed on an instance cut off from Redis reaches the cache of one that is not, and the subscribers of both', async () => {
  const { onA, onB, token, me, url } = await cachedRead();
  // A subscriber on each instance: B's hears the change from the database, and so does A's (its
  // own relay could not publish it on Redis).
  const received = new Map<TestServer, LearningEvent[]>([[a, []], [b, []]]);
  const clients = [...received].map(([server, events]) => {
    const sse = createSseClient({ url: `${server.url}/graphql`, singleConnection: false, headers: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
    const stop = sse.subscribe({ query: EVENTS }, {
      next: (value) => {
        const event = (value.data as { events?: LearningEvent } | undefined)?.events;
        if (event) events.push(event);
      },
      error: () => {},
      complete: () => {},
    });
    return { stop, sse };
  });
  try {
    // The subscriptions are registered before the change: each instance counts its subscription
    // as open once its subscribe resolver has subscribed to the bus.
    await waitFor('a subscription open on each instance', async () => (await openSubscriptions(a)) === 1 && (await openSubscriptions(b)) === 1);

    toRedis.a.cut();
    const name = `Grace ${Date.now()}`;
    expect((await onA.patch('/api/v1/user/me', { name }, { token })).status).toBe(200);

    // B stops answering with the old name, and does not go back to it.
    const until = Date.now() + DEADLINE_MS;
    let current = me.name;
    while (current !== name && Date.now() < until) {
      await sleep(50);
      current = (await onB.get(url)).body.data.user.name;
    }
    expect(current).toBe(name);
    for (let i = 0; i < 10; i++) expect((await onB.get(url)).body.data.user.name).toBe(name);

    // Each subscriber received the rename, once.
    const renames = (server: TestServer) => received.get(server)!.filter((e) => e.event === 'user.updated' && e.userId === me.id);
    await waitFor('the rename at both subscribers', () => renames(a).length > 0 && renames(b).length > 0, DEADLINE_MS);
    await sleep(300);
    expect(renames(a)).toHaveLength(1);
    expect(renames(b)).toHaveLength(1);
  } finally {
    for (const { stop, sse } of clients) {
      stop();
      sse.dispose();
    }
  }
});
