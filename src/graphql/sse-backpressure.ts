// graphql-sse on /graphql/stream (both its modes), with backpressure. graphql-sse's handler pulls
// every operation's results as fast as they come and queues each one, serialised, in an array
// per stream until the response reads it (graphql-sse 2.6 `createStream`): a client that stops
// reading grows that array without bound, and our event stream never sees it fall behind.
// Its `onNext` hook is awaited before each result is queued, so here it waits while the stream's
// node response is full (`writableNeedDrain`): the results stay unpulled in the event stream,
// where SUBSCRIPTION_BUFFER bounds them (measured: README, "Bounded subscribers").
import type { ServerResponse } from 'node:http';
import { useGraphQLSSE } from '@graphql-yoga/plugin-graphql-sse';
import type { Plugin } from 'graphql-yoga';
import type { NodeServerContext } from '../http/plugins/server-context.js';

/** graphql-sse's names for the single-connection mode's token (graphql-sse/lib/common). */
const TOKEN_HEADER = 'x-graphql-event-stream-token';
const TOKEN_QUERY = 'token';

function tokenOf(request: Request): string | null {
  return request.headers.get(TOKEN_HEADER) ?? new URL(request.url, 'http://localhost/').searchParams.get(TOKEN_QUERY);
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
  return [findStreams, graphqlSse as Plugin<object, NodeServerContext>];
}
