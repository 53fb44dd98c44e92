// The Yoga plugins that cache queries on the GraphQL path, over GET and POST, with Yoga's
// response-cache plugin: only queries, only documents that select no field never cached, one
// cache for every caller, and an ETag on a GET's stored result alone.
import { useResponseCache, type Cache } from '@graphql-yoga/plugin-response-cache';
import { getOperationAST, OperationTypeNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { forRequests } from '../../graphql/for-requests.js';
import { attachment } from '../../http/plugins/attachment.js';
import { requestRecordOf } from '../../http/plugins/server-context.js';
import type { NeverCached } from './cacheable.js';
import { cacheKey, entityTag, NO_ENTRY } from './entry-keys.js';
import { entryKey, readKey } from './generations.js';
import { RESPONSE_CACHE_TTL_MS } from './store.js';

/** An operation's context, once it is known never to be stored: not a query, or its document selects a field never cached. */
const neverStored = attachment<object, true>('not a query, or selects a field never cached');

/**
 * Queries on `path`, over GET and POST, are cached; nothing else is (plain GET hits are served by
 * useResponseCacheHits, POST hits by Yoga's plugin once the body is parsed). Only a GET's result
 * carries an ETag: a POST is never answered 304, and a tag would only invite clients to send one
 * in vain.
 */
export function useCachedQueries({ cache, path, neverCached }: { cache: Cache; path: string; neverCached: NeverCached }): Plugin[] {
  /** Requests whose document is known never to be stored: Yoga's plugin does not look them up. */
  const unlooked = attachment<Request, true>('never cached: not looked up');
  // Only GET and POST queries on `path` reach either plugin (a WebSocket operation has no
  // request): for any other request every hook of both is skipped (forRequests), where the
  // plugin's own `enabled` option would still record each request in its WeakMaps first.
  const cached = (request: Request) => (request.method === 'GET' || request.method === 'POST') && requestRecordOf(request)?.path === path;
  return [
    // Only a query is cached. With invalidateViaMutation off, envelop's plugin would store a
    // mutation's result like a query's (and serve it to the next identical mutation), and a
    // subscription's events too: an operation that is not a query is marked here, before the
    // plugin's onExecute asks `enabled` (and so is one whose document selects a field never
    // cached: see neverCachedDocuments).
    forRequests(cached, {
      onParams({ params, request }) {
        if (params.query && neverCached.text(params.query)) unlooked.set(request, true);
      },
      onExecute({ args }) {
        const context = args.contextValue as { params?: { query?: string | null } };
        if (getOperationAST(args.document, args.operationName)?.operation !== OperationTypeNode.QUERY || neverCached.node(args.document, context.params?.query ?? undefined)) {
          neverStored.set(context, true);
        }
      },
    }),
    forRequests(cached, useResponseCache({
      enabled: (request, context) => !unlooked.get(request) && !neverStored.get(context as object),
      // One cache for everyone: what depends on the caller is never stored (cacheable.ts).
      session: () => null,
      cache,
      ttl: RESPONSE_CACHE_TTL_MS,
      ttlPerSchemaCoordinate: Object.fromEntries(neverCached.uncached.map((coordinate) => [coordinate, 0])),
      // A synchronous node:crypto hash, where Yoga's plugin would hash with WebCrypto (async, and
      // a DOMException per call).
      buildResponseCacheKey: ({ documentString, variableValues, operationName }) => {
        const key = cacheKey(documentString, operationName, variableValues);
        return key === undefined ? NO_ENTRY : readKey(key);
      },
      // Invalidation comes from our events (invalidation.ts), not from what a mutation happens to return.
      invalidateViaMutation: false,
      // Read (and removed) below.
      includeExtensionMetadata: true,
    })),
    forRequests(cached, {
      // Yoga's plugin gives every error-free result an ETag, cached or not (a TTL of 0 is checked
      // later). An ETag that If-None-Match can never match would only make clients revalidate in
      // vain, and would be the same for two callers' `me`: only stored results keep theirs, as
      // the tag of their version (entityTag).
      onResultProcess({ request, result, setResult }) {
        if (Array.isArray(result) || Symbol.asyncIterator in result) return;
        const { responseCache: meta, ...extensions } = (result.extensions ?? {}) as { responseCache?: { hit?: boolean; didCache?: boolean }; http?: { headers?: Record<string, string> } };
        if (!meta) return;
        if (extensions.http?.headers?.ETag) {
          const { ETag: etag, 'Last-Modified': modified, ...headers } = extensions.http.headers;
          const tagged = request.method === 'GET' && (meta.hit || meta.didCache);
          extensions.http = { ...extensions.http, headers: tagged ? { ...headers, ETag: entityTag(entryKey(etag), result.data), 'Last-Modified': modified! } : headers };
        }
        setResult({ ...result, extensions });
      },
    }),
  ];
}
