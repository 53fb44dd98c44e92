// GET /healthz (the process is up) and GET /readyz (the database answers), before any limit.
// Another method than GET or HEAD is a 405, as on /metrics.
import type { Plugin } from 'graphql-yoga';
import { methodNotAllowed } from '../../errors.js';
import { errorResponse } from '../errors.js';
import { requestContextOf } from './server-context.js';

const ALLOW = ['GET', 'HEAD'];

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
      return ping().then(
        () => json(200, { status: 'ready' }),
        (error: unknown) => {
          requestContextOf(request).log().warn({ err: error }, 'readiness check failed');
          json(503, { status: 'unavailable' });
        },
      );
    },
  };
}
