// The webhook delivery worker over real HTTP: endpoints made through the admin API, events caused
// through the API, real receivers (node:http on 127.0.0.1), outcomes read back from the API and
// the database. Short retry schedules and timeouts come from the environment, as in production.
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newId } from '../src/ids.js';
import { postOnce, PrivateTargetError } from '../src/modules/webhooks/http-post.js';
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from '../src/modules/webhooks/retry-after.js';
import { serverAndReceiverTest, serverTestOn, startForDescribe } from './support/fixtures.js';
import type { Client } from './support/http.js';
import { DATABASES, sql, type TestServer } from './support/server.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { startReceiver, type Answer, type Delivery, type Hit, type Receiver } from './support/receiver.js';
import { freePort, sleep, waitFor } from './support/wait.js';

const SCHEDULE_MS = [100, 200, 300];
/** Generous enough that a loaded machine does not time out a healthy receiver. */
const TIMEOUT_MS = 1_000;
const ENV = { ...NO_RATE_LIMITS, WEBHOOK_RETRY_SCHEDULE: SCHEDULE_MS.map((ms) => `${ms}ms`).join(','), WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) };

// Each describe's server runs only while it does: the timing-sensitive tests here (a receiver's
// timeout, a retry's schedule) are not to share the machine with the file's other servers.
const delivery = serverTestOn({ env: ENV }, { per: 'describe' });
const refusing = serverAndReceiverTest({ kind: 'postgres', env: { ...ENV, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } }, { per: 'describe' });
const stranded = serverAndReceiverTest({ kind: 'postgres', env: ENV }, { per: 'describe' });

