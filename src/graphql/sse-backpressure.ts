// graphql-sse on /graphql/stream (both its modes), with backpressure and coded refusals. Its
// handler queues every result until the response reads it, so onNext waits while the stream's
// node response is full: results stay in the event stream, bounded by SUBSCRIPTION_BUFFER. A
// reservation (single-connection PUT) no stream connects to within SSE_RESERVATION_TTL is ended.
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { getOperationAST, type ExecutionResult, type GraphQLError } from 'graphql';
import { isAsyncIterable, mapAsyncIterator, type FetchAPI, type Plugin, type YogaServer } from 'graphql-yoga';
import type { RequestParams } from 'graphql-sse';
import { createHandler } from 'graphql-sse/lib/use/fetch';
import type { NodeServerContext } from '../http/plugins/server-context.js';
import type { Logger } from '../logger.js';
import { isGraphQLError, maskGraphQLError } from './errors.js';
import { withoutInternals } from './sse-result.js';

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

/** What an operation's results are, as graphql-sse takes them from onSubscribe. */
type Results = ExecutionResult | AsyncIterable<ExecutionResult>;

/** One result as a stream of one: graphql-sse sends it as `next`, then `complete`. */
async function* once(result: ExecutionResult): AsyncGenerator<ExecutionResult> {
  yield result;
}

/** What the client is told of an error no stage turned into a result: GraphQL errors as they are, anything else masked and logged. */
function errorResult(error: unknown, log: Logger): ExecutionResult {
  return { errors: [isGraphQLError(error) ? error : (maskGraphQLError(error, log) as GraphQLError)] };
}

/**
 * Runs a graphql-sse operation through Yoga's envelop pipeline, as @graphql-yoga/plugin-graphql-sse
 * does. graphql-sse treats anything thrown from onSubscribe or from a stream as our internal error
 * (a 500 with the stack, or an unhandled error that stops the process), and a result without `data`
 * as execution arguments; so syntax errors, errors-only results and errors from a running
 * subscription (a revoked credential) are each a result, sent as `next` then `complete`.
 */
async function runOperation(yoga: Pick<YogaServer<NodeServerContext, object>, 'getEnveloped'>, context: Record<string, unknown> & { request: Request; params: RequestParams }, log: Logger): Promise<Results> {
  const { params } = context;
  try {
    const { parse, validate, schema, contextFactory, execute, subscribe } = yoga.getEnveloped(context);
    const document = parse(params.query);
    const errors = validate(schema, document);
    if (errors.length) return once({ errors });
    const contextValue = await contextFactory();
    const run = getOperationAST(document, params.operationName)?.operation === 'subscription' ? subscribe : execute;
    const result = (await run({ schema, document, contextValue, variableValues: params.variables, operationName: params.operationName })) as Results;
    if (isAsyncIterable(result)) return mapAsyncIterator(result, (r: ExecutionResult) => r, (error: unknown) => errorResult(error, log));
    return 'data' in result ? result : once(result);
  } catch (error) {
    return once(errorResult(error, log));
  }
}

/**
 * graphql-sse at `endpoint` (graphql-sse's own fetch handler, with operations run by
 * runOperation), finding each stream's response for its backpressure.
 */
export function useGraphQLSSEWithBackpressure(endpoint: string, { reservationTtlMs, log }: { reservationTtlMs: number; log: Logger }): Plugin<object, NodeServerContext> {
  /** Single-connection mode: the stream (GET with a token) by its token; operations name the token. */
  const streamsByToken = new Map<string, ServerResponse>();
  /** Distinct-connections mode: the operation's own request is the stream. */
  const streamsByRequest = new WeakMap<Request, ServerResponse>();
  /** What the node server handed Yoga with each request, for the operation's context. */
  const serverContexts = new WeakMap<Request, NodeServerContext>();
  const reserved = reservations(reservationTtlMs, (token) => endReservation(token));
  let handler: (request: Request) => Promise<Response>;

  function findStream(request: Request, res: ServerResponse): void {
    if (request.headers.get('accept') !== 'text/event-stream') return;
    streamsByRequest.set(request, res);
    const token = tokenOf(request);
    if (!token) return;
    streamsByToken.set(token, res);
    reserved.connect(token);
    res.once('close', () => {
      if (streamsByToken.get(token) === res) streamsByToken.delete(token);
    });
  }

  // Its refusals get their codes as it hands them over: only its own responses are looked at, not
  // every request's (as an onResponse hook would). A reservation's token is what its 201 says
  // (graphql-sse makes it, or takes the client's).
  const answer = async (response: Response, request: Request, fetchAPI: FetchAPI): Promise<Response> => {
    if (response.status >= 400) return codedRefusal(response, fetchAPI.Response);
    if (request.method !== 'PUT' || response.status !== 201) return response;
    const token = await response.text();
    reserved.add(token);
    return new fetchAPI.Response(token, response);
  };

  /**
   * Ends a reservation as a client would: a stream connects to it and is closed at once, so
   * graphql-sse drops it and ends its operations. Not a client's request: it passes no hook.
   */
  function endReservation(token: string): void {
    const request = new Request(`http://localhost${endpoint}?${TOKEN_QUERY}=${encodeURIComponent(token)}`, { headers: { accept: 'text/event-stream' } });
    handler(request).then(
      (response) => response.body?.cancel().catch(() => undefined),
      (err: unknown) => log.warn({ err }, 'graphql-sse: could not end an expired reservation'),
    );
  }

  return {
    onYogaInit({ yoga }) {
      handler = createHandler(
        {
          onSubscribe: (req, params) => runOperation(yoga, { ...serverContexts.get(req.raw), request: req.raw, params }, log),
          onNext: async (_ctx, req, result) => {
            const token = tokenOf(req.raw);
            const res = streamsByRequest.get(req.raw) ?? (token ? streamsByToken.get(token) : undefined);
            if (res) await drained(res);
            // A reservation whose stream has not connected yet: its results stay in the event stream.
            else if (token) await reserved.connected(token);
            // Sent as Yoga sends results on /graphql: without the extensions Yoga keeps for itself (`http`).
            return withoutInternals(result as ExecutionResult) as ExecutionResult;
          },
        },
        yoga.fetchAPI,
      );
    },
    onRequest({ request, url, serverContext, fetchAPI, endResponse }) {
      if (!url.pathname.endsWith(endpoint)) return;
      if (serverContext?.res) findStream(request, serverContext.res);
      if (serverContext) serverContexts.set(request, serverContext);
      return handler(request)
        .then((response) => answer(response, request, fetchAPI))
        .then(endResponse);
    },
  };
}
