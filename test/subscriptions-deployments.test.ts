// Two deployments (two databases) sharing one Redis server must not hear each other's events:
// each deployment's live stream has a Redis channel of its own.
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { describe, expect } from 'vitest';
import { serversTest } from './support/fixtures.js';
import { client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { TEST_REDIS_URL } from './support/process.js';
import { sql } from './support/server.js';

const env = { REDIS_URL: TEST_REDIS_URL, ...NO_RATE_LIMITS };
const it = serversTest({ mine: { env }, other: { env } });

describe('two deployments on one Redis', () => {
  it("a subscriber hears only its own deployment's events", async ({ servers }) => {
    const { mine, other } = servers;
    const { token } = await client(mine.url).loginAs('grace');
    const ws = createClient({
      url: `${mine.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
    });
    const received: { id: string; path: string | null }[] = [];
    const done = new Promise<void>((resolve, reject) => {
      ws.subscribe<{ events: { id: string; path: string | null } }>(
        { query: 'subscription { events(types: ["analytics.hit"]) { id path } }' },
        { next: (r) => r.data && received.push(r.data.events), error: reject, complete: resolve },
      );
    });
    void done.catch(() => undefined);
    try {
      // Live once a probe comes back (a subscription does not say when it starts listening).
      const deadline = Date.now() + 15_000;
      while (!received.some((e) => e.path === '/probe')) {
        if (Date.now() > deadline) throw new Error('the subscription never went live');
        await client(mine.url).post('/api/analytics/views', { path: '/probe' });
        await new Promise((r) => setTimeout(r, 200));
      }
      const start = received.length;
      for (let i = 0; i < 5; i++) {
        expect((await client(other.url).post('/api/analytics/views', { path: '/other' })).status).toBe(202);
        expect((await client(mine.url).post('/api/analytics/views', { path: '/mine' })).status).toBe(202);
      }
      const waitUntil = Date.now() + 15_000;
      while (received.slice(start).filter((e) => e.path === '/mine').length < 5 && Date.now() < waitUntil) {
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 500));
      const after = received.slice(start);
      expect(after.map((e) => e.path)).toEqual(['/mine', '/mine', '/mine', '/mine', '/mine']);
      // And they are this deployment's events, by id.
      const stored = await sql<{ id: string }>(mine, `SELECT id FROM "Event" WHERE payload->>'path' = '/mine' ORDER BY position`);
      expect(after.map((e) => e.id)).toEqual(stored.map((r) => r.id));
    } finally {
      await ws.dispose();
    }
  });
});
