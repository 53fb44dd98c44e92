// A partition: one instance loses Redis while the others keep it. Two instances on one database;
// A reaches Redis through a TCP proxy that is cut, B directly. A change committed on A cannot be
// published on Redis then, yet B must learn of it: its cached reads must stop answering with what
// the change replaced, and its live subscribers must receive the change's event. The database is
// the record of every event, so B hears of it from there.
import { createClient as createSseClient } from 'graphql-sse';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tcpProxy } from '../bench/lib/tcp-proxy.js';
import type { LearningEvent } from '../src/client/index.js';
import { client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
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
const proxy = tcpProxy(TEST_REDIS_URL);

beforeAll(async () => {
  a = await startTestServer({ env: { ...NO_RATE_LIMITS, REDIS_URL: await proxy.listen() } });
  b = await startTestServer({ env: { ...NO_RATE_LIMITS, REDIS_URL: TEST_REDIS_URL }, reuse: { dataDir: a.config.dataDir, databaseUrl: a.databaseUrl } });
});
afterAll(async () => {
  proxy.restore();
  await b?.stop();
  await a?.stop();
  await proxy.close();
});

it('a change committed on an instance cut off from Redis reaches the cache of one that is not, and the subscribers of both', async () => {
  const onA = client(a.url);
  const onB = client(b.url);
  const { token } = await onA.login('grace@example.com', 'hopper-1906');
  const me = (await onA.get('/api/v1/user/me', { token })).body as { id: string; name: string };
  const url = userUrl(me.id);
  const first = await onB.get(url);
  expect(first.body.data.user.name).toBe(me.name);
  // Cached in Redis: B answers the next read from its entry.
  expect((await onB.get(url, { headers: { 'if-none-match': first.headers.get('etag')! } })).status).toBe(304);

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
    await sleep(300); // the subscription is registered before the change

    proxy.cut();
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
