// Connections cannot exhaust the service: a WebSocket must send connection_init in time (4408)
// with valid credentials (4403); one client address holds at most CONNECTIONS_PER_ADDRESS
// WebSockets and SSE streams together (one more is a 429 before it opens); a caller holds at most
// SUBSCRIPTIONS_PER_CALLER subscriptions on every transport together (TOO_MANY_SUBSCRIPTIONS); the
// server holds at most MAX_CONNECTIONS sockets. Through it all /healthz and an ordinary REST read
// keep answering. Small caps here, set through the environment as an operator would.
import { randomBytes } from 'node:crypto';
import { request, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { serverForSuite } from './support/server.js';
import { sleep, waitFor } from './support/wait.js';

const PER_ADDRESS = 20;
const MAX_CONNECTIONS = 60;
const PER_CALLER = 3;
const INIT_TIMEOUT_MS = 1_500;
const FLOODER = '203.0.113.7';

const suite = serverForSuite({
  env: {
    CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS),
    MAX_CONNECTIONS: String(MAX_CONNECTIONS),
    SUBSCRIPTIONS_PER_CALLER: String(PER_CALLER),
    // The flood comes from one forwarded address, the probes from the socket's own.
    TRUST_PROXY: 'true',
  },
  webSocketInitTimeoutMs: INIT_TIMEOUT_MS,
});

/** Whatever a test leaves open is closed after it, so that each starts from an empty server. */
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const wsUrl = () => `${suite.server.url.replace(/^http/, 'ws')}/graphql`;

type Upgrade = { kind: 'open'; socket: WebSocket } | { kind: 'refused'; status: number; contentType: string | undefined; body: string };

/** A graphql-ws upgrade with `headers`: the open socket (sending nothing), or the HTTP answer that refused it. */
function upgrade(headers: Record<string, string> = {}): Promise<Upgrade> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl(), 'graphql-transport-ws', { headers });
    socket.on('open', () => {
      cleanups.push(() => socket.terminate());
      resolve({ kind: 'open', socket });
    });
    socket.on('unexpected-response', (_req, res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ kind: 'refused', status: res.statusCode ?? 0, contentType: res.headers['content-type'], body }));
    });
    socket.on('error', reject);
  });
}

