// First plugin: gives each request its id (the client's X-Request-Id when sane, else a new one),
// its context (caller resolved lazily, once), and one log line (at debug for health checks).
import { randomUUID } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import type { RequestContext } from '../../context.js';
import type { Logger } from '../../logger.js';
import { REVALIDATE_HEADERS } from '../headers.js';
import { requestRecordOf, setRequestRecord, type NodeServerContext } from './server-context.js';

const REQUEST_ID = /^[\w.:-]{1,128}$/;
/** Probed every few seconds by load balancers and orchestrators: at info they would drown the log. */
const HEALTH_PATHS = new Set(['/healthz', '/readyz']);

/** What a request context is made from. */
export interface RequestCredentials {
  requestId: string;
  address: string;
  authorization: string | null;
  apiKey: string | null;
  /** The HTTP request (none for a WebSocket connection's context). */
  request?: Request;
}

export interface RequestContextOptions {
  /** Makes the context of one request (also used for WebSocket connections). */
  contextFor(credentials: RequestCredentials): RequestContext;
  trustProxy: boolean;
  /** The service's logger (a request's own, `ctx.log()`, is made only when something logs). */
  log: Logger;
}

export function useRequestContext({ contextFor, trustProxy, log }: RequestContextOptions): Plugin<object, NodeServerContext> {
  return {
    onRequest({ request, url, serverContext }) {
      const started = performance.now();
      const incoming = request.headers.get('x-request-id');
      const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
      const ctx = contextFor({
        requestId,
        address: clientAddress(request, serverContext, trustProxy),
        authorization: request.headers.get('authorization'),
        apiKey: request.headers.get('x-api-key'),
        request,
      });
      setRequestRecord(request, { ctx, path: url.pathname, method: request.method, started });
    },
    onResponse({ request, response }) {
      const record = requestRecordOf(request);
      if (!record) return;
      const { ctx, path, method, started } = record;
      response.headers.set('x-request-id', ctx.requestId);
      if (!response.headers.has('cache-control')) cacheable(response.headers);
      // The service's logger with the id as a field: the same line as the request's child logger
      // would write, without making one for every request.
      const level = HEALTH_PATHS.has(path) ? 'debug' : 'info';
      log[level]({ reqId: ctx.requestId, method, path, status: response.status, ms: performance.now() - started }, 'request');
    },
  };
}

/**
 * What a browser or a shared cache (a CDN, Varnish) may keep of a response that says nothing
 * itself (the pages, SSE and /metrics do): a result with an ETag, a GraphQL GET whose result is
 * the same for every caller, may be kept but is asked about each time (`no-cache`: a 304 while it
 * is current), by its media type (`Vary: Accept`: JSON and multipart/mixed are two bodies); any
 * other, nothing (`no-store`). Without a Cache-Control a shared cache may keep a response for a
 * while of its own choosing (Varnish: 120 s), and one with the caller's data (`me`, over an
 * `X-API-Key`, which such caches do not treat as a credential) would be served to other callers.
 */
function cacheable(headers: Headers): void {
  if (!headers.has('etag')) return headers.set('cache-control', 'no-store');
  for (const [name, value] of Object.entries(REVALIDATE_HEADERS)) headers.append(name, value);
}

/**
 * The client's address: the socket's, or with TRUST_PROXY the last X-Forwarded-For entry, the one
 * the proxy in front of us wrote. Entries before it are whatever the client sent the proxy: taking
 * the first would let any client choose the address its rate limits count against.
 */
export function clientAddress(request: Request | null, serverContext: Partial<NodeServerContext>, trustProxy: boolean): string {
  if (trustProxy) {
    const last = (request?.headers.get('x-forwarded-for') ?? serverContext.req?.headers['x-forwarded-for']?.toString())?.split(',').at(-1)?.trim();
    if (last) return last;
  }
  return serverContext.req?.socket.remoteAddress ?? 'unknown';
}
