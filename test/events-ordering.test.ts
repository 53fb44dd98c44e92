// "A subscriber sees an event no later than its webhook is first attempted": the relay publishes
// an event to subscribers before it makes the event's webhook deliveries due. Checked as an order
// of receipt (which arrived first), for every event of a burst, over WebSocket and a real receiver.
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { serverTest } from './support/fixtures.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { startReceiver, type Receiver } from './support/receiver.js';

const it = serverTest({ env: NO_RATE_LIMITS });

describe('subscription before webhook', () => {
  let receiver: Receiver;
  /** The order in which each event id reached the subscriber ('sub') and the receiver ('hook'). */
  const arrivals: { id: string; via: 'sub' | 'hook' }[] = [];

  beforeAll(async () => {
    receiver = await startReceiver((hit) => {
      const id = hit.headers['webhook-id'];
      if (typeof id === 'string') arrivals.push({ id, via: 'hook' });
      return 200;
    });
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('every event reaches the subscriber before (or as) its webhook reaches the receiver', { timeout: 60_000 }, async ({ server, api }) => {
    const { token } = await api.loginAs('ada');
    const created = await api.post('/api/v1/webhooks', { url: receiver.url, events: ['analytics.hit'] }, { token });
    expect(created.status, created.text).toBe(201);

    const ws = createClient({ url: `${server.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` } });
    let live = false;
    ws.subscribe<{ events: { id: string; path: string } }>(
      { query: 'subscription { events(types: ["analytics.hit"]) { id path } }' },
      {
        next: (r) => {
          if (!r.data) return;
          if (r.data.events.path === '/probe') live = true;
          else arrivals.push({ id: r.data.events.id, via: 'sub' });
        },
        error: () => undefined,
        complete: () => undefined,
      },
    );
    try {
      const deadline = Date.now() + 15_000;
      while (!live) {
        if (Date.now() > deadline) throw new Error('the subscription never went live');
        await api.post('/api/analytics/views', { path: '/probe' });
        await new Promise((r) => setTimeout(r, 200));
      }
      arrivals.length = 0; // the probes' webhooks are not part of the measurement
      await Promise.all(Array.from({ length: 30 }, (_, i) => api.post('/api/analytics/views', { path: `/burst/${i}` })));

      const ids = () => new Set(arrivals.filter((a) => a.via === 'sub').map((a) => a.id));
      const until = Date.now() + 30_000;
      while ((ids().size < 30 || arrivals.filter((a) => a.via === 'hook' && ids().has(a.id)).length < 30) && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 100));
      }
      const subscribed = [...ids()];
      expect(subscribed).toHaveLength(30);
      for (const id of subscribed) {
        const sub = arrivals.findIndex((a) => a.id === id && a.via === 'sub');
        const hook = arrivals.findIndex((a) => a.id === id && a.via === 'hook');
        expect(hook, `webhook for ${id} arrived`).toBeGreaterThanOrEqual(0);
        expect(sub, `${id}: subscriber first`).toBeLessThan(hook);
      }
    } finally {
      await ws.dispose();
    }
  });
});
