// graphql-sse on /graphql/stream (both its modes), with backpressure and with its refusals given
// codes (codedRefusal). graphql-sse's handler pulls
// every operation's results as fast as they come and queues each one, serialised, in an array
// per stream until the response reads it (graphql-sse 2.6 `createStream`): a client that stops
// reading grows that array without bound, and our event stream never sees it fall behind.
// Its `onNext` hook is awaited before each result is queued, so here it waits while the stream's
// node response is full (`writableNeedDrain`): the results stay unpulled in the event stream,
// where SUBSCRIPTION_BUFFER bounds them (measured: README, "Bounded subscribers").
// Reservations (single-connection mode's PUT) are kept by graphql-sse until their stream connects
// and closes, with no end of their own: each one that never connected held ~2.2 kB for the life of
// the process, and graphql-sse takes operations for it before its GET ("flushed on connect"),
// queueing every result for a stream that may never come. So a reservation is ended when no
// stream has connected to it within SSE_RESERVATION_TTL, and until one does, its operations'
// results wait in the event stream as a paused reader's do.
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { useGraphQLSSE } from '@graphql-yoga/plugin-graphql-sse';
import type { FetchAPI, Plugin } from 'graphql-yoga';
import type { NodeServerContext } from '../http/plugins/server-context.js';
import type { Logger } from '../logger.js';

/** graphql-sse's names for the single-connection mode's token (graphql-sse/lib/common). */
const TOKEN_HEADER = 'x-graphql-event-stream-token';
const TOKEN_QUERY = 'token';

function tokenOf(request: Request): string | null {
  return request.headers.get(TOKEN_HEADER) ?? new URL(request.url, 'http://localhost/').searchParams.get(TOKEN_QUERY);
}

/**
 * graphql-sse answers its protocol's refusals (no such stream, a second one, a method or a media
 * type it does not take, no query) with errors that have no code, or with no body at all: each
 * gets the GraphQL error body of every other refusal, with extensions.code and status, and keeps
 * graphql-sse's headers.
 */
