// First plugin: gives each request its id (the client's X-Request-Id when sane, else a new one),
// its context (caller resolved lazily, once), the CORS header of the API, and one log line.
import { randomUUID } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import type { RequestContext } from '../../context.js';
import { findRequestContext, setRequestContext, type NodeServerContext } from './server-context.js';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export interface RequestContextOptions {
  /** Makes the context of one request (also used for WebSocket connections). */
  contextFor(input: { requestId: string; address: string; authorization: string | null; apiKey: string | null; request: Request }): RequestContext;
  trustProxy: boolean;
}

export function useRequestContext({ contextFor, trustProxy }: RequestContextOptions): Plugin<object, NodeServerContext> {
  const started = new WeakMap<Request, bigint>();
  return {
    onRequest({ request, serverContext }) {
      started.set(request, process.hrtime.bigint());
      const incoming = request.headers.get('x-request-id');
      const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
      setRequestContext(
        request,
        contextFor({
          requestId,
          address: clientAddress(request, serverContext, trustProxy),
          authorization: request.headers.get('authorization'),
          apiKey: request.headers.get('x-api-key'),
          request,
        }),
      );
    },
    onResponse({ request, response }) {
      const ctx = findRequestContext(request);
      if (!ctx) return;
      response.headers.set('x-request-id', ctx.requestId);
      const path = new URL(request.url).pathname;
      if (path.startsWith('/api/') || path === '/graphql' || path.startsWith('/graphql/')) {
        // Tokens never travel in cookies: any origin may call the API.
        if (!response.headers.has('access-control-allow-origin')) response.headers.set('access-control-allow-origin', '*');
      }
      const since = started.get(request);
      ctx.log.info(
        { method: request.method, path, status: response.status, ms: since === undefined ? undefined : Number(process.hrtime.bigint() - since) / 1e6 },
        'request',
      );
    },
  };
}

/** The client's address: the socket's, or the first X-Forwarded-For hop with TRUST_PROXY. */
export function clientAddress(request: Request | null, serverContext: Partial<NodeServerContext>, trustProxy: boolean): string {
  if (trustProxy) {
    const first = (request?.headers.get('x-forwarded-for') ?? serverContext.req?.headers['x-forwarded-for']?.toString())?.split(',')[0]?.trim();
    if (first) return first;
  }
  return serverContext.req?.socket.remoteAddress ?? 'unknown';
}
