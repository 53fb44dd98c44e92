// The early hit: a plain GET or POST query whose result is cached is answered from onRequest,
// before Yoga's request pipeline, with what Yoga would send for it; If-None-Match is decided here.
import type { Cache } from '@graphql-yoga/plugin-response-cache';
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { listedTags, responseHeaders, REVALIDATE_HEADERS } from '../../http/headers.js';
import type { NodeServerContext } from '../../http/plugins/server-context.js';
import type { NeverCached } from './cacheable.js';
import { documentOf, entityTag, entryKeyOfGet, entryKeyOfPost } from './entry-keys.js';
import { entryKey } from './generations.js';

/**
 * The Accept values a cached result is answered to here, with the content type Yoga's result
 * processors give them; any other (a list, parameters, an event stream) takes Yoga's way.
 */
const CONTENT_TYPE_FOR_ACCEPT: ReadonlyMap<string, string> = new Map([
  ['', 'application/json'],
  ['*/*', 'application/json'],
  ['application/json', 'application/json'],
  ['application/graphql-response+json', 'application/graphql-response+json'],
]);

/**
 * Answers a hit of a plain GET (query, variables, operation name) or POST here, with the body, ETag,
 * Last-Modified and content type Yoga's response-cache plugin would send once it had parsed the
 * request; anything else (persisted queries, other Accept values) takes Yoga's way. It belongs right
 * after the rate-limit budget (a hit is counted): the onRequest hooks between never act on such a
 * request (one whose query string is not UTF-8 was never stored, so it reaches the input checks),
 * and each one passed costs a hit an iteration of the chain.
 */
export function useResponseCacheHits({ cache, path, persistedDocument, neverCached }: { cache: Cache; path: string; persistedDocument?: (sha256Hash: string) => string | undefined; neverCached: NeverCached }): Plugin {
  // What a stored result is sent as, made once per entry: the in-process cache hands out the
  // stored object itself (an entry read from Redis is a new object each time, and made anew).
  const rendered = new WeakMap<object, { body: string; headers: Record<string, string> }>();
  const render = (cached: ExecutionResult) => {
    const { http, ...extensions } = (cached.extensions ?? {}) as { http?: { headers?: Record<string, string> } };
    const body = JSON.stringify({ ...cached, extensions: Object.keys(extensions).length ? extensions : undefined });
    const headers: Record<string, string> = { ...http?.headers };
    if (headers.ETag) headers.ETag = entityTag(entryKey(headers.ETag), cached.data);
    // Made once per entry here, not added to every response on its way out (useRequestContext).
    return { body, headers: responseHeaders(headers, headers.ETag ? REVALIDATE_HEADERS : undefined) };
  };
  /**
   * If-None-Match: 304 only when a tag it lists is the current version of this request's own
   * entry (its document, operation name and variables; a persisted query sent by its hash alone
   * is looked up in `persistedDocument`), never for a tag of another entry (another user's, `me`,
   * one the caller may not run, a syntax error). The header is removed once decided, so Yoga's
   * plugin, which would look its value up as a key of the whole cache, never sees it, and the
   * request goes on in full.
   */
  const conditional = (request: Request, url: URL, ifNoneMatch: string, endResponse: (response: Response) => void, fetchAPI: { Response: typeof Response }) => {
    request.headers.delete('if-none-match');
    const document = documentOf(url, persistedDocument);
    const key = document === undefined ? undefined : entryKeyOfGet(url, document);
    if (key === undefined) return; // no entry of its own: answered in full
    return Promise.resolve(cache.get(key)).then((cached) => {
      if (!cached) return;
      const etag = entityTag(key, cached.data);
      if (!listedTags(ifNoneMatch).includes(etag)) return;
      const modified = (cached.extensions as { http?: { headers?: Record<string, string> } } | undefined)?.http?.headers?.['Last-Modified'];
      endResponse(new fetchAPI.Response(null, { status: 304, headers: responseHeaders({ ETag: etag }, modified ? { 'Last-Modified': modified } : undefined) }));
    });
  };
  // The entry key of a plain GET that has hit, by its query string, which alone makes it: a hit
  // parses no parameters and hashes nothing (bounded by the strings' total length).
  const keysOfGets = new LRUCache<string, string>({ maxSize: 4_000_000, sizeCalculation: (entryKey, search) => search.length + entryKey.length });
  return {
    onRequest({ request, url, serverContext, endResponse, fetchAPI }) {
      if (url.pathname !== path) return;
      let key: string | undefined;
      let remembered = false;
      if (request.method === 'POST') {
        // A POST is answered from the cache too, but never with a 304: a POST is not a conditional
        // request (RFC 9110 13.1.2 applies If-None-Match to GET and HEAD), and Yoga's plugin would
        // look the value up as a key of the whole cache.
        request.headers.delete('if-none-match');
        key = entryKeyOfPost(request, url, serverContext as Partial<NodeServerContext>, neverCached);
      } else if (request.method === 'GET') {
        const ifNoneMatch = request.headers.get('if-none-match');
        if (ifNoneMatch !== null) return conditional(request, url, ifNoneMatch, endResponse, fetchAPI);
        key = keysOfGets.get(url.search);
        remembered = key !== undefined;
        if (key === undefined) {
          const query = url.searchParams.get('query');
          if (!query || url.searchParams.has('extensions') || neverCached.text(query)) return;
          key = entryKeyOfGet(url, query);
        }
      }
      const type = key && CONTENT_TYPE_FOR_ACCEPT.get((request.headers.get('accept') ?? '').trim().toLowerCase());
      if (!key || !type) return;
      const tagged = request.method === 'GET';
      const entry = key;
      return Promise.resolve(cache.get(entry)).then((cached) => {
        if (!cached) return;
        // Kept once it has hit: a document never stored (known once it has run) is not looked up
        // again, even if its first GET came before that.
        if (tagged && !remembered) keysOfGets.set(url.search, entry);
        let response = rendered.get(cached);
        if (!response) rendered.set(cached, (response = render(cached)));
        const contentType = { 'content-type': `${type}; charset=utf-8` };
        // A new headers object each time: the response's headers are written into it. A POST's
        // without the tag (see above).
        endResponse(new fetchAPI.Response(response.body, { headers: tagged ? responseHeaders(response.headers, contentType) : contentType }));
      });
    },
  };
}