describe.each(DATABASES)('webhook delivery on %s', (kind) => {
  const it = delivery[kind];
  let server: TestServer;
  let api: Client;
  let ada: string;
  const cleanups: (() => Promise<unknown>)[] = [];

  startForDescribe(it);
  it.beforeAll(({ server: started, api: itsClient, ada: adaToken }) => {
    server = started;
    api = itsClient;
    ada = adaToken;
  });
  it.afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  async function receiver(respond?: (hit: Hit, n: number) => Answer, port?: number): Promise<Receiver> {
    const r = await startReceiver(respond, { port });
    cleanups.push(() => r.close());
    return r;
  }

  /** An endpoint for `url` made through the admin API; deleted when the file ends. */
  async function endpoint(url: string, events = ['analytics.hit']): Promise<{ id: string; secret: string }> {
    const created = await api.post('/api/v1/webhooks', { url, events }, { token: ada });
    expect(created.status, created.text).toBe(201);
    const { id, secret } = created.body as { id: string; secret: string };
    cleanups.push(() => api.delete(`/api/v1/webhooks/${id}`, { token: ada }));
    return { id, secret };
  }

  /** Causes an analytics.hit event for a path no other test uses; returns the path. */
  async function pageView(): Promise<string> {
    const path = `/${newId('doc')}`;
    const reply = await api.post('/api/analytics/views', { path });
    expect(reply.status, reply.text).toBeLessThan(300);
    return path;
  }

  async function deliveries(endpointId: string): Promise<Delivery[]> {
    const reply = await api.get(`/api/v1/webhooks/${endpointId}/deliveries?limit=100`, { token: ada });
    expect(reply.status, reply.text).toBe(200);
    return (reply.body as { items: Delivery[] }).items;
  }

  /** Waits until the endpoint's only delivery satisfies `done`, and returns it. */
  async function onlyDelivery(endpointId: string, what: string, done: (d: Delivery) => boolean, ms?: number): Promise<Delivery> {
    return waitFor(what, async () => {
      const items = await deliveries(endpointId);
      expect(items.length).toBeLessThanOrEqual(1);
      return items[0] && done(items[0]) ? items[0] : undefined;
    }, ms);
  }

  it('sends the flat payload, signed per Standard Webhooks, with the event id as webhook-id', async () => {
    const rx = await receiver();
    const { id, secret } = await endpoint(rx.url);
    const path = await pageView();
    const hit = await waitFor('the delivery', () => rx.hits[0]);

    // As a receiver would: the library verifies the exact bytes and headers it got.
    const verified = new Webhook(secret).verify(hit.body, hit.headers) as Record<string, unknown>;
    expect(verified).toEqual({ event: 'analytics.hit', timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), path });
    expect(JSON.parse(hit.body)).toEqual(verified);
    // In the contract's order, whatever order the database keeps the keys in.
    expect(Object.keys(JSON.parse(hit.body) as object)).toEqual(['event', 'timestamp', 'path']);
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['user-agent']).toBe('Learnstream-Webhooks/1');
    expect(hit.headers['webhook-id']).toMatch(/^evt_/);
    expect(hit.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(Math.abs(Number(hit.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    // Another secret does not verify it.
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(hit.body, hit.headers)).toThrow();

    const d = await onlyDelivery(id, 'SUCCEEDED', (x) => x.status === 'SUCCEEDED');
    expect(d.eventId).toBe(hit.headers['webhook-id']);
    expect(d.event).toBe('analytics.hit');
    expect(d.nextAttemptAt).toBeNull();
    expect(d.attempts).toEqual([{ at: expect.any(String), statusCode: 200, durationMs: expect.any(Number), error: null }]);
    if (kind === 'postgres') {
      const [event] = await sql<{ id: string; payload: unknown }>(server, `SELECT id, payload FROM "Event" WHERE id = $1`, [hit.headers['webhook-id']]);
      expect(event?.payload).toEqual(verified);
    }
    await sleep(300);
    expect(rx.hits).toHaveLength(1);
  });

  it('receiver down (connection refused), then up: delivered on a retry', async () => {
    const port = await freePort();
    const { id, secret } = await endpoint(`http://127.0.0.1:${port}/hook`);
    await pageView();
    const refused = await onlyDelivery(id, 'a refused attempt', (d) => d.attempts.length >= 1);
    expect(refused.attempts[0]).toMatchObject({ statusCode: null, error: 'connection refused' });
    expect(refused.status).toBe('PENDING');

    const rx = await receiver(undefined, port);
    const d = await onlyDelivery(id, 'SUCCEEDED', (x) => x.status === 'SUCCEEDED');
    expect(d.attempts.at(-1)).toMatchObject({ statusCode: 200, error: null });
    expect(d.attempts.slice(0, -1).every((a) => a.error === 'connection refused')).toBe(true);
    expect(rx.hits).toHaveLength(1);
    expect(() => new Webhook(secret).verify(rx.hits[0]!.body, rx.hits[0]!.headers)).not.toThrow();
  });

  it('a slow receiver times out, the timeout is recorded, and the retry succeeds', async () => {
    const rx = await receiver((_hit, n) => (n === 1 ? { status: 200, delayMs: TIMEOUT_MS + 1_500 } : { status: 200 }));
    const { id } = await endpoint(rx.url);
    await pageView();
    const d = await onlyDelivery(id, 'SUCCEEDED', (x) => x.status === 'SUCCEEDED');
    expect(d.attempts).toHaveLength(2);
    expect(d.attempts[0]).toMatchObject({ statusCode: null, error: `timed out after ${TIMEOUT_MS} ms` });
    expect(d.attempts[0]!.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(d.attempts[0]!.durationMs).toBeLessThan(TIMEOUT_MS + 1_000);
    expect(d.attempts[1]).toMatchObject({ statusCode: 200, error: null });
    expect(rx.hits.map((h) => h.headers['webhook-id'])).toEqual([d.eventId, d.eventId]);
  });

  /**
   * A receiver speaking raw HTTP: it answers every request with `reply` once the request's headers
   * are in, and keeps the connection open (only what it wrote arrives).
   */
  async function rawReceiver(reply: string): Promise<{ url: string; hits: () => number }> {
    const sockets = new Set<Socket>();
    let hits = 0;
    const tcp = createTcpServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
      let head = '';
      socket.on('data', (chunk) => {
        if (head.includes('\r\n\r\n')) return;
        head += chunk.toString('latin1');
        if (!head.includes('\r\n\r\n')) return;
        hits++;
        socket.write(reply);
      });
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          for (const s of sockets) s.destroy();
          tcp.close(() => resolve());
        }),
    );
    return { url: `http://127.0.0.1:${(tcp.address() as AddressInfo).port}/hook`, hits: () => hits };
  }

  it('101 Switching Protocols is a failed attempt like any other answer, retried on the schedule until FAILED', async () => {
    // Node makes no 'response' of a 101: the attempt used to wait forever, unrecorded, holding its
    // slot (enough such receivers stopped every delivery).
    const rx = await rawReceiver('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
    const { id } = await endpoint(rx.url);
    await pageView();
    const d = await onlyDelivery(id, 'FAILED', (x) => x.status === 'FAILED');
    expect(d.attempts).toHaveLength(SCHEDULE_MS.length + 1);
    for (const a of d.attempts) expect(a).toMatchObject({ statusCode: 101, error: 'receiver answered 101' });
    expect(rx.hits()).toBe(SCHEDULE_MS.length + 1);
  });

  it('a 2xx whose body never ends is a success: its status came within the timeout', async () => {
    const rx = await rawReceiver('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n');
    const { id } = await endpoint(rx.url);
    await pageView();
    const d = await onlyDelivery(id, 'SUCCEEDED', (x) => x.status === 'SUCCEEDED', 15_000);
    expect(d.attempts).toHaveLength(1);
    expect(d.attempts[0]).toMatchObject({ statusCode: 200, error: null });
    await sleep(TIMEOUT_MS + 500);
    expect(rx.hits()).toBe(1);
  });

  it('500 then 200: SUCCEEDED with both attempts recorded, on the schedule', async () => {
    const rx = await receiver((_hit, n) => (n === 1 ? { status: 500, body: 'boom:\u0000 the receiver\r\nbroke' } : { status: 200 }));
    const { id } = await endpoint(rx.url);
    await pageView();
    const d = await onlyDelivery(id, 'SUCCEEDED', (x) => x.status === 'SUCCEEDED');
    expect(d.attempts.map((a) => a.statusCode)).toEqual([500, 200]);
    // The excerpt of the body is one line, without the NUL PostgreSQL could not store.
    expect(d.attempts[0]!.error).toBe('receiver answered 500: boom: the receiver broke');
    expect(d.attempts[1]!.error).toBeNull();
    for (const a of d.attempts) expect(a.durationMs).toBeGreaterThanOrEqual(0);
    // The second attempt waited at least the first scheduled delay.
    expect(Date.parse(d.attempts[1]!.at) - Date.parse(d.attempts[0]!.at)).toBeGreaterThanOrEqual(SCHEDULE_MS[0]!);
    expect(d.nextAttemptAt).toBeNull();
    expect(rx.hits).toHaveLength(2);
  });

  it("429 with Retry-After: 1 waits at least a second, longer than the schedule's 100 ms", async () => {
    const rx = await receiver((_hit, n) => (n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 204 }));
    const { id } = await endpoint(rx.url);
    await pageView();
    const waiting = await onlyDelivery(id, 'the 429', (x) => x.attempts.length === 1);
    expect(waiting.status).toBe('PENDING');
    expect(Date.parse(waiting.nextAttemptAt!) - Date.parse(waiting.attempts[0]!.at)).toBeGreaterThanOrEqual(1_000);
    const d = await onlyDelivery(id, 'SUCCEEDED', (x) => x.status === 'SUCCEEDED');
    expect(d.attempts.map((a) => a.statusCode)).toEqual([429, 204]);
    expect(Date.parse(d.attempts[1]!.at) - Date.parse(d.attempts[0]!.at)).toBeGreaterThanOrEqual(1_000);
  });

  it('410 Gone disables the endpoint; nothing more is sent to it', async () => {
    const rx = await receiver(() => ({ status: 410 }));
    const { id } = await endpoint(rx.url);
    await pageView();
    const d = await onlyDelivery(id, 'FAILED', (x) => x.status === 'FAILED');
    expect(d.attempts).toEqual([{ at: expect.any(String), statusCode: 410, durationMs: expect.any(Number), error: expect.stringContaining('410') }]);
    expect(d.nextAttemptAt).toBeNull();
    const shown = await api.get(`/api/v1/webhooks/${id}`, { token: ada });
    expect(shown.body).toMatchObject({ enabled: false, disabledReason: 'receiver answered 410 Gone' });

    await pageView();
    await pageView();
    await sleep(800);
    expect(rx.hits).toHaveLength(1);
    expect(await deliveries(id)).toHaveLength(1);
  });

  it('a 302 is a failed attempt and is not followed', async () => {
    const target = await receiver();
    const rx = await receiver((_hit, n) => (n === 1 ? { status: 302, headers: { location: target.url } } : { status: 200 }));
    const { id } = await endpoint(rx.url);
    await pageView();
    const d = await onlyDelivery(id, 'SUCCEEDED', (x) => x.status === 'SUCCEEDED');
    expect(d.attempts.map((a) => a.statusCode)).toEqual([302, 200]);
    expect(d.attempts[0]!.error).toMatch(/302.*redirects are not followed/);
    expect(target.hits).toHaveLength(0);
  });

  it('schedule spent: FAILED; a retry by hand makes exactly one more attempt', async () => {
    let healthy = false;
    const rx = await receiver(() => (healthy ? { status: 200 } : { status: 503, headers: { 'retry-after': 'not a date' } }));
    const { id } = await endpoint(rx.url);
    await pageView();
    const failed = await onlyDelivery(id, 'FAILED', (x) => x.status === 'FAILED');
    // The first attempt and one per scheduled delay.
    expect(failed.attempts).toHaveLength(SCHEDULE_MS.length + 1);
    expect(failed.attempts.every((a) => a.statusCode === 503)).toBe(true);
    expect(failed.nextAttemptAt).toBeNull();
    const gaps = failed.attempts.slice(1).map((a, i) => Date.parse(a.at) - Date.parse(failed.attempts[i]!.at));
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(SCHEDULE_MS[i]!));

    const retried = await api.post(`/api/v1/webhooks/${id}/deliveries/${failed.id}/retry`, undefined, { token: ada });
    expect(retried.status, retried.text).toBe(202);
    const again = await onlyDelivery(id, 'the manual attempt', (x) => x.attempts.length === SCHEDULE_MS.length + 2 && x.status === 'FAILED');
    expect(again.attempts.at(-1)!.statusCode).toBe(503);
    await sleep(SCHEDULE_MS.at(-1)! * 2);
    expect((await deliveries(id))[0]!.attempts).toHaveLength(SCHEDULE_MS.length + 2);
    expect(rx.hits).toHaveLength(SCHEDULE_MS.length + 2);

    healthy = true;
    expect((await api.post(`/api/v1/webhooks/${id}/deliveries/${failed.id}/retry`, undefined, { token: ada })).status).toBe(202);
    const done = await onlyDelivery(id, 'SUCCEEDED', (x) => x.status === 'SUCCEEDED');
    expect(done.attempts.map((a) => a.statusCode)).toEqual([...new Array<number>(SCHEDULE_MS.length + 2).fill(503), 200]);
  });

  it('a retry by hand of a delivery that had SUCCEEDED is that one attempt: FAILED if it fails, not the rest of the schedule', async () => {
    const rx = await receiver((_hit, n) => ({ status: n === 1 ? 200 : 500 }));
    const { id } = await endpoint(rx.url);
    await pageView();
    const done = await onlyDelivery(id, 'SUCCEEDED', (x) => x.status === 'SUCCEEDED');
    expect((await api.post(`/api/v1/webhooks/${id}/deliveries/${done.id}/retry`, undefined, { token: ada })).status).toBe(202);
    const failed = await onlyDelivery(id, 'FAILED', (x) => x.status === 'FAILED');
    expect(failed.attempts.map((a) => a.statusCode)).toEqual([200, 500]);
    expect(failed.nextAttemptAt).toBeNull();
    await sleep(SCHEDULE_MS.reduce((a, b) => a + b) * 2);
    expect(rx.hits).toHaveLength(2);
  });

  it('recovering a delivery a 410 failed is one attempt, FAILED again if it fails', async () => {
    const rx = await receiver((_hit, n) => ({ status: n === 1 ? 410 : 500 }));
    const { id } = await endpoint(rx.url);
    await pageView();
    await onlyDelivery(id, 'FAILED by the 410', (x) => x.status === 'FAILED');
    expect((await api.patch(`/api/v1/webhooks/${id}`, { enabled: true }, { token: ada })).status).toBe(200);
    const recovered = await api.post(`/api/v1/webhooks/${id}/recover`, { since: '2000-01-01' }, { token: ada });
    expect(recovered.body).toEqual({ count: 1 });
    const again = await onlyDelivery(id, 'FAILED again', (x) => x.status === 'FAILED' && x.attempts.length === 2);
    expect(again.attempts.map((a) => a.statusCode)).toEqual([410, 500]);
    await sleep(SCHEDULE_MS.reduce((a, b) => a + b) * 2);
    expect(rx.hits).toHaveLength(2);
  });

  it("an ADMIN's retry, test or recovery goes out at once, lifting the throttle a receiver's Retry-After set", async () => {
    const rx = await receiver((_hit, n) => (n === 1 ? { status: 503, headers: { 'retry-after': '3600' } } : { status: 200 }));
    const { id } = await endpoint(rx.url);
    await pageView();
    const throttled = await onlyDelivery(id, 'the throttled attempt', (x) => x.attempts.length === 1);
    expect(throttled.status).toBe('PENDING');
    expect(Date.parse(throttled.nextAttemptAt!)).toBeGreaterThan(Date.now() + 3_000_000);
    // Held back by the hour it asked for...
    await sleep(1_000);
    expect(rx.hits).toHaveLength(1);
    // ...until asked for by hand.
    expect((await api.post(`/api/v1/webhooks/${id}/deliveries/${throttled.id}/retry`, undefined, { token: ada })).status).toBe(202);
    const done = await onlyDelivery(id, 'SUCCEEDED', (x) => x.status === 'SUCCEEDED', 10_000);
    expect(done.attempts.map((a) => a.statusCode)).toEqual([503, 200]);
  });

  it('the test ping arrives signed, as webhook.test, with its own evt_ id, to that endpoint only', async () => {
    const rx = await receiver();
    const other = await receiver();
    const { id, secret } = await endpoint(rx.url, ['lesson.published']);
    await endpoint(other.url, ['lesson.published']);
    const queued = await api.post(`/api/v1/webhooks/${id}/test`, undefined, { token: ada });
    expect(queued.status, queued.text).toBe(202);
    const hit = await waitFor('the ping', () => rx.hits[0]);
    const body = new Webhook(secret).verify(hit.body, hit.headers);
    expect(body).toEqual({ event: 'webhook.test', timestamp: expect.any(String) });
    expect(hit.headers['webhook-id']).toMatch(/^evt_/);
    expect(hit.headers['webhook-id']).toBe((queued.body as Delivery).eventId);
    const d = await onlyDelivery(id, 'SUCCEEDED', (x) => x.status === 'SUCCEEDED');
    expect(d.event).toBe('webhook.test');
    await sleep(300);
    expect(other.hits).toHaveLength(0);
  });

  it('user.updated from PATCH /api/v1/user/me reaches a user.updated endpoint only', async () => {
    const users = await receiver();
    const hits = await receiver();
    const { secret } = await endpoint(users.url, ['user.updated']);
    await endpoint(hits.url, ['lesson.updated']);
    const me = await api.get('/api/v1/user/me', { token: ada });
    const patched = await api.patch('/api/v1/user/me', { name: 'Ada King' }, { token: ada });
    expect(patched.status, patched.text).toBe(200);
    const hit = await waitFor('user.updated', () => users.hits[0]);
    expect(new Webhook(secret).verify(hit.body, hit.headers)).toEqual({ event: 'user.updated', timestamp: expect.any(String), userId: me.body.id });
    await sleep(300);
    expect(hits.hits).toHaveLength(0);
  });
});

