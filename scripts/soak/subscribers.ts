// Subscribers to `subscription { events }` over SSE (Yoga's distinct connections, raw HTTP) and
// WebSocket (graphql-ws), as a careful client writes them: after any drop (the instance killed, a
// stream ended with an error, the socket closed) it subscribes again with `after` = the last id it
// received, on its own instance or, while that one is down, the other. Receipts are kept
// connection by connection, so the check can tell a gap, a duplicate and a reordering apart.
import { request, type ClientRequest } from 'node:http';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { readSse } from '../../bench/lib/sse.js';
import type { Cluster } from './cluster.js';

const QUERY = 'subscription Soak($after: ID) { events(after: $after) { id event } }';
const RECONNECT_MS = 250;

export interface Subscriber {
  name: string;
  transport: 'sse' | 'ws';
  /** Ids received, one list per connection, in arrival order. */
  connections: string[][];
  lastId: string;
  /** Why connections ended: by reason, how often and when first (ms since the epoch). */
  drops: Map<string, { count: number; firstAt: number }>;
  /** Errors the server sent that a resume cannot explain (BAD_USER_INPUT on `after`, INTERNAL…). */
  badErrors: string[];
  /** Sabotage (SOAK_SABOTAGE=subscriber): drop one received event on the floor. */
  forgetOne: boolean;
  close(): void;
}

interface Payload {
  data?: { events?: { id: string; event: string } | null } | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/** A subscriber's record, empty: it resumes after `after`; `close` ends its transport. */
function newSubscriber(name: string, transport: Subscriber['transport'], after: string, forgetOne: boolean, close: () => void): Subscriber {
  return { name, transport, connections: [], lastId: after, drops: new Map(), badErrors: [], forgetOne, close };
}

function countDrop(s: Subscriber, reason: string): void {
  const seen = s.drops.get(reason);
  if (seen) seen.count++;
  else s.drops.set(reason, { count: 1, firstAt: Date.now() });
}

/** Errors a resume explains: the database down at subscribe time, a too slow subscriber. */
const RESUMABLE = new Set(['UNAVAILABLE', 'SUBSCRIBER_TOO_SLOW']);

function onPayload(s: Subscriber, ids: string[], payload: Payload): void {
  const e = payload.data?.events;
  if (e) {
    if (s.forgetOne && ids.length === 10 && s.connections.length === 1) {
      s.forgetOne = false;
      s.lastId = e.id;
      return;
    }
    ids.push(e.id);
    s.lastId = e.id;
  }
  for (const error of payload.errors ?? []) {
    const code = error.extensions?.code ?? 'no code';
    countDrop(s, `error ${code}`);
    if (!RESUMABLE.has(code) && s.badErrors.length < 20) s.badErrors.push(`${code}: ${error.message}`);
  }
}

export function startSseSubscriber(name: string, home: number, cluster: Cluster, token: string, after: string, forgetOne = false): Subscriber {
  let closed = false;
  let current: ClientRequest | undefined;
  const s = newSubscriber(name, 'sse', after, forgetOne, () => {
    closed = true;
    current?.destroy();
  });
  const connect = () => {
    if (closed) return;
    const inst = cluster.pick(home);
    const ids: string[] = [];
    s.connections.push(ids);
    const body = JSON.stringify({ query: QUERY, variables: { after: s.lastId } });
    let ended = false;
    const again = (reason: string) => {
      if (ended) return;
      ended = true;
      countDrop(s, reason);
      if (reason === 'ECONNREFUSED') cluster.markDown(inst);
      if (!closed) setTimeout(connect, RECONNECT_MS);
    };
    const req = request(`${inst.url}/graphql`, {
      method: 'POST',
      headers: {
        accept: 'text/event-stream',
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        authorization: `Bearer ${token}`,
      },
    });
    current = req;
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        countDrop(s, `HTTP ${res.statusCode}`);
        res.resume();
      }
      readSse(res, (_event, data) => {
        if (!data) return; // `event: complete`
        try {
          onPayload(s, ids, JSON.parse(data) as Payload);
        } catch {
          if (s.badErrors.length < 20) s.badErrors.push(`unparsable SSE data: ${data.slice(0, 120)}`);
        }
      });
      res.on('end', () => again('stream ended'));
      res.on('error', (error: NodeJS.ErrnoException) => again(error.code ?? error.message));
      res.on('close', () => again('stream closed'));
    });
    req.on('error', (error: NodeJS.ErrnoException) => again(error.code ?? error.message));
    req.end(body);
  };
  connect();
  return s;
}

export function startWsSubscriber(name: string, home: number, cluster: Cluster, token: string, after: string, forgetOne = false): Subscriber {
  let closed = false;
  let client: Client | undefined;
  const s = newSubscriber(name, 'ws', after, forgetOne, () => {
    closed = true;
    // A connection the server refused (1013 while PostgreSQL is down) rejects its dispose.
    if (client) Promise.resolve(client.dispose()).catch(() => {});
  });
  const connect = () => {
    if (closed) return;
    const inst = cluster.pick(home);
    const ids: string[] = [];
    s.connections.push(ids);
    let ended = false;
    // One client per connection, retries off: the resume (with the newest `after`) is ours to make.
    const c = createClient({
      url: `${inst.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
      retryAttempts: 0,
      lazy: true,
      keepAlive: 10_000,
      on: {
        closed: (event) => {
          const code = (event as { code?: number } | undefined)?.code;
          again(`socket closed${code ? ` ${code}` : ''}`);
        },
        error: (error) => {
          const code = (error as { error?: { code?: string } } | undefined)?.error?.code;
          if (code === 'ECONNREFUSED') cluster.markDown(inst);
        },
      },
    });
    client = c;
    const again = (reason: string) => {
      if (ended) return;
      ended = true;
      countDrop(s, reason);
      Promise.resolve(c.dispose()).catch(() => {});
      if (!closed) setTimeout(connect, RECONNECT_MS);
    };
    c.subscribe<{ events: { id: string; event: string } | null }>(
      { query: QUERY, variables: { after: s.lastId } },
      {
        next: (result) => onPayload(s, ids, result as Payload),
        error: (error: unknown) => {
          if (Array.isArray(error)) onPayload(s, ids, { errors: error as Payload['errors'] });
          again(Array.isArray(error) ? 'operation error' : 'connection error');
        },
        complete: () => again('completed'),
      },
    );
  };
  connect();
  return s;
}
