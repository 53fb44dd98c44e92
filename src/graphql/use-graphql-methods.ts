// The methods of the GraphQL path beyond Yoga's GET and POST: HEAD, OPTIONS and the 405 of any other.
import type { Plugin } from 'graphql-yoga';
import { methodNotAllowed } from '../errors.js';
import { requestContextOf, requestRecordOf, setRequestRecord } from '../http/plugins/server-context.js';
import { refusalResponse } from './errors.js';

const ALLOW = ['GET', 'HEAD', 'POST', 'OPTIONS'];

/**
 * - HEAD of a query over GET is answered as its GET without the content (RFC 9110 9.3.2): counted
 *   alike, with the same headers (ETag, Content-Length, the limits) a client checks a cached result
 *   with. The request is swapped for its GET; its request record follows, keeping the method sent.
 * - OPTIONS that is no CORS preflight (useCors answers those): 204 with `Allow`; any other method:
 *   405 with `Allow` in GraphQL's shape, as the REST paths answer (rather than Yoga's 415).
 */
export function useGraphQLMethods(path: string): Plugin {
  const allow = ALLOW.join(', ');
  return {
    onRequest({ request, url, setRequest, endResponse, fetchAPI }) {
      const { method } = request;
      if (method === 'GET' || method === 'POST' || url.pathname !== path) return;
      if (method === 'HEAD') {
        const asGet = new fetchAPI.Request(request.url, { method: 'GET', headers: request.headers });
        const record = requestRecordOf(request);
        if (record) setRequestRecord(asGet, record);
        return setRequest(asGet);
      }
      if (method === 'OPTIONS') {
        return endResponse(new fetchAPI.Response(null, { status: 204, headers: { allow, 'access-control-allow-methods': allow } }));
      }
      endResponse(refusalResponse(fetchAPI.Response, methodNotAllowed(method, url.pathname, ALLOW), request, requestContextOf(request).log(), true));
    },
  };
}
