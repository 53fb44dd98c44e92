// Wake on commit: the transaction that records an event NOTIFYs and every instance's relay positions
// it at once; idle, a relay looks only every FALLBACK_POLL_MS. Checked by an idle instance's
// statements, and by a subscriber on instance B getting events committed through A well within half
// that interval (with Redis, without it, and on PGlite).
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { describe, expect } from 'vitest';
import { FALLBACK_POLL_MS } from '../src/modules/events/relay.js';
import { instancesTest, serverTestOn } from './support/fixtures.js';
import { client } from './support/http.js';
import { sql, type TestServer } from './support/server.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { TEST_REDIS_URL } from './support/process.js';
import { sleep, waitFor } from './support/wait.js';

/** How long an event may take to reach a subscriber: well under the fallback poll. */
const PROMPT_MS = FALLBACK_POLL_MS / 2;
/** An idle instance is watched this long. */
const IDLE_WINDOW_MS = 10_000;
const SLOW = { timeout: 180_000 };

interface Live {
  paths: string[];
  close(): Promise<void>;
}

/** A WebSocket subscriber on `server`, recording the paths of the page views it receives. */
async function subscribe(server: TestServer): Promise<Live> {
  const { token } = await client(server.url).loginAs('grace');
  const ws = createClient({ url: `${server.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` } });
  const live: Live = {
    paths: [],
    close: async () => {
      await ws.dispose();
    },
  };
  ws.subscribe<{ events: { path: string | null } }>(
    { query: 'subscription { events(types: ["analytics.hit"]) { path } }' },
    { next: (r) => void (r.data?.events.path && live.paths.push(r.data.events.path)), error: () => undefined, complete: () => undefined },
  );
  return live;
}

/** Page views through `via` until `live` has received one: it is listening. */
async function goLive(via: TestServer, live: Live): Promise<void> {
  const prefix = `/probe/${randomBytes(4).toString('hex')}`;
  for (let i = 0; !live.paths.some((p) => p.startsWith(prefix)); i++) {
    if (i > 100) throw new Error('the subscription never went live');
    expect((await client(via.url).post('/api/analytics/views', { path: `${prefix}/${i}` })).status).toBe(202);
    await sleep(200);
  }
}

/** A token per server, for the WebSockets below (a WebSocket must sign in). */
const wsTokens = new WeakMap<TestServer, Promise<string>>();
const wsTokenFor = (server: TestServer) => {
  let token = wsTokens.get(server);
  if (!token) wsTokens.set(server, (token = client(server.url).loginAs('grace').then((t) => t.token)));
  return token;
};

