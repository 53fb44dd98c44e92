// GET /healthz (the process is up) and GET /readyz (the database answers), before any limit.
import type { Plugin } from 'graphql-yoga';
import { requestContextOf } from './server-context.js';

export function useHealthChecks({ ping }: { ping(): Promise<void> }): Plugin {
  return {
    // Not async: every other request passes on without a promise.
    onRequest({ request, url, endResponse, fetchAPI }) {
      const json = (status: number, body: unknown) =>
        endResponse(new fetchAPI.Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } }));
      if (url.pathname === '/healthz') return json(200, { status: 'ok' });
      if (url.pathname !== '/readyz') return;
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