async function codedRefusal(response: Response, Response: typeof globalThis.Response): Promise<Response> {
  const text = await response.text();
  let errors: { message?: unknown; extensions?: Record<string, unknown> }[] = [];
  try {
    const parsed = JSON.parse(text) as { errors?: unknown };
    if (Array.isArray(parsed.errors)) errors = parsed.errors as typeof errors;
  } catch {
    // no body, or not graphql-sse's JSON
  }
  if (!errors.length) errors = [{ message: response.statusText || STATUS_CODES[response.status] || 'Bad Request' }];
  const code = response.status === 404 ? 'NOT_FOUND' : response.status === 409 ? 'CONFLICT' : 'BAD_REQUEST';
  const headers = new Headers(response.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  headers.delete('content-length');
  const body = JSON.stringify({ errors: errors.map((e) => ({ ...e, extensions: { code, status: response.status, ...e.extensions } })) });
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** Resolves once `res` can take more (or is gone); one wait per response, however many operations share it. */
const drains = new WeakMap<ServerResponse, Promise<void>>();
function drained(res: ServerResponse): Promise<void> | undefined {
  if (!res.writableNeedDrain || res.destroyed) return undefined;
  let wait = drains.get(res);
  if (!wait) {
    wait = new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        drains.delete(res);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
    drains.set(res, wait);
  }
  return wait;
}

/** A reservation no stream has connected to yet: its expiry, and what waits for its stream. */
interface Reservation {
  timer: ReturnType<typeof setTimeout>;
  connected?: { promise: Promise<void>; resolve: () => void };
}

/** The reservations whose stream has not connected, by token; `expire` ends one at its deadline. */
function reservations(ttlMs: number, expire: (token: string) => void) {
  const open = new Map<string, Reservation>();
  /** Its stream connected, or it expired: whatever waits for it goes on. */
  const settle = (token: string) => {
    const reservation = open.get(token);
    if (!reservation) return;
    open.delete(token);
    clearTimeout(reservation.timer);
    reservation.connected?.resolve();
  };
  return {
    add(token: string): void {
      settle(token);
      const timer = setTimeout(() => {
        settle(token);
        expire(token);
      }, ttlMs);
      timer.unref();
      open.set(token, { timer });
    },
    connect: settle,
    /** Resolves when the stream of reservation `token` connects or it expires; undefined when it is not waiting. */
    connected(token: string): Promise<void> | undefined {
      const reservation = open.get(token);
      if (!reservation) return undefined;
      if (!reservation.connected) {
        let resolve!: () => void;
        const promise = new Promise<void>((r) => (resolve = r));
        reservation.connected = { promise, resolve };
      }
      return reservation.connected.promise;
    },
  };
}

/** Yoga's graphql-sse plugin at `endpoint`, preceded by the plugin that finds each stream's response. */
export function useGraphQLSSEWithBackpressure(endpoint: string, { reservationTtlMs, log }: { reservationTtlMs: number; log: Logger }): Plugin<object, NodeServerContext>[] {
  /** Single-connection mode: the stream (GET with a token) by its token; operations name the token. */
  const streamsByToken = new Map<string, ServerResponse>();
  /** Distinct-connections mode: the operation's own request is the stream. */
  const streamsByRequest = new WeakMap<Request, ServerResponse>();
  const reserved = reservations(reservationTtlMs, (token) => endReservation(token));

  const findStreams: Plugin<object, NodeServerContext> = {
    onRequest({ request, serverContext }) {
      const res = serverContext?.res;
      if (!res || request.headers.get('accept') !== 'text/event-stream') return;
      if (!request.url.split('?')[0]!.endsWith(endpoint)) return;
      streamsByRequest.set(request, res);
      const token = tokenOf(request);
      if (!token) return;
      streamsByToken.set(token, res);
      reserved.connect(token);
      res.once('close', () => {
        if (streamsByToken.get(token) === res) streamsByToken.delete(token);
      });
    },
  };
  const graphqlSse = useGraphQLSSE({
    endpoint,
    onNext: async (_ctx, req) => {
      const token = tokenOf(req.raw);
      const res = streamsByRequest.get(req.raw) ?? (token ? streamsByToken.get(token) : undefined);
      if (res) await drained(res);
      // A reservation whose stream has not connected yet: its results stay in the event stream.
      else if (token) await reserved.connected(token);
    },
  });
  // Its refusals get their codes as it hands them over: only its own responses are looked at
  // (an onResponse hook would cost every request of every path its payload, 1.2 kB measured).
  // A reservation's token is what its 201 says (graphql-sse makes it, or takes the client's).
  const handle = graphqlSse.onRequest!;
  const answer = async (response: Response, request: Request, fetchAPI: FetchAPI): Promise<Response> => {
    if (response.status >= 400) return codedRefusal(response, fetchAPI.Response);
    if (request.method !== 'PUT' || response.status !== 201) return response;
    const token = await response.text();
    reserved.add(token);
    return new fetchAPI.Response(token, response);
  };
  graphqlSse.onRequest = (payload) =>
    payload.url.pathname.endsWith(endpoint) ? handle({ ...payload, endResponse: (response) => answer(response, payload.request, payload.fetchAPI).then(payload.endResponse) }) : undefined;

  /**
   * Ends a reservation as a client would: a stream connects to it and is closed at once, so
   * graphql-sse drops it and ends its operations. Handed straight to the plugin (which reads the
   * request, its server context and endResponse): not a client's request, it passes no other hook.
   */
  function endReservation(token: string): void {
    const url = new URL(`http://localhost${endpoint}?${TOKEN_QUERY}=${encodeURIComponent(token)}`);
    const request = new Request(url, { headers: { accept: 'text/event-stream' } });
    const endResponse = (response: Response) => void response.body?.cancel().catch(() => undefined);
    Promise.resolve(handle({ request, url, serverContext: {}, endResponse } as unknown as Parameters<typeof handle>[0])).catch((err: unknown) =>
      log.warn({ err }, 'graphql-sse: could not end an expired reservation'),
    );
  }
  return [findStreams, graphqlSse as Plugin<object, NodeServerContext>];
}