/** How `socket` closes: its code and reason. */
function closeOf(socket: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

/** Sends connection_init with `payload` on an open socket and resolves the first answer: a message, or how it closed. */
function init(socket: WebSocket, payload?: Record<string, unknown>): Promise<{ message?: { type: string }; close?: { code: number; reason: string } }> {
  return new Promise((resolve) => {
    socket.once('message', (data) => resolve({ message: JSON.parse(String(data)) as { type: string } }));
    socket.once('close', (code, reason) => resolve({ close: { code, reason: reason.toString() } }));
    socket.send(JSON.stringify(payload === undefined ? { type: 'connection_init' } : { type: 'connection_init', payload }));
  });
}

interface Stream {
  status: number;
  contentType: string | undefined;
  /** Everything read so far. */
  text(): string;
  close(): void;
}

/** An HTTP request that may become an SSE stream: resolves with its status once the headers arrive. */
function stream(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = request(`${suite.server.url}${path}`, { method, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      const close = () => res.destroy();
      cleanups.push(close);
      resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], text: () => text, close });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** graphql-sse's single-connection mode: a reservation (PUT), then its stream (GET), held open. */
async function reservedStream(headers: Record<string, string>): Promise<Stream> {
  const reservation = await suite.api.request('PUT', '/graphql/stream', { headers });
  expect(reservation.status).toBe(201);
  return stream('GET', '/graphql/stream', { ...headers, 'x-graphql-event-stream-token': reservation.text });
}

/** A subscription over SSE on /graphql (Yoga's distinct connections). */
const sseSubscription = (token: string, query: string, headers: Record<string, string> = {}) =>
  stream('POST', '/graphql', { ...headers, authorization: `Bearer ${token}`, 'content-type': 'application/json' }, JSON.stringify({ query }));

/** /healthz and a public REST read answer, each within a second. */
async function serviceAnswers(userId: string): Promise<void> {
  for (const path of ['/healthz', `/api/users/${userId}`]) {
    const started = performance.now();
    const reply = await suite.api.get(path);
    expect(reply.status, path).toBe(200);
    expect(performance.now() - started, path).toBeLessThan(1_000);
  }
}

/** The refusal body of one more connection from an address at the cap: the contract's error shape. */
const TOO_MANY_CONNECTIONS = {
  error: true,
  code: 429,
  message: `Too many open connections from this address: at most ${PER_ADDRESS} WebSocket and SSE connections at once`,
};

async function userIdOf(token: string): Promise<string> {
  return ((await suite.api.get('/api/v1/user/me', { token })).body as { id: string }).id;
}

/** The `learnstream_connections_refused_total` count for `reason`. */
async function refusedCount(reason: string): Promise<number> {
  const text = (await suite.api.get('/metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith(`learnstream_connections_refused_total{reason="${reason}"}`));
  return Number(line?.split(' ').at(-1));
}

describe('a WebSocket must earn its place', () => {
  it(`is closed with 4408 when it sends no connection_init in time, and counted`, async () => {
    const before = await refusedCount('websocket_init_timeout');
    const opened = await upgrade();
    expect(opened.kind).toBe('open');
    const { socket } = opened as { socket: WebSocket };
    const started = performance.now();
    expect(await closeOf(socket)).toEqual({ code: 4408, reason: 'Connection initialisation timeout' });
    expect(performance.now() - started).toBeGreaterThan(INIT_TIMEOUT_MS - 200);
    expect(await refusedCount('websocket_init_timeout')).toBe(before + 1);
  });

  it('is closed with 4403 when connection_init carries no credentials, or credentials that do not check out', async () => {
    const cases: [string, Record<string, string>, Record<string, unknown> | undefined][] = [
      ['no payload', {}, undefined],
      ['an empty payload', {}, {}],
      ['a token that is not one', {}, { authorization: 'Bearer not-a-token' }],
      ['an authorization that is not a string', {}, { authorization: 42 }],
      ['a forged X-API-Key header', { 'x-api-key': `lsk_${randomBytes(24).toString('hex')}` }, {}],
      ['an Authorization header with garbage', { authorization: 'Basic Zm9vOmJhcg==' }, undefined],
    ];
    const before = await refusedCount('websocket_credentials');
    for (const [what, headers, payload] of cases) {
      const opened = await upgrade(headers);
      expect(opened.kind, what).toBe('open');
      const answer = await init((opened as { socket: WebSocket }).socket, payload);
      expect(answer, what).toEqual({ close: { code: 4403, reason: 'Missing or invalid token' } });
    }
    expect(await refusedCount('websocket_credentials')).toBe(before + cases.length);
  });

  it('is acknowledged with a token in connectionParams, a Bearer header on the upgrade, or an X-API-Key header', async () => {
    const { token } = await suite.api.loginAs('grace');
    const key = (await suite.api.post('/api/v1/api-keys', { name: 'ws' }, { token })).body as { key: string };
    const cases: [string, Record<string, string>, Record<string, unknown> | undefined][] = [
      ['connectionParams', {}, { authorization: `Bearer ${token}` }],
      ['Authorization header', { authorization: `Bearer ${token}` }, undefined],
      ['X-API-Key header', { 'x-api-key': key.key }, {}],
    ];
    for (const [what, headers, payload] of cases) {
      const opened = await upgrade(headers);
      const answer = await init((opened as { socket: WebSocket }).socket, payload);
      expect(answer, what).toEqual({ message: { type: 'connection_ack' } });
    }
  });
});

describe('CONNECTIONS_PER_ADDRESS', () => {
  it('refuses the WebSocket upgrade and the SSE streams (both graphql-sse modes) over the cap with 429, while /healthz, a REST read and other addresses go on', async () => {
    const { token } = await suite.api.loginAs('ada');
    const userId = await userIdOf(token);
    const flooder = { 'x-forwarded-for': FLOODER };
    const before = await refusedCount('per_address');
    // Half WebSockets that never send connection_init, half SSE streams that hold no operation.
    for (let i = 0; i < PER_ADDRESS / 2; i++) expect((await upgrade(flooder)).kind).toBe('open');
    for (let i = 0; i < PER_ADDRESS / 2; i++) {
      const s = await reservedStream(flooder);
      expect(s.status).toBe(200);
      expect(s.contentType).toMatch(/^text\/event-stream/);
    }

    const refusedUpgrade = await upgrade(flooder);
    expect(refusedUpgrade).toMatchObject({ kind: 'refused', status: 429, contentType: 'application/json; charset=utf-8' });
    expect(JSON.parse((refusedUpgrade as { body: string }).body)).toEqual(TOO_MANY_CONNECTIONS);
    // A subscription over SSE on /graphql (distinct connections), and a single connection's stream.
    const refusedDistinct = await sseSubscription(token, 'subscription { events { id } }', flooder);
    const refusedSingle = await stream('GET', '/graphql/stream', { ...flooder, 'x-graphql-event-stream-token': 'any' });
    for (const refused of [refusedDistinct, refusedSingle]) {
      expect(refused.status).toBe(429);
      expect(refused.contentType).toBe('application/json; charset=utf-8');
      await waitFor('the refusal body', () => refused.text().endsWith('}'), 2_000);
      expect(JSON.parse(refused.text())).toEqual(TOO_MANY_CONNECTIONS);
    }
    expect(await refusedCount('per_address')).toBe(before + 3);

    await serviceAnswers(userId);
    // Another address is not held to the flooder's count.
    const other = await upgrade({ 'x-forwarded-for': '198.51.100.9' });
    expect(other.kind).toBe('open');
    expect(await init((other as { socket: WebSocket }).socket, { authorization: `Bearer ${token}` })).toEqual({ message: { type: 'connection_ack' } });

    // The WebSockets that never sent connection_init are closed (4408), and their slots come back.
    await sleep(INIT_TIMEOUT_MS + 300);
    for (let i = 0; i < PER_ADDRESS / 2; i++) expect((await upgrade(flooder)).kind).toBe('open');
    expect((await upgrade(flooder)).kind).toBe('refused');
  });
});

describe('SUBSCRIPTIONS_PER_CALLER', () => {
  it('refuses the subscription over the cap with TOO_MANY_SUBSCRIPTIONS on every transport; the others go on; closing one frees a slot', async () => {
    const { token } = await suite.api.loginAs('grace');
    const ws = createWsClient({ url: wsUrl(), webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
    cleanups.push(() => ws.dispose());
    const query = 'subscription { events(types: ["analytics.hit"]) { id path } }';

    // Two on one WebSocket, one over SSE: three of three.
    const open = await openSubscriptions();
    const first = listen(ws, query);
    const second = listen(ws, query);
    await waitFor('two WebSocket subscriptions to start', async () => (await openSubscriptions()) === open + 2, 10_000);
    const sse = await sseSubscription(token, query);
    expect(sse.status).toBe(200);

    // The fourth: refused on the WebSocket (the socket stays open) and over SSE on /graphql.
    const fourth = listen(ws, query);
    await fourth.ended;
    expect(fourth.errors()).toEqual([
      {
        message: `Too many open subscriptions: a caller may hold at most ${PER_CALLER} at once on this server. Close one (unsubscribe) before opening another`,
        extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', status: 429 },
      },
    ]);
    // Over SSE, as every subscription refused at its start is: one `next` with the error, then `complete`.
    const refusedSse = await sseSubscription(token, query);
    await waitFor('the SSE refusal to complete', () => refusedSse.text().endsWith('event: complete\ndata:\n\n'), 5_000);
    const frame = /event: next\ndata: (.*)\n\n/.exec(refusedSse.text())![1]!;
    expect(JSON.parse(frame)).toEqual({ errors: fourth.errors() });
    // graphql-sse's single-connection mode on /graphql/stream alike.
    const single = createSseClient({ url: `${suite.server.url}/graphql/stream`, singleConnection: true, headers: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
    cleanups.push(() => single.dispose());
    const singleResult = await new Promise<unknown>((resolve, reject) => {
      single.subscribe({ query }, { next: resolve, error: reject, complete: () => resolve('completed without a result') });
    });
    expect(singleResult).toEqual({ errors: fourth.errors() });
    // Another caller is not held to grace's count.
    const { token: ada } = await suite.api.loginAs('ada');
    const adaStream = await sseSubscription(ada, query);
    expect(adaStream.status).toBe(200);

    // The three that were let in still receive events.
    const path = `/limits/${randomBytes(4).toString('hex')}`;
    await waitFor('an event on all three', async () => {
      await suite.api.post('/api/analytics/views', { path });
      return first.paths().includes(path) && second.paths().includes(path) && sse.text().includes(path);
    }, 20_000);

    // One unsubscribes: a slot is free again, for any transport.
    const held = await openSubscriptions();
    first.stop();
    await waitFor('the unsubscribed one to close', async () => (await openSubscriptions()) === held - 1, 5_000);
    const again = await sseSubscription(token, query);
    // One's connection closes: its slot is free too.
    sse.close();
    await waitFor('the closed stream to end', async () => (await openSubscriptions()) === held - 1, 5_000);
    const third = listen(ws, query);
    await waitFor('the new subscriptions to start', async () => (await openSubscriptions()) === held, 5_000);
    const later = `/limits/${randomBytes(4).toString('hex')}`;
    await waitFor('an event on the new ones', async () => {
      await suite.api.post('/api/analytics/views', { path: later });
      return again.text().includes(later) && third.paths().includes(later) && second.paths().includes(later);
    }, 20_000);
    expect(again.text()).not.toContain('TOO_MANY_SUBSCRIPTIONS');
    expect(third.errors()).toEqual([]);
  });
});

/** A subscription on a graphql-ws client, recording what it receives. */
function listen(ws: WsClient, query: string) {
  const received: { data?: { events: { path: string | null } }; errors?: unknown[] }[] = [];
  let failure: unknown;
  let resolveEnd!: () => void;
  const ended = new Promise<void>((resolve) => (resolveEnd = resolve));
  const stop = ws.subscribe<{ events: { path: string | null } }>({ query }, {
    next: (result) => received.push(result as (typeof received)[number]),
    error: (error) => {
      failure = error;
      resolveEnd();
    },
    complete: resolveEnd,
  });
  cleanups.push(stop);
  return {
    ended,
    stop,
    /** The errors it was sent, or that ended it. */
    errors: () => received.flatMap((r) => r.errors ?? []).concat(failure === undefined ? [] : [failure]),
    paths: () => received.map((r) => r.data?.events.path),
  };
}

/** The subscriptions the server has open (its gauge). */
async function openSubscriptions(): Promise<number> {
  const text = (await suite.api.get('/metrics')).text;
  return Number(text.split('\n').find((l) => l.startsWith('learnstream_subscriptions_open '))?.split(' ')[1]);
}

describe('MAX_CONNECTIONS', () => {
  interface RawSocket {
    socket: Socket;
    /** Resolves when the connection closes. */
    closed: Promise<void>;
    isClosed(): boolean;
  }

  /** A raw TCP connection to the server. */
  function rawSocket(): Promise<RawSocket> {
    const { port } = suite.server;
    return new Promise((resolve, reject) => {
      let closedFlag = false;
      const socket = connect(port, '127.0.0.1');
      const closed = new Promise<void>((done) => socket.on('close', () => ((closedFlag = true), done())));
      socket.on('error', () => {});
      socket.once('connect', () => resolve({ socket, closed, isClosed: () => closedFlag }));
      socket.once('error', reject);
      cleanups.push(() => socket.destroy());
    });
  }

  it('a flood of silent sockets past the cap never keeps out /healthz and ordinary requests: the one idle longest makes room', async () => {
    const { token } = await suite.api.loginAs('alan');
    const userId = await userIdOf(token);
    const flood: RawSocket[] = [];
    for (let i = 0; i < MAX_CONNECTIONS * 3; i++) flood.push(await rawSocket());
    // The server holds at most MAX_CONNECTIONS: the oldest silent ones were closed to make room.
    await waitFor('the oldest to be closed', () => flood.filter((s) => s.isClosed()).length >= flood.length - MAX_CONNECTIONS, 5_000);
    expect(flood.slice(0, flood.length - MAX_CONNECTIONS).every((s) => s.isClosed())).toBe(true);
    await serviceAnswers(userId);
    // Still holding at most the cap while the probes went through.
    expect(flood.filter((s) => !s.isClosed()).length).toBeLessThanOrEqual(MAX_CONNECTIONS);
  });

  it('with every socket busy, one more is refused at once; once they go, the service answers again', async () => {
    const { token } = await suite.api.loginAs('alan');
    const userId = await userIdOf(token);
    const before = await refusedCount('max_connections');
    // Each holds a request in flight: its headers sent, its body never.
    const busy: RawSocket[] = [];
    for (let i = 0; i < MAX_CONNECTIONS + 5; i++) {
      const s = await rawSocket();
      s.socket.write(`POST /api/analytics/views HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`);
      busy.push(s);
      await sleep(5);
    }
    // The ones over the cap were closed at once, without an answer.
    await waitFor('the sockets over the cap to be closed', () => busy.filter((s) => s.isClosed()).length >= 5, 2_000);
    expect(busy.filter((s) => !s.isClosed()).length).toBeLessThanOrEqual(MAX_CONNECTIONS);
    const refused = await rawSocket();
    const started = performance.now();
    await refused.closed;
    expect(performance.now() - started).toBeLessThan(1_000);

    for (const s of busy) s.socket.destroy();
    await waitFor('the service to answer again', async () => (await suite.api.get('/healthz').catch(() => undefined))?.status === 200, 5_000);
    await serviceAnswers(userId);
    expect(await refusedCount('max_connections')).toBeGreaterThanOrEqual(before + 6);
  });
});