describe('private targets refused at delivery time (WEBHOOK_ALLOW_PRIVATE_TARGETS=false)', () => {
  const it = refusing;
  startForDescribe(it);

  it('an endpoint saved before (or around) the guard is still refused, and the receiver gets nothing', async ({ server, api, ada, rx }) => {
    // Creating it through the API is refused, so the row is written as an older version might have.
    expect((await api.post('/api/v1/webhooks', { url: rx.url, events: ['analytics.hit'] }, { token: ada })).status).toBe(400);
    const id = newId('whk');
    await sql(server, `INSERT INTO "WebhookEndpoint" (id, url, events, secret, "updatedAt") VALUES ($1, $2, $3, $4, now())`, [
      id, rx.url, ['analytics.hit'], `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
    ]);
    expect((await api.post('/api/analytics/views', { path: '/private' })).status).toBeLessThan(300);
    const d = await waitFor('FAILED', async () => {
      const items = (await api.get(`/api/v1/webhooks/${id}/deliveries`, { token: ada })).body.items as Delivery[];
      return items[0]?.status === 'FAILED' ? items[0] : undefined;
    });
    expect(d.attempts).toHaveLength(SCHEDULE_MS.length + 1);
    for (const a of d.attempts) {
      expect(a.statusCode).toBeNull();
      expect(a.error).toMatch(/^refused: url: must not target a private, loopback or link-local address \(127\.0\.0\.1\)/);
    }
    expect(rx.hits).toHaveLength(0);
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads delay-seconds and HTTP-dates, caps at 24 h, ignores what it cannot read', () => {
    expect(parseRetryAfter('1', now)).toBe(1_000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('999999', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter('Sat, 01 Jan 2028 00:00:00 GMT', now)).toBe(MAX_RETRY_AFTER_MS);
    for (const bad of [null, undefined, '', '-1', '1.5', 'soon', 'not a date']) expect(parseRetryAfter(bad, now)).toBeUndefined();
  });
});

describe('connect-time address check (DNS rebinding)', () => {
  // The URL guard checks the name before each attempt; postOnce checks again the addresses the
  // socket actually connects to, so a name that changes its answer in between is still refused.
  it('refuses a name that resolves to a private address at connect time, and sends nothing', async () => {
    const rx = await startReceiver();
    try {
      const url = `http://localhost:${rx.port}/hook`;
      const options = { headers: { 'content-type': 'application/json' }, body: '{}', maxResponseBytes: 1024 };
      await expect(postOnce(url, { ...options, signal: AbortSignal.timeout(5_000), allowPrivateTargets: false })).rejects.toBeInstanceOf(PrivateTargetError);
      expect(rx.hits).toHaveLength(0);
      // The control: allowed, the same name is reached.
      const reply = await postOnce(url, { ...options, signal: AbortSignal.timeout(5_000), allowPrivateTargets: true });
      expect(reply.status).toBe(200);
      expect(rx.hits).toHaveLength(1);
    } finally {
      await rx.close();
    }
  });

  it('reads at most the cap of a large response body', async () => {
    const rx = await startReceiver(() => ({ status: 500, body: 'x'.repeat(1_000_000) }));
    try {
      const reply = await postOnce(rx.url, {
        headers: {}, body: '{}', maxResponseBytes: 64 * 1024, signal: AbortSignal.timeout(5_000), allowPrivateTargets: true,
      });
      expect(reply.status).toBe(500);
      expect(reply.body.length).toBeLessThanOrEqual(64 * 1024);
    } finally {
      await rx.close();
    }
  });
});

describe('deliveries a relay left stranded (PostgreSQL)', () => {
  const it = stranded;
  startForDescribe(it);

  it('a relay killed between its commit and making the delivery due: a live one sends it within seconds', async ({ server, api, ada, rx }) => {
    const created = await api.post('/api/v1/webhooks', { url: rx.url, events: ['analytics.hit'] }, { token: ada });
    expect(created.status, created.text).toBe(201);
    const { id: endpointId, secret } = created.body as { id: string; secret: string };
    // What the dead relay left: the event positioned, its delivery created and never made due
    // (nextAttemptAt null), as old as the relay's transaction was when the process died.
    const eventId = newId('evt');
    const payload = { event: 'analytics.hit', timestamp: new Date().toISOString(), path: '/stranded' };
    await sql(server, `INSERT INTO "Event" (id, type, payload, position) SELECT $1, 'analytics.hit', $2::jsonb, COALESCE(MAX(position), 0) + 1 FROM "Event"`, [eventId, JSON.stringify(payload)]);
    await sql(server, `INSERT INTO "WebhookDelivery" (id, "endpointId", "eventId", event, payload, "createdAt") VALUES ($1, $2, $3, 'analytics.hit', $4::jsonb, now() - interval '11 seconds')`, [
      newId('dlv'), endpointId, eventId, JSON.stringify(payload),
    ]);
    const listed = (await api.get(`/api/v1/webhooks/${endpointId}/deliveries`, { token: ada })).body.items as Delivery[];
    expect(listed.find((d) => d.eventId === eventId)).toMatchObject({ status: 'PENDING', nextAttemptAt: null, attempts: [] });

    // Well before the minute the relay's housekeeping waited.
    const hit = await waitFor('the stranded delivery sent', () => rx.hits.find((h) => h.headers['webhook-id'] === eventId), 15_000);
    expect(new Webhook(secret).verify(hit.body, hit.headers)).toEqual(payload);
    const d = await waitFor('SUCCEEDED', async () => {
      const items = (await api.get(`/api/v1/webhooks/${endpointId}/deliveries`, { token: ada })).body.items as Delivery[];
      return items.find((x) => x.eventId === eventId && x.status === 'SUCCEEDED');
    });
    expect(d.attempts).toEqual([{ at: expect.any(String), statusCode: 200, durationMs: expect.any(Number), error: null }]);
    expect(rx.hits.filter((h) => h.headers['webhook-id'] === eventId)).toHaveLength(1);
    // The operator is told a relay left work behind.
    expect(server.logs.filter((l) => /stranded/.test(String(l.msg)))).toEqual([expect.objectContaining({ level: 40, count: 1 })]);
  });
});
