// The methods of the GraphQL path beyond Yoga's GET and POST, in one hook:
//
// - HEAD of a GraphQL query over GET: answered as its GET, without the content (RFC 9110 9.3.2:
//   HEAD is GET without a body; Yoga only knows GET and POST and answered 405). The query runs and
//   is counted like its GET, and the same headers come back (ETag, Content-Length, the limits):
//   what a client checks a cached result with. Node's server sends no body for a HEAD request.
//   The request is swapped for its GET before Yoga's method check; the record made by
//   useRequestContext follows it, keeping the method the client sent (the log and the metrics).
// - OPTIONS that is no CORS preflight (useCors answers those first): 204 with `Allow`, and any
//   other method: 405 with `Allow`, in GraphQL's shape, as the REST paths answer theirs
//   (src/http/router.ts). Yoga looked for a body in every other request and answered 415 "a
//   GraphQL POST is sent as application/json", which tells a client nothing about the method.
import type { Plugin } from 'graphql-yoga';
import { methodNotAllowed } from '../errors.js';
import { requestContextOf, requestRecordOf, setRequestRecord } from '../http/plugins/server-context.js';
import { refusalResponse } from './errors.js';

const ALLOW = ['GET', 'HEAD', 'POST', 'OPTIONS'];

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
