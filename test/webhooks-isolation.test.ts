// Endpoint isolation over real HTTP: a receiver that accepts connections and never answers, or
// one that asks to be left alone (429 + Retry-After), beside a healthy receiver, with events
// committed through the API. The healthy endpoint must not notice its neighbour.
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect } from 'vitest';
import { newId } from '../src/ids.js';
import { serverTestOn } from './support/fixtures.js';
import type { Client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { startReceiver } from './support/receiver.js';
import { DATABASES } from './support/server.js';
import { sleep, waitFor as waitUntil } from './support/wait.js';

/**
 * How long to wait for something the worker does. Generous: the event relay positions an event only
 * once every older transaction on the PostgreSQL server has ended (txid_snapshot_xmin is server-wide),
 * so a long transaction in another database on a shared server holds every delivery back.
 */
const WAIT_MS = 60_000;
const waitFor = <T,>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, ms = WAIT_MS) => waitUntil(what, check, ms);

/** The scenario: 200+ events beside a dead endpoint. */
const EVENTS = 240;
/**
 * The attempt timeout here: longer than the whole run, so the dead receiver's first attempts are
 * still held open when the last healthy delivery arrives. A healthy delivery queued behind a dead
 * attempt could only arrive after that attempt ended, so "all arrived while none of the dead
 * attempts had ended" is isolation, whatever the machine's speed. How far behind its event a
 * healthy delivery arrives (the p95 ≤ 2 s on the default 10 s timeout) is a figure for
 * `npm run bench`, not a test.
 */
const TIMEOUT_MS = 150_000;
/** The share of the attempts in flight one endpoint gets per process (dispatch/endpoint-shares.ts ENDPOINT_SHARE). */
const ENDPOINT_SHARE = 64;
const RETRY_AFTER_S = 8;
/**
 * Events are committed at a steady pace, as a live service sees them: as fast as possible, on a
 * loaded two-core machine, PGlite's one connection makes committing them the bottleneck, not delivery.
 */
const EVENTS_PER_SECOND = 60;

interface Delivery {
  id: string;
  eventId: string;
  status: string;
  attempts: { at: string; statusCode: number | null }[];
}

/** A receiver that accepts every connection, reads what it is sent, and never answers. */
async function silent(): Promise<{ url: string; open: () => number; maxOpen: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let maxOpen = 0;
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    maxOpen = Math.max(maxOpen, sockets.size);
    socket.on('data', () => {});
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    open: () => sockets.size,
    maxOpen: () => maxOpen,
    // Its sockets reset: the attempts waiting on them end now instead of at their timeout.
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.resetAndDestroy();
        server.close(() => resolve());
      }),
  };
}

const tests = serverTestOn({ env: { ...NO_RATE_LIMITS, WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) } });

describe.each(DATABASES)('webhook endpoint isolation on %s', (kind) => {
  const it = tests[kind];
  // The fixture's client and ADMIN token, for the helpers below.
  let api: Client;
  let ada: string;
  const cleanups: (() => Promise<unknown>)[] = [];
  it.beforeAll(({ api: itsClient, ada: adaToken }) => {
    [api, ada] = [itsClient, adaToken];
  });
  it.afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  async function endpoint(url: string): Promise<string> {
    const created = await api.post('/api/v1/webhooks', { url, events: ['analytics.hit'] }, { token: ada });
    expect(created.status, created.text).toBe(201);
    const { id } = created.body as { id: string };
    cleanups.push(() => api.delete(`/api/v1/webhooks/${id}`, { token: ada }));
    return id;
  }

  /** Commits `n` analytics.hit events through the API, a few requests at a time, at most EVENTS_PER_SECOND. */
  async function pageViews(n: number): Promise<void> {
    let next = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < n) {
          const due = started + (next++ / EVENTS_PER_SECOND) * 1000;
          if (due > Date.now()) await sleep(due - Date.now());
          const reply = await api.post('/api/analytics/views', { path: `/${newId('doc')}` });
          expect(reply.status, reply.text).toBeLessThan(300);
        }
      }),
    );
  }

  async function deliveries(endpointId: string): Promise<Delivery[]> {
    const reply = await api.get(`/api/v1/webhooks/${endpointId}/deliveries?limit=100`, { token: ada });
    expect(reply.status, reply.text).toBe(200);
    return (reply.body as { items: Delivery[] }).items;
  }

  it(`a receiver that never answers delays only itself: all ${EVENTS} healthy deliveries arrive while its attempts still hang`, { timeout: 180_000 }, async () => {
    const dead = await silent();
    cleanups.push(() => dead.close());
    const healthy = await startReceiver();
    cleanups.push(() => healthy.close());
    const deadId = await endpoint(dead.url);
    await endpoint(healthy.url);

    await pageViews(EVENTS);
    await waitFor(`all ${EVENTS} healthy deliveries`, () => new Set(healthy.hits.map((h) => h.headers['webhook-id'])).size >= EVENTS);

    expect(healthy.hits).toHaveLength(EVENTS);
    // Every attempt the silent receiver was sent is still waiting on it: none has ended, none
    // freed a slot that a healthy delivery could have been waiting for.
    expect(dead.maxOpen()).toBeGreaterThan(0);
    expect(dead.open()).toBe(dead.maxOpen());
    expect((await deliveries(deadId)).flatMap((d) => d.attempts)).toEqual([]);
    // It held no more than its endpoint's share of connections.
    expect(dead.maxOpen()).toBeLessThanOrEqual(ENDPOINT_SHARE);
  });

  it('a 429 with Retry-After slows that endpoint alone, and its deliveries all arrive after it', { timeout: 120_000 }, async () => {
    const throttled = await startReceiver((_hit, n) => (n === 1 ? { status: 429, headers: { 'retry-after': String(RETRY_AFTER_S) } } : { status: 200 }));
    cleanups.push(() => throttled.close());
    const healthy = await startReceiver();
    cleanups.push(() => healthy.close());
    const throttledId = await endpoint(throttled.url);
    await endpoint(healthy.url);

    await pageViews(1);
    await waitFor('the 429', () => throttled.hits.length === 1 && healthy.hits.length === 1);
    const [asked] = await waitFor('the 429 recorded', async () => {
      const items = await deliveries(throttledId);
      return items[0]?.attempts.length ? items : undefined;
    });
    const throttledAt = Date.parse(asked!.attempts[0]!.at);

    // More events while the endpoint is throttled: the healthy endpoint gets them all meanwhile.
    await pageViews(10);
    await waitFor('the healthy deliveries', () => healthy.hits.length === 11);
    await waitFor('the throttled deliveries', () => new Set(throttled.hits.map((h) => h.headers['webhook-id'])).size === 11);
    const resumed = throttled.hits[1]!.at;
    expect(healthy.hits.every((h) => h.at < resumed)).toBe(true);

    // Not one of the throttled endpoint's deliveries was attempted before its Retry-After ran out.
    const items = await waitFor('all SUCCEEDED', async () => {
      const all = await deliveries(throttledId);
      return all.length === 11 && all.every((d) => d.status === 'SUCCEEDED') ? all : undefined;
    });
    for (const d of items) {
      const attempts = d.id === asked!.id ? d.attempts.slice(1) : d.attempts;
      for (const a of attempts) expect(Date.parse(a.at)).toBeGreaterThanOrEqual(throttledAt + RETRY_AFTER_S * 1000);
    }
    expect(items.find((d) => d.id === asked!.id)!.attempts.map((a) => a.statusCode)).toEqual([429, 200]);
    await sleep(200);
    expect(throttled.hits.filter((h) => h.status === 429)).toHaveLength(1);
  });
});
