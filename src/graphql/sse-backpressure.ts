// graphql-sse on /graphql/stream (both its modes), with backpressure and with its refusals given
// codes (codedRefusal). graphql-sse's handler pulls
// every operation's results as fast as they come and queues each one, serialised, in an array
// per stream until the response reads it (graphql-sse 2.6 `createStream`): a client that stops
// reading grows that array without bound, and our event stream never sees it fall behind.
// Its `onNext` hook is awaited before each result is queued, so here it waits while the stream's
// node response is full (`writableNeedDrain`): the results stay unpulled in the event stream,
// where SUBSCRIPTION_BUFFER bounds them (measured: README, "Bounded subscribers").
import { STATUS_CODES, type ServerResponse } from 'node:http';
import { useGraphQLSSE } from '@graphql-yoga/plugin-graphql-sse';
import type { Plugin } from 'graphql-yoga';
import type { NodeServerContext } from '../http/plugins/server-context.js';

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

/** Yoga's graphql-sse plugin at `endpoint`, preceded by the plugin that finds each stream's response. */
export function useGraphQLSSEWithBackpressure(endpoint: string): Plugin<object, NodeServerContext>[] {
  /** Single-connection mode: the stream (GET with a token) by its token; operations name the token. */
  const streamsByToken = new Map<string, ServerResponse>();
  /** Distinct-connections mode: the operation's own request is the stream. */
  const streamsByRequest = new WeakMap<Request, ServerResponse>();

  const findStreams: Plugin<object, NodeServerContext> = {
    onRequest({ request, serverContext }) {
      const res = serverContext?.res;
      if (!res || request.headers.get('accept') !== 'text/event-stream') return;
      if (!request.url.split('?')[0]!.endsWith(endpoint)) return;
      streamsByRequest.set(request, res);
      const token = tokenOf(request);
      if (!token) return;
      streamsByToken.set(token, res);
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
    },
  });
  // Its refusals get their codes as it hands them over: only its own responses are looked at
  // (an onResponse hook would cost every request of every path its payload, 1.2 kB measured).
  const handle = graphqlSse.onRequest!;
  graphqlSse.onRequest = (payload) =>
    payload.url.pathname.endsWith(endpoint)
      ? handle({
          ...payload,
          endResponse: (response) => (response.status < 400 ? payload.endResponse(response) : codedRefusal(response, payload.fetchAPI.Response).then(payload.endResponse)),
        })
      : undefined;
  return [findStreams, graphqlSse as Plugin<object, NodeServerContext>];
}
