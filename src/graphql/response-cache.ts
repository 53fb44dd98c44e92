// The response cache for GraphQL queries over GET (@graphql-yoga/plugin-response-cache): a cached
// result carries an ETag, and `If-None-Match` answers 304. In-process without REDIS_URL; shared by
// every instance through Redis with it (@envelop/response-cache-redis).
//
// Only what is the same for every caller is cached: the cache is shared (no session), and every
// field that depends on the caller declares `authScopes` in the schema (Pothos), which gives it a
// TTL of 0 here, so a result that selects one is never stored. Query.pageViews changes with every
// page view and is not cached either.
//
// Entries are invalidated by our own committed events (a user renamed, a lesson changed or
// published), twice: by the request that committed the change, before it answers, so a read that
// follows it on any instance is fresh; and by every instance when the event reaches it on the
// event bus, which also clears an entry that a read begun before the commit stored afterwards.
import { createHash } from 'node:crypto';
import { createRedisCache } from '@envelop/response-cache-redis';
import { createInMemoryCache, useResponseCache, type Cache } from '@graphql-yoga/plugin-response-cache';
import { isObjectType, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import type { EventBus } from '../modules/events/bus.js';
import type { EventPayload } from '../modules/events/outbox.js';

/** How long an entry lives at most, even if no event invalidates it. */
export const RESPONSE_CACHE_TTL_MS = 60_000;
/** Entries kept in process (least recently used go first). */
const IN_MEMORY_ENTRIES = 1000;

type Entity = { typename: string; id: string };

/** The cached entities an event names: what its change may have made stale. */
export function entitiesOf(event: EventPayload): Entity[] {
  if (event.event === 'user.updated' && 'userId' in event) return [{ typename: 'User', id: event.userId }];
  if ((event.event === 'lesson.published' || event.event === 'lesson.updated') && 'lessonId' in event) return [{ typename: 'Lesson', id: event.lessonId }];
  return [];
}

export interface ResponseCache {
  cache: Cache;
  /** Invalidates what these committed events name; a failure is logged, never thrown. */
  invalidate(events: readonly EventPayload[]): Promise<void>;
  close(): Promise<void>;
}

/** The deployment's key prefix on Redis: every instance of one deployment shares its entries. */
export function responseCachePrefix(databaseIdentity: string): string {
  return `learnstream:cache:${createHash('sha256').update(databaseIdentity).digest('hex').slice(0, 16)}:`;
}

/**
 * Invalidates what every event this instance hears names (see the top of this file); returns a
 * function that stops following.
 */
export function invalidateOnEvents(bus: EventBus, responseCache: ResponseCache): () => Promise<void> {
  const events = bus.subscribe();
  const done = (async () => {
    for await (const event of events) await responseCache.invalidate([event.payload]);
  })();
  return async () => {
    await events.return?.();
    await done;
  };
}

/** `prefix` namespaces the Redis keys per deployment (like the rate-limit counters). */
export function createResponseCache({ redisUrl, prefix, log }: { redisUrl?: string; prefix: string; log: Logger }): ResponseCache {
  let redis: Redis | undefined;
  let cache: Cache;
  if (redisUrl) {
    // keyPrefix puts every key the library writes (results, entity sets) under the deployment's prefix.
    redis = new Redis(redisUrl, { keyPrefix: prefix, maxRetriesPerRequest: 1, enableOfflineQueue: false, enableAutoPipelining: true });
    redis.on('error', () => undefined); // reported where a call fails (below, and by the plugin's get as a miss)
    const shared = createRedisCache({ redis });
    const store = redis;
    cache = {
      get: async (id) => {
        try {
          return await shared.get(id);
        } catch {
          return undefined; // Redis unreachable: a miss, the query runs
        }
      },
      set: async (id, data, entities, ttl) => {
        const list = [...entities];
        try {
          await shared.set(id, data, list, ttl);
          // The library's entity sets never expire: bound them by the entries' lifetime, so a
          // flood of distinct queries cannot grow Redis without end.
          const pipeline = store.pipeline();
          for (const key of new Set(list.flatMap((e) => (e.id == null ? [e.typename] : [e.typename, `${e.typename}:${e.id}`])))) pipeline.pexpire(key, ttl);
          pipeline.pexpire(`operations:${id}`, ttl);
          await pipeline.exec();
        } catch (error) {
          log.warn({ err: error }, 'response cache: could not store a result');
        }
      },
      invalidate: (entities) => shared.invalidate(entities),
    };
  } else {
    cache = createInMemoryCache({ max: IN_MEMORY_ENTRIES });
  }
  return {
    cache,
    async invalidate(events) {
      const entities = events.flatMap(entitiesOf);
      if (!entities.length) return;
      try {
        await cache.invalidate(entities);
      } catch (error) {
        log.error({ err: error }, 'response cache: invalidation failed (entries expire within the TTL)');
      }
    },
    async close() {
      redis?.disconnect();
    },
  };
}

/** Every field that declares authScopes (it depends on the caller): never cached. */
function callerDependentFields(schema: GraphQLSchema): string[] {
  const coordinates: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const options = field.extensions?.pothosOptions as { authScopes?: unknown } | undefined;
      if (options?.authScopes) coordinates.push(`${type.name}.${field.name}`);
    }
  }
  return coordinates;
}

