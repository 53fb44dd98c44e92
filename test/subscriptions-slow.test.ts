// A subscriber that stops reading (SSE, graphql-sse's single connection, WebSocket), its real client
// pausing its socket: it gets what was sent before it fell behind, then SUBSCRIBER_TOO_SLOW naming
// its last event, and `after` resumes with no gap; a reader that keeps up is not ended. Also
// graphql-sse reservations: unconnected ones queue like a paused reader, and expire after their TTL.
import { randomBytes } from 'node:crypto';
import { request, type IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { describe, expect } from 'vitest';
import { readSse } from '../bench/lib/sse.js';
import { serverTest } from './support/fixtures.js';
import { client, type Client } from './support/http.js';
import { sql, type TestServer } from './support/server.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { waitFor } from './support/wait.js';

// A small buffer and large events (50 aliases of a ~2 KB path: ~100 KB each), so that the kernel's
// socket buffers (a few MB on loopback) fill long before the events committed run out.
const BUFFER = 50;
/** Committed while the client is paused: ~30 MB of results, far past the kernel's buffers and the 50 held. */
const EVENTS = 300;
const SLOW = { timeout: 240_000 };
const PAD = 'x'.repeat(1900);
/** One event as the paused clients select it: ~100 KB. */
const LARGE = `subscription($after: ID) { events(after: $after) { id ${Array.from({ length: 50 }, (_, i) => `p${i}: path`).join(' ')} } }`;
const SMALL = `subscription($after: ID) { events(after: $after) { id p0: path } }`;

interface GqlError {
  message: string;
  extensions?: { code?: string; lastEventId?: string | null };
}

/** A subscription as a raw client sees it. */
interface RawSub {
  events: { id: string; path: string }[];
  errors: GqlError[];
  /** The server completed the operation. */
  completed: boolean;
  pause(): void;
  resume(): void;
  close(): void;
}

type Result = { data?: { events?: { id: string; p0: string } }; errors?: GqlError[] };

function record(sub: RawSub, result: Result): void {
  if (result.errors) sub.errors.push(...result.errors);
  const e = result.data?.events;
  if (e) sub.events.push({ id: e.id, path: e.p0 });
}

/** Pauses a response for real: no 'data', and the socket stops reading, so TCP's window closes. */
function pausable(res: () => IncomingMessage | undefined) {
  return {
    pause: () => {
      res()?.pause();
      res()?.socket.pause();
    },
    resume: () => {
      res()?.socket.resume();
      res()?.resume();
    },
  };
}

/** POST /graphql with Accept: text/event-stream (Yoga's distinct-connections SSE), over node:http. */
function sse(server: TestServer, token: string, query: string, variables: { after?: string } = {}): RawSub {
  const body = JSON.stringify({ query, variables });
  let response: IncomingMessage | undefined;
  const req = request(`${server.url}/graphql`, {
    method: 'POST',
    headers: { accept: 'text/event-stream', 'content-type': 'application/json', authorization: `Bearer ${token}`, 'content-length': Buffer.byteLength(body) },
  });
  const sub: RawSub = { events: [], errors: [], completed: false, ...pausable(() => response), close: () => req.destroy() };
  req.on('response', (res) => {
    response = res;
    readSse(res, (event, data) => {
      if (event === 'next') record(sub, JSON.parse(data) as Result);
      if (event === 'complete') sub.completed = true;
    });
  });
  req.on('error', () => {});
  req.end(body);
  return sub;
}

/** PUT /graphql/stream: a reservation's token (graphql-sse's single-connection mode). */
async function reserve(server: TestServer, token: string): Promise<string> {
  const reserved = await fetch(`${server.url}/graphql/stream`, { method: 'PUT', headers: { authorization: `Bearer ${token}` } });
  expect(reserved.status).toBe(201);
  return reserved.text();
}

/** POST an operation to a reservation: 202, its results go to the reservation's stream. */
async function sendOperation(server: TestServer, token: string, streamToken: string, query: string): Promise<void> {
  const operation = await fetch(`${server.url}/graphql/stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-graphql-event-stream-token': streamToken },
    body: JSON.stringify({ query, extensions: { operationId: 'slow' } }),
  });
  expect(operation.status).toBe(202);
}

/** GET a reservation's stream; resolves once its response has started. */
async function connectStream(server: TestServer, token: string, streamToken: string): Promise<RawSub> {
  let response: IncomingMessage | undefined;
  const req = request(`${server.url}/graphql/stream`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', 'x-graphql-event-stream-token': streamToken } });
  const sub: RawSub = { events: [], errors: [], completed: false, ...pausable(() => response), close: () => req.destroy() };
  await new Promise<void>((resolve, reject) => {
    req.on('response', (res) => {
      response = res;
      readSse(res, (event, data) => {
        if (event === 'next') record(sub, (JSON.parse(data) as { payload: Result }).payload);
        if (event === 'complete') sub.completed = true;
      });
      resolve();
    });
    req.on('error', reject);
    req.end();
  });
  return sub;
}

/** graphql-sse's single-connection mode: PUT a reservation, GET the stream, POST the operation. */
async function sseSingle(server: TestServer, token: string, query: string): Promise<RawSub> {
  const streamToken = await reserve(server, token);
  const sub = await connectStream(server, token, streamToken);
  await sendOperation(server, token, streamToken, query);
  return sub;
}

/** graphql-ws over the `ws` client, whose pause() stops reading the socket. */
async function ws(server: TestServer, token: string, query: string): Promise<RawSub> {
  const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
  const sub: RawSub = {
    events: [],
    errors: [],
    completed: false,
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    close: () => socket.terminate(),
  };
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  socket.on('message', (raw: Buffer) => {
    const message = JSON.parse(raw.toString()) as { type: string; payload?: unknown };
    if (message.type === 'next') record(sub, message.payload as Result);
    if (message.type === 'error') sub.errors.push(...(message.payload as GqlError[]));
    if (message.type === 'complete' || message.type === 'error') sub.completed = true;
  });
  const acknowledged = new Promise((resolve) => socket.on('message', (raw: Buffer) => JSON.parse(raw.toString()).type === 'connection_ack' && resolve(null)));
  socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }));
  await acknowledged;
  socket.send(JSON.stringify({ id: 'slow', type: 'subscribe', payload: { query } }));
  return sub;
}

const smallBuffer = serverTest({ env: { ...NO_RATE_LIMITS, SUBSCRIPTION_BUFFER: String(BUFFER) } });
const shortReservations = serverTest({ env: { ...NO_RATE_LIMITS, SSE_RESERVATION_TTL: '1s' } });

describe('a subscriber that stops reading', () => {
  const it = smallBuffer;
  // The fixture's server, client and grace's token, for the helpers and `it.each` bodies below.
  let server: TestServer;
  let api: Client;
  let token: string;
  const subs: RawSub[] = [];
  it.beforeAll(({ server: started, api: itsClient, grace }) => {
    [server, api, token] = [started, itsClient, grace];
  });
  it.afterAll(() => {
    for (const s of subs) s.close();
  });

  /** Page views under `prefix` until one reaches every subscriber: they are live. */
  async function goLive(all: RawSub[]): Promise<void> {
    const prefix = `/probe/${randomBytes(4).toString('hex')}`;
    for (let i = 0; !all.every((s) => s.events.some((e) => e.path.startsWith(prefix))); i++) {
      if (i > 150) throw new Error('the subscriptions never went live');
      expect((await api.post('/api/analytics/views', { path: `${prefix}/${i}` })).status).toBe(202);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Commits `n` large page views, ten at a time, and waits until the relay has positioned them all. */
  async function commitLarge(tag: string, n: number): Promise<void> {
    for (let i = 0; i < n; i += 10) {
      const replies = await Promise.all(
        Array.from({ length: Math.min(10, n - i) }, (_, j) => api.post('/api/analytics/views', { path: `/slow/${tag}/${i + j}/${PAD}` })),
      );
      expect(replies.map((r) => r.status)).toEqual(replies.map(() => 202));
    }
    await waitFor('every event positioned', async () => (await sql<{ n: number }>(server, 'SELECT count(*)::int AS n FROM "Event" WHERE position IS NULL'))[0]!.n === 0, 60_000);
  }

  /** The ids of the stored events after `afterId`, in commit order. */
  const storedAfter = async (afterId: string) =>
    (await sql<{ id: string }>(server, 'SELECT id FROM "Event" WHERE position > (SELECT position FROM "Event" WHERE id = $1) ORDER BY position', [afterId])).map((r) => r.id);

  const transports: { name: string; open(query: string): Promise<RawSub> | RawSub }[] = [
    { name: 'SSE (POST /graphql)', open: (query) => sse(server, token, query) },
    { name: 'graphql-sse single connection (/graphql/stream)', open: (query) => sseSingle(server, token, query) },
    { name: 'WebSocket (graphql-ws)', open: (query) => ws(server, token, query) },
  ];

  it.each(transports)('over $name: ended with SUBSCRIBER_TOO_SLOW naming the last event it received; `after` resumes with no gap', SLOW, async (t) => {
    const slow = await t.open(LARGE);
    // Beside it, a subscriber that keeps reading the same events (small selection).
    const reading = sse(server, token, SMALL);
    subs.push(slow, reading);
    await goLive([slow, reading]);
    const first = slow.events.at(-1)!;

    slow.pause();
    const tag = randomBytes(4).toString('hex');
    await commitLarge(tag, EVENTS);
    const ours = (s: RawSub) => s.events.filter((e) => e.path.startsWith(`/slow/${tag}/`));
    // The reader got all of them, and is still subscribed.
    await waitFor('the reading subscriber to receive every event', () => ours(reading).length === EVENTS, 60_000);
    expect(reading.errors).toEqual([]);
    expect(reading.completed).toBe(false);

    slow.resume();
    await waitFor('the slow subscriber to be ended', () => slow.completed, 60_000);
    // What it was sent before it fell behind, in commit order with no gap, then the error.
    const received = slow.events.slice(slow.events.indexOf(first));
    const expected = [first.id, ...(await storedAfter(first.id))];
    expect(received.map((e) => e.id)).toEqual(expected.slice(0, received.length));
    expect(ours(slow).length).toBeLessThan(EVENTS);
    const last = slow.events.at(-1)!;
    expect(slow.errors).toHaveLength(1);
    const [error] = slow.errors;
    expect(error!.extensions?.code).toBe('SUBSCRIBER_TOO_SLOW');
    expect(error!.extensions?.lastEventId).toBe(last.id);
    expect(error!.message).toContain(last.id);

    // Resuming after the id it was given: everything after it, once each, in order.
    const resumed = sse(server, token, SMALL, { after: error!.extensions!.lastEventId! });
    subs.push(resumed);
    const rest = await storedAfter(last.id);
    await waitFor('the resumed subscriber to catch up', () => resumed.events.length >= rest.length, 60_000);
    expect(resumed.events.map((e) => e.id)).toEqual(rest);
    expect(resumed.errors).toEqual([]);
    expect(ours(slow).length + ours(resumed).length).toBe(EVENTS);
    for (const s of [slow, reading, resumed]) s.close();
  });

  it('graphql-sse: results for a reservation whose stream has not connected wait in the event stream like a paused reader\'s (graphql-sse queued all of them)', SLOW, async () => {
    const streamToken = await reserve(server, token);
    await sendOperation(server, token, streamToken, LARGE);
    const reading = sse(server, token, SMALL);
    subs.push(reading);
    await goLive([reading]);
    const tag = randomBytes(4).toString('hex');
    await commitLarge(tag, EVENTS);
    await waitFor('the reading subscriber to receive every event', () => reading.events.filter((e) => e.path.startsWith(`/slow/${tag}/`)).length === EVENTS, 60_000);

    // Connected at last: what it gets is bounded by the buffer, then SUBSCRIBER_TOO_SLOW.
    const late = await connectStream(server, token, streamToken);
    subs.push(late);
    await waitFor('the late stream to be ended', () => late.completed, 60_000);
    expect(late.events.filter((e) => e.path.startsWith(`/slow/${tag}/`)).length).toBeLessThan(EVENTS);
    expect(late.errors.map((e) => e.extensions?.code)).toEqual(['SUBSCRIBER_TOO_SLOW']);
    for (const s of [reading, late]) s.close();
  });
});

describe('a graphql-sse reservation no stream connects to (SSE_RESERVATION_TTL=1s)', () => {
  const it = shortReservations;

  it('is ended after the TTL (each one held ~2.2 kB for the life of the process), and one connected in time streams on', async ({ server, grace: token }) => {
    const abandoned = await reserve(server, token);
    await sendOperation(server, token, abandoned, SMALL);
    const kept = await reserve(server, token);
    const stream = await connectStream(server, token, kept);
    await sendOperation(server, token, kept, SMALL);
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    // graphql-sse no longer knows the token: an operation for it is refused.
    const late = await fetch(`${server.url}/graphql/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-graphql-event-stream-token': abandoned },
      body: JSON.stringify({ query: SMALL, extensions: { operationId: 'late' } }),
    });
    expect(late.status).toBe(404);
    expect(await late.json()).toMatchObject({ errors: [{ message: 'Stream not found', extensions: { code: 'NOT_FOUND', status: 404 } }] });
    // The connected one still delivers.
    await client(server.url).post('/api/analytics/views', { path: '/reservation/kept' });
    await waitFor('the connected stream to receive the event', () => stream.events.some((e) => e.path === '/reservation/kept'), 10_000);
    expect(stream.completed).toBe(false);
    stream.close();
  });
});
