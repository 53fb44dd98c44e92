// CORS for the API (REST under /api, GraphQL under /graphql): any origin, since tokens never travel
// in cookies. Preflights are answered here, before the rate-limit budget (a browser sends them on its
// own), and API responses expose the headers a client reads (limits, Retry-After, request id, ETag).
// Yoga's own CORS is off: it would answer every OPTIONS itself, REST's `Allow` answers included.
import type { Plugin } from 'graphql-yoga';
import { requestRecordOf } from './server-context.js';

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const ALLOWED_HEADERS = 'authorization, content-type, x-api-key, x-request-id, if-none-match, if-match, idempotency-key, accept';
const EXPOSED_HEADERS = [
  'ratelimit', 'ratelimit-policy', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset',
  'retry-after', 'x-request-id', 'etag', 'last-modified', 'allow', 'idempotent-replayed',
].join(', ');
/** How long a browser may reuse a preflight's answer (seconds). */
const MAX_AGE = '600';

const isApiPath = (path: string) => path.startsWith('/api/') || path === '/graphql' || path.startsWith('/graphql/');

export function useCors(): Plugin {
  return {
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (request.method !== 'OPTIONS' || !request.headers.has('access-control-request-method') || !isApiPath(url.pathname)) return;
      endResponse(
        new fetchAPI.Response(null, {
          status: 204,
          headers: {
            'access-control-allow-origin': '*',
            'access-control-allow-methods': ALLOWED_METHODS,
            'access-control-allow-headers': ALLOWED_HEADERS,
            'access-control-max-age': MAX_AGE,
          },
        }),
      );
    },
    onResponse({ request, response }) {
      const record = requestRecordOf(request);
      // GraphiQL's page lives on /graphql too: a page, not an API response.
      if (!record || !isApiPath(record.path) || response.headers.get('content-type')?.startsWith('text/html')) return;
      if (!response.headers.has('access-control-allow-origin')) response.headers.set('access-control-allow-origin', '*');
      response.headers.set('access-control-expose-headers', EXPOSED_HEADERS);
    },
  };
}
