// Redis that stops answering without closing its connections (a host or a proxy that froze, a
// network that drops packets, a Redis blocked by a long command): the service must keep serving as
// it does when Redis is gone (limits let requests through, the response cache misses), not hold
// every request until Redis answers again. A write made meanwhile is never followed by its old
// version once Redis answers again.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { client, type Client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { TEST_REDIS_URL } from './support/process.js';
import { startTestServer, type TestServer } from './support/server.js';

const USER = 'query ($id: ID!) { user(id: $id) { id name } }';

/** A TCP proxy in front of Redis that can stop forwarding: while paused it reads nothing in either direction. */
async function pausableProxy(target: string): Promise<{ url: string; pause(): void; resume(): void; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  let paused = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((downstream) => {
    const upstream = connect(Number(port), hostname);
    for (const [from, to] of [[downstream, upstream], [upstream, downstream]] as const) {
      sockets.add(from);
      from.on('data', (chunk) => to.write(chunk));
      from.on('error', () => {});
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
      if (paused) from.pause();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as { port: number }).port);
  return {
    url: url.toString().replace(/\/$/, ''),
    pause: () => {
      paused = true;
      for (const s of sockets) s.pause();
    },
    resume: () => {
      paused = false;
      for (const s of sockets) s.resume();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let proxy: Awaited<ReturnType<typeof pausableProxy>>;
let server: TestServer;
let api: Client;

beforeAll(async () => {
  proxy = await pausableProxy(TEST_REDIS_URL);
  server = await startTestServer({ env: { ...NO_RATE_LIMITS, REDIS_URL: proxy.url } });
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