/** The key of a GET query's entry: its document, operation name and variables. */
function cacheKey(documentString: string, operationName: string | null | undefined, variables: unknown): string {
  return createHash('sha256').update(`${documentString}|${operationName ?? ''}|${JSON.stringify(variables ?? {})}`).digest('hex');
}

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
 * Yoga's response-cache plugin serves a hit once the request is parsed into GraphQL params, after
 * Yoga's request pipeline; a hit is only a lookup, so a plain GET (query, variables, operation
 * name) is answered here, from onRequest, with what Yoga would send for it: the same body, ETag,
 * Last-Modified and content type. Anything else (persisted queries, other Accept values) takes
 * Yoga's way. After useResponseCache in the list: its If-None-Match → 304 comes first.
 */
function useEarlyCacheHits(cache: Cache, path: string): Plugin {
  return {
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (request.method !== 'GET' || url.pathname !== path) return;
      const query = url.searchParams.get('query');
      if (!query || url.searchParams.has('extensions')) return;
      const type = CONTENT_TYPE_FOR_ACCEPT.get((request.headers.get('accept') ?? '').trim().toLowerCase());
      if (!type) return;
      let variables: unknown;
      try {
        variables = JSON.parse(url.searchParams.get('variables') ?? '{}');
      } catch {
        return; // Yoga answers the malformed request
      }
      return Promise.resolve(cache.get(cacheKey(query, url.searchParams.get('operationName'), variables))).then((cached) => {
        if (!cached) return;
        const { http, ...extensions } = (cached.extensions ?? {}) as { http?: { headers?: Record<string, string> } };
        const body = JSON.stringify({ ...cached, extensions: Object.keys(extensions).length ? extensions : undefined });
        endResponse(new fetchAPI.Response(body, { headers: { ...http?.headers, 'content-type': `${type}; charset=utf-8` } }));
      });
    },
  };
}

/** The plugins: GET queries on `path` are cached; nothing else is. */
export function useCachedQueries({ cache, schema, path }: { cache: Cache; schema: GraphQLSchema; path: string }): Plugin[] {
  const uncached = [...callerDependentFields(schema), 'Query.pageViews'];
  return [
    useResponseCache({
      // One cache for everyone: what depends on the caller is never stored (see above).
      session: () => null,
      cache,
      ttl: RESPONSE_CACHE_TTL_MS,
      ttlPerSchemaCoordinate: Object.fromEntries(uncached.map((coordinate) => [coordinate, 0])),
      // Yoga's plugin builds the key of every request, cached or not, with WebCrypto (async, and
      // a DOMException per call): a POST gets no key, and a GET a synchronous node:crypto hash.
      buildResponseCacheKey: ({ documentString, variableValues, operationName, request }) =>
        request.method !== 'GET' ? '' : cacheKey(documentString, operationName, variableValues),
      // A WebSocket operation has no request (and is never cached).
      enabled: (request: Request | undefined) => request?.method === 'GET' && new URL(request.url).pathname === path,
      // Invalidation comes from our events (above), not from what a mutation happens to return.
      invalidateViaMutation: false,
      // Read (and removed) below.
      includeExtensionMetadata: true,
    }),
    {
      // Yoga's plugin gives every error-free result an ETag, cached or not (a TTL of 0 is checked
      // later). An ETag that If-None-Match can never match would only make clients revalidate in
      // vain, and would be the same for two callers' `me`: only stored results keep theirs.
      onResultProcess({ result, setResult }) {
        if (Array.isArray(result) || Symbol.asyncIterator in result) return;
        const { responseCache: meta, ...extensions } = (result.extensions ?? {}) as { responseCache?: { hit?: boolean; didCache?: boolean }; http?: { headers?: Record<string, string> } };
        if (!meta) return;
        if (!meta.hit && !meta.didCache && extensions.http?.headers) {
          const { ETag: _etag, 'Last-Modified': _modified, ...headers } = extensions.http.headers;
          extensions.http = { ...extensions.http, headers };
        }
        setResult({ ...result, extensions });
      },
    },
    useEarlyCacheHits(cache, path),
  ];
}