/** Records a page view with the GraphQL mutation over a WebSocket of its own (no HTTP request for the view). */
async function recordOverWebSocket(via: TestServer, path: string): Promise<void> {
  const authorization = `Bearer ${await wsTokenFor(via)}`;
  const ws = createClient({ url: `${via.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization }, lazy: true });
  try {
    const result = await new Promise<unknown>((resolve, reject) => {
      ws.subscribe({ query: 'mutation($path: String!) { recordPageView(path: $path) }', variables: { path } }, { next: resolve, error: reject, complete: () => undefined });
    });
    expect(result).toEqual({ data: { recordPageView: true } });
  } finally {
    await ws.dispose();
  }
}

/**
 * Commits page views through `via`, one at a time (over HTTP, or as a WebSocket mutation), each
 * reaching `live` promptly; returns how many did.
 */
async function promptArrivals(via: TestServer, live: Live, { rounds = 8, webSocket = false } = {}): Promise<number> {
  let prompt = 0;
  for (let i = 0; i < rounds; i++) {
    const path = `/wake/${randomBytes(4).toString('hex')}`;
    if (webSocket) await recordOverWebSocket(via, path);
    else expect((await client(via.url).post('/api/analytics/views', { path })).status).toBe(202);
    const deadline = Date.now() + PROMPT_MS;
    while (!live.paths.includes(path) && Date.now() < deadline) await sleep(10);
    if (live.paths.includes(path)) prompt++;
    // It does arrive in the end in any case (the fallback poll), before the next round starts.
    await waitFor(`${path} to arrive`, () => live.paths.includes(path), 3 * FALLBACK_POLL_MS);
  }
  return prompt;
}

/**
 * Until the page-view fold has folded the views goLive recorded (all committed before this is
 * called): two of its looks in a row with no fold between them, so the first found nothing left.
 * Its interval backs off to 10 s when idle, so those views could otherwise be folded inside the
 * idle window.
 */
async function foldCaughtUp(server: TestServer): Promise<void> {
  const from = server.queries.length;
  const isLook = (q: string) => q.includes('FROM "PageView") >=');
  await waitFor('the page-view fold to catch up', () => {
    const fold = server.queries.slice(from).filter((q) => isLook(q) || q.includes('SET watermark'));
    return fold.length >= 2 && fold.slice(-2).every(isLook);
  }, 30_000);
}

/** The statements an instance sent while idle: per second, in all and the relay's own. */
async function idleStatements(server: TestServer): Promise<{ perSecond: number; relayPerSecond: number }> {
  server.queries.length = 0;
  await sleep(IDLE_WINDOW_MS);
  const seconds = IDLE_WINDOW_MS / 1000;
  const statements = [...server.queries];
  // The relay's look (and what follows it only when there is something to position), and its
  // look for deliveries a dead relay left stranded.
  const relay = statements.filter((q) => q.includes('position IS NULL') || (q.includes('UPDATE "public"."WebhookDelivery"') && q.includes('"createdAt" <')));
  const byKind = new Map<string, number>();
  for (const q of statements) {
    const kind = q.replace(/\s+/g, ' ').trim().slice(0, 60);
    byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
  }
  console.info(`${server.kind}: ${statements.length} statements in ${seconds} s idle:\n${[...byKind].map(([k, n]) => `  ${n} × ${k}`).join('\n')}`);
  return { perSecond: statements.length / seconds, relayPerSecond: relay.length / seconds };
}

const idle = serverTestOn({ env: NO_RATE_LIMITS });

describe.each(['postgres', 'pglite'] as const)('an idle instance on %s', (kind) => {
  const it = idle[kind];

  it('looks for events at most once a second, and an event still reaches a subscriber promptly', SLOW, async ({ server }) => {
    const live = await subscribe(server);
    try {
      await goLive(server, live);
      await foldCaughtUp(server);
      const { perSecond, relayPerSecond } = await idleStatements(server);
      expect(relayPerSecond).toBeLessThanOrEqual(1);
      // The whole instance: the relay, the webhook dispatcher (it polls each second when idle)
      // and the page-view fold. A relay still polling every 50 ms would send 20 a second.
      expect(perSecond).toBeLessThanOrEqual(2);
      expect(await promptArrivals(server, live)).toBe(8);
      // A change that came by WebSocket wakes the relay too: no HTTP request answered it.
      expect(await promptArrivals(server, live, { webSocket: true })).toBe(8);
    } finally {
      await live.close();
    }
  });
});

describe.each([
  { name: 'with Redis', it: instancesTest({ env: { ...NO_RATE_LIMITS, REDIS_URL: TEST_REDIS_URL } }) },
  { name: 'without Redis', it: instancesTest({ env: NO_RATE_LIMITS }) },
])('two instances on one PostgreSQL database, $name', ({ it }) => {
  it('a subscriber on B gets each event committed through A promptly, in commit order', SLOW, async ({ a, b }) => {
    const onB = await subscribe(b);
    try {
      await goLive(a, onB);
      const from = onB.paths.length;
      expect(await promptArrivals(a, onB)).toBe(8);
      // In commit order, once each.
      const stored = await sql<{ path: string }>(a, `SELECT payload->>'path' AS path FROM "Event" WHERE payload->>'path' LIKE '/wake/%' ORDER BY position`);
      expect(onB.paths.slice(from).filter((p) => p.startsWith('/wake/'))).toEqual(stored.map((r) => r.path));
    } finally {
      await onB.close();
    }
  });
});
