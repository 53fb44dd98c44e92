// Redis that stops answering without closing its connections (a host or a proxy that froze, a
// network that drops packets, a Redis blocked by a long command): the service must keep serving as
// it does when Redis is gone (limits let requests through, the response cache misses), not hold
// every request until Redis answers again. A write made meanwhile is never followed by its old
// version once Redis answers again.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { client, type Client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { TEST_REDIS_URL } from './support/process.js';
import { pausableProxy, type PausableProxy } from './support/proxy.js';
import { startTestServer, type TestServer } from './support/server.js';

const USER = 'query ($id: ID!) { user(id: $id) { id name } }';

let proxy: PausableProxy;
let server: TestServer;
let api: Client;

// Bespoke: REDIS_URL is the proxy's, known only once it listens, and the proxy must outlive the
// server (a fixture's server is stopped after the file's afterAll).
beforeAll(async () => {
  const redisUrl = new URL(TEST_REDIS_URL);
  proxy = await pausableProxy(Number(redisUrl.port || 6379));
  redisUrl.hostname = '127.0.0.1';
  redisUrl.port = String(proxy.port);
  server = await startTestServer({ env: { ...NO_RATE_LIMITS, REDIS_URL: redisUrl.toString() } });
  api = client(server.url);
});
afterAll(async () => {
  proxy?.resume();
  await server?.stop();
  await proxy?.close();
});

/** A request that gives up after 20 s: a service that holds it until Redis answers never answers it. */
async function answered(path: string, init: RequestInit = {}): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- asserted field by field
  const res = await fetch(server.url + path, { ...init, signal: AbortSignal.timeout(20_000) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

it('answers reads and writes while Redis stops answering, and serves no stale result once it answers again', async () => {
  const { token } = await api.login('grace@example.com', 'hopper-1906');
  const me = (await api.get('/api/v1/user/me', { token })).body as { id: string; name: string };
  const url = `/graphql?${new URLSearchParams({ query: USER, variables: JSON.stringify({ id: me.id }) })}`;
  const cached = await api.get(url);
  expect(cached.body.data.user.name).toBe(me.name);
  expect(cached.headers.get('etag')).toBeTruthy();

  proxy.pause();
  try {
    const docs = await answered('/api/content/docs');
    expect(docs.status).toBe(200);
    const read = await answered(url);
    expect(read.status).toBe(200);
    expect(read.body.data.user.name).toBe(me.name);
    const renamed = `Grace Stalled ${Date.now()}`;
    const rename = await answered('/api/v1/user/me', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: renamed }),
    });
    expect(rename.status).toBe(200);
    expect((await answered(url)).body.data.user.name).toBe(renamed);

    proxy.resume();
    for (let i = 0; i < 3; i++) expect((await answered(url)).body.data.user.name, `read ${i}`).toBe(renamed);
  } finally {
    proxy.resume();
  }
});
