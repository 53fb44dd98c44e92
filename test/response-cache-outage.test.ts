// The response cache across a Redis outage: two instances share it through a Redis that goes
// away while a change commits (a TCP proxy in front of the real Redis, cut and restored). The
// change's invalidation cannot reach Redis then; once Redis is back, neither instance may answer
// with what was cached before the change.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tcpProxy } from '../bench/lib/tcp-proxy.js';
import { client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { TEST_REDIS_URL } from './support/process.js';
import { startTestServer, type TestServer } from './support/server.js';
import { sleep } from './support/wait.js';

const USER = 'query ($id: ID!) { user(id: $id) { id name } }';
const userUrl = (id: string) => `/graphql?${new URLSearchParams({ query: USER, variables: JSON.stringify({ id }) })}`;

let a: TestServer;
let b: TestServer;
const proxy = tcpProxy(TEST_REDIS_URL);

beforeAll(async () => {
  const redisUrl = await proxy.listen();
  a = await startTestServer({ env: { ...NO_RATE_LIMITS, REDIS_URL: redisUrl } });
  b = await startTestServer({ env: { ...NO_RATE_LIMITS, REDIS_URL: redisUrl }, reuse: { dataDir: a.config.dataDir, databaseUrl: a.databaseUrl } });
});
afterAll(async () => {
  proxy.restore();
  await b?.stop();
  await a?.stop();
  await proxy.close();
});

it('a rename committed while Redis is away is never followed by the old name once Redis is back', async () => {
  const onA = client(a.url);
  const onB = client(b.url);
  const { token } = await onA.login('grace@example.com', 'hopper-1906');
  const me = (await onA.get('/api/v1/user/me', { token })).body as { id: string; name: string };
  const url = userUrl(me.id);
  const first = await onB.get(url);
  expect(first.body.data.user.name).toBe(me.name);
  // Cached in Redis, for both instances.
  expect((await onA.get(url, { headers: { 'if-none-match': first.headers.get('etag')! } })).status).toBe(304);

  proxy.cut();
  const name = `Grace ${Date.now()}`;
  expect((await onA.patch('/api/v1/user/me', { name }, { token })).status).toBe(200);
  // While Redis is away, reads are answered from the database.
  expect((await onB.get(url)).body.data.user.name).toBe(name);
  proxy.restore();

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
