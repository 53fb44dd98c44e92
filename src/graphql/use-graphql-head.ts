// HEAD of a GraphQL query over GET: answered as its GET, without the content (RFC 9110 9.3.2:
// HEAD is GET without a body; Yoga only knows GET and POST and answered 405). The query runs and
// is counted like its GET, and the same headers come back (ETag, Content-Length, the limits):
// what a client checks a cached result with. Node's server sends no body for a HEAD request.
// The request is swapped for its GET before Yoga's method check; the record made by
// useRequestContext follows it, keeping the method the client sent (the log and the metrics).
import type { Plugin } from 'graphql-yoga';
import { requestRecordOf, setRequestRecord } from '../http/plugins/server-context.js';

export function useGraphQLHead(path: string): Plugin {
  return {
    onRequest({ request, url, setRequest, fetchAPI }) {
      if (request.method !== 'HEAD' || url.pathname !== path) return;
      const asGet = new fetchAPI.Request(request.url, { method: 'GET', headers: request.headers });
      const record = requestRecordOf(request);
      if (record) setRequestRecord(asGet, record);
      setRequest(asGet);
    },
  };
}
