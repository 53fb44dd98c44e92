// GET /healthz (the process is up) and GET /readyz (the database answers), before any limit.
// Another method than GET or HEAD is a 405, as on /metrics.
import type { Plugin } from 'graphql-yoga';
import { methodNotAllowed } from '../../errors.js';
import { errorResponse } from '../errors.js';
import { requestContextOf } from './server-context.js';

const ALLOW = ['GET', 'HEAD'];

/**
 * /readyz answers 503 when the database has not answered within this. The database's own ping
 * gives up sooner on a query (PING_TIMEOUT_MS); this also bounds waiting for a connection to a
 * server that accepts TCP but never answers, which can take minutes.
 */
export const READINESS_TIMEOUT_MS = 3_000;

/** `ping()`, failing when it has not answered within `ms`. */
function pingWithin(ping: () => Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the database did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([ping(), late]).finally(() => clearTimeout(timer));
}

export function useHealthChecks({ ping }: { ping(): Promise<void> }): Plugin {
  return {
    // Not async: every other request passes on without a promise.
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (url.pathname !== '/healthz' && url.pathname !== '/readyz') return;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return endResponse(errorResponse(fetchAPI.Response, methodNotAllowed(request.method, url.pathname, ALLOW), requestContextOf(request).log()));
      }
      const json = (status: number, body: unknown) =>
        endResponse(new fetchAPI.Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } }));
      if (url.pathname === '/healthz') return json(200, { status: 'ok' });
      return pingWithin(ping, READINESS_TIMEOUT_MS).then(
        () => json(200, { status: 'ready' }),
        (error: unknown) => {
          requestContextOf(request).log().warn({ err: error }, 'readiness check failed');
          json(503, { status: 'unavailable' });
        },
      );
    },
  };
}
