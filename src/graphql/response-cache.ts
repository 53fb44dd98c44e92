// The response cache for GraphQL queries over GET and POST (@graphql-yoga/plugin-response-cache),
// which REST's public reads use too (cachedReads): a cached GET result carries an ETag, and
// `If-None-Match` answers 304. In-process without REDIS_URL; shared by
// every instance through Redis with it.
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
import { createInMemoryCache, useResponseCache, type Cache } from '@graphql-yoga/plugin-response-cache';
import { BREAK, getOperationAST, isObjectType, OperationTypeNode, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { deploymentId } from '../deployment.js';
import { rarely, type Logger } from '../logger.js';
import type { EventBus } from '../modules/events/bus.js';
import type { EventPayload } from '../modules/events/outbox.js';
import { attachment } from '../http/plugins/attachment.js';
import { requestRecordOf, type NodeServerContext } from '../http/plugins/server-context.js';
import { duplicateKey } from '../http/body.js';
import { listedTags, responseHeaders, REVALIDATE_HEADERS } from '../http/headers.js';
import { repeatedParameter } from '../http/plugins/use-input-encoding.js';
import { forRequests } from './for-requests.js';
import { REDIS_COMMAND_TIMEOUT_MS } from '../redis-options.js';

/** How long an entry lives at most, even if no event invalidates it. */
export const RESPONSE_CACHE_TTL_MS = 60_000;
/** Entries kept in process (least recently used go first). */
const IN_MEMORY_ENTRIES = 1000;

export type Entity = { typename: string; id: string };

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
  return `learnstream:cache:${deploymentId(databaseIdentity)}:`;
}

/**
 * Invalidates what every event this instance hears names (see the top of this file); returns a
 * function that stops following. What arrives while an invalidation is under way goes into the
 * next one, whatever its number: one round trip to Redis per batch, not per event. One at a time,
 * the invalidations fell behind whenever Redis answered slower than events arrived (the soak's
 * instance behind a proxy: 4,000 events behind after two minutes, its memory growing with them),
 * and entries other instances' changes made stale lived on for as long.
 */
export function invalidateOnEvents(bus: EventBus, responseCache: ResponseCache): () => Promise<void> {
  const events = bus.subscribe();
  let heard: EventPayload[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  const reading = (async () => {
    for await (const event of events) {
      heard.push(event.payload);
      wake?.();
    }
    ended = true;
    wake?.();
  })();
  const invalidating = (async () => {
    for (;;) {
      if (heard.length) {
        const batch = heard;
        heard = [];
        await responseCache.invalidate(batch);
      } else if (ended) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  })();
  return async () => {
    await events.return?.();
    await Promise.all([reading, invalidating]);
  };
}

/**
 * Where entries live. A read may begin before a change commits and store its (old) result after
 * the change invalidated the entry: then it would be served stale. So every invalidation bumps a
 * generation, a lookup that misses notes the generation it saw, and a result is stored only if
 * the generation is still that one, checked atomically with the store.
 */
interface GenerationalStore {
  get(id: string): Promise<{ entry: ExecutionResult | undefined; generation: string }>;
  /** Stores only if the generation is still `generation`. */
  set(id: string, entry: ExecutionResult, entities: Entity[], ttl: number, generation: string): Promise<void>;
  /** Bumps the generation, then drops every entry that names one of the entities. */
  invalidate(entities: Entity[]): Promise<void>;
}


function inMemoryStore(): GenerationalStore {
  const entries = createInMemoryCache({ max: IN_MEMORY_ENTRIES });
  let generation = 0;
  return {
    get: async (id) => ({ entry: (await entries.get(id)) ?? undefined, generation: String(generation) }),
    set: async (id, entry, entities, ttl, seen) => {
      if (String(generation) === seen) await entries.set(id, entry, entities, ttl);
    },
    invalidate: async (entities) => {
      generation++;
      await entries.invalidate(entities);
    },
  };
}

/** How long the generation is kept without any invalidation (a new one starts from 1 again). */
const GENERATION_TTL_MS = 24 * 60 * 60 * 1000;

// KEYS: generation, epoch, entry, entity sets. ARGV: the generation seen, the entry (JSON), TTL (ms), the entry's id.
// The entry is stored as `<epoch>|<JSON>`: a lookup takes it only while the epoch is still that one.
const STORE_IF_CURRENT = `
if (redis.call('GET', KEYS[1]) or '0') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[3], (redis.call('GET', KEYS[2]) or '0') .. '|' .. ARGV[2], 'PX', ARGV[3])
for i = 4, #KEYS do
  redis.call('SADD', KEYS[i], ARGV[4])
  if redis.call('PTTL', KEYS[i]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[i], ARGV[3]) end
end
return 1`;
// KEYS: generation, entity sets. ARGV: the prefix of entry keys, the generation's TTL (ms).
const INVALIDATE = `
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
for i = 2, #KEYS do
  for _, id in ipairs(redis.call('SMEMBERS', KEYS[i])) do redis.call('DEL', ARGV[1] .. id) end
  redis.call('DEL', KEYS[i])
end
return 1`;
// KEYS: generation, epoch. ARGV: their TTL (ms). Every entry stored so far stops being found, and
// no lookup begun before can store what it read.
const FORGET_ALL = `
for i = 1, 2 do
  redis.call('INCR', KEYS[i])
  redis.call('PEXPIRE', KEYS[i], ARGV[1])
end
return 1`;

/**
 * Shared by every instance: `<prefix>gen`, `<prefix>epoch`, `<prefix>r:<id>` (entries),
 * `<prefix>e:<Type>:<id>` (what names an entity).
 *
 * While this instance cannot reach Redis, a change it commits cannot drop what it made stale, and
 * the event that would make every instance drop it is lost with Redis's pub/sub. So once it is
 * connected again, before it reads any entry, it forgets them all (a new epoch); until then every
 * lookup misses and the query runs.
 */
function redisStore(redis: Redis, prefix: string, log: Logger): GenerationalStore {
  const generationKey = `${prefix}gen`;
  const epochKey = `${prefix}epoch`;
  const entryKey = (id: string) => `${prefix}r:${id}`;
  const setKey = (entity: Entity) => `${prefix}e:${entity.typename}:${entity.id}`;
  let trusted = true;
  redis.on('close', () => {
    trusted = false;
  });
  redis.on('ready', () => {
    if (trusted) return;
    redis.eval(FORGET_ALL, 2, generationKey, epochKey, String(GENERATION_TTL_MS)).then(
      () => {
        trusted = true;
      },
      // Lost again before it ran: the next 'ready' tries again.
      (error: unknown) => log.warn({ err: error }, 'response cache: could not clear the cache after Redis came back'),
    );
  });
  return {
    async get(id) {
      if (!trusted) throw new Error('response cache: not cleared since Redis came back');
      const [stored, generation, epoch] = await redis.mget(entryKey(id), generationKey, epochKey);
      const bar = stored?.indexOf('|') ?? -1;
      const entry = stored && stored.slice(0, bar) === (epoch ?? '0') ? (JSON.parse(stored.slice(bar + 1)) as ExecutionResult) : undefined;
      return { entry, generation: generation ?? '0' };
    },
    async set(id, entry, entities, ttl, seen) {
      const keys = [...new Set(entities.map(setKey))];
      await redis.eval(STORE_IF_CURRENT, 3 + keys.length, generationKey, epochKey, entryKey(id), ...keys, seen, JSON.stringify(entry), String(ttl), id);
    },
    async invalidate(entities) {
      const keys = [...new Set(entities.map(setKey))];
      await redis.eval(INVALIDATE, 1 + keys.length, generationKey, ...keys, `${prefix}r:`, String(GENERATION_TTL_MS));
    },
  };
}

/** Only entities with an id are tracked: invalidation always names one (entitiesOf). */
const withIds = (entities: Iterable<{ typename: string; id?: string | number }>): Entity[] =>
  [...entities].flatMap((e) => (e.id == null ? [] : [{ typename: e.typename, id: String(e.id) }]));

/**
 * The key Yoga's plugin reads and stores an entry under: the entry's key (cacheKey), then `:` and
 * a number of the read, so that the generation a read's lookup saw is noted for that read alone.
 * By entry key, a note belonged to every read of the query in flight: the first to store took it,
 * a read of the same query that missed after a change noted the new generation, and a read begun
 * before the change, holding the old data, then stored against that note, old data served as
 * fresh for up to a minute. (Yoga's Cache interface gives `get` and `set` no request; asking Node
 * for the request's context, AsyncLocalStorage, cost every request about 7 µs of CPU, 10 %.)
 */
let reads = 0;
const readKey = (key: string) => `${key}:${(reads = (reads + 1) % 0x7fffffff).toString(36)}`;
/** The entry's key in a read's key (or in an entry key, itself). */
const entryKey = (id: string) => {
  const mark = id.indexOf(':');
  return mark === -1 ? id : id.slice(0, mark);
};

/** The plugin's Cache over a generational store: a read that misses notes the generation it saw. */
function generationalCache(store: GenerationalStore, log: Logger): Cache {
  // By read (readKey), the generation its first lookup saw when it missed; bounded (a miss of a
  // result that is never stored, e.g. one that selects `me`, leaves its note here until it is
  // pushed out, and a read whose note was pushed out stores nothing).
  const seenAtMiss = new LRUCache<string, string>({ max: 10_000, ttl: RESPONSE_CACHE_TTL_MS });
  const storeFailed = rarely(log);
  return {
    async get(id) {
      try {
        const { entry, generation } = await store.get(entryKey(id));
        if (!entry && id.includes(':') && !seenAtMiss.has(id)) seenAtMiss.set(id, generation);
        return entry;
      } catch {
        return undefined; // Redis unreachable: a miss, the query runs
      }
    },
    async set(id, entry, entities, ttl) {
      const seen = seenAtMiss.get(id);
      seenAtMiss.delete(id);
      // No miss noted for this read: store nothing rather than guess.
      if (seen === undefined) return;
      try {
        await store.set(entryKey(id), entry, withIds(entities), ttl, seen);
      } catch (error) {
        storeFailed('warn', { err: error }, 'response cache: could not store a result');
      }
    },
    invalidate: (entities) => store.invalidate(withIds(entities)),
  };
}

/** A REST answer read through the response cache: its JSON and the entity tag of that JSON. */
export interface CachedJson {
  body: string;
  etag: string;
}

/**
 * REST reads through the same cache as GraphQL's (the same entries' lifetime, invalidation by our
 * events and generations): `read(key, load)` answers from the entry under `key`, or calls `load`
 * and stores what it returns, tagged with the entities it names, unless a change committed since
 * the lookup. A `load` that throws (a 404) stores nothing. The tag is a digest of the body: the
 * same whether the answer came from the cache or the database, so If-None-Match is decided alike.
 */
export function cachedReads(cache: Cache) {
  // Rendered once per entry: the in-process cache hands out the stored object itself.
  const rendered = new WeakMap<object, CachedJson>();
  const render = (data: unknown): CachedJson => {
    const body = JSON.stringify(data);
    return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
  };
  return {
    async read(key: string, load: () => Promise<{ data: unknown; entities: Entity[] }>): Promise<CachedJson> {
      const read = readKey(createHash('sha256').update(key).digest('hex'));
      const cached = await cache.get(read);
      if (cached) {
        let answer = rendered.get(cached);
        if (!answer) rendered.set(cached, (answer = render(cached.data)));
        return answer;
      }
      const { data, entities } = await load();
      // The entry the in-process cache will hand out, rendered now: its first hit renders nothing.
      const entry: ExecutionResult = { data: data as ExecutionResult['data'] };
      const answer = render(data);
      rendered.set(entry, answer);
      await cache.set(read, entry, entities, RESPONSE_CACHE_TTL_MS);
      return answer;
    },
  };
}

export type CachedReads = ReturnType<typeof cachedReads>;

/** `prefix` namespaces the Redis keys per deployment (like the rate-limit counters). */
export function createResponseCache({ redisUrl, prefix, log }: { redisUrl?: string; prefix: string; log: Logger }): ResponseCache {
  let redis: Redis | undefined;
  if (redisUrl) {
    // A Redis that stops answering is a miss (and a logged store or invalidation), not a request held until it answers.
    redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, enableAutoPipelining: true, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
    redis.on('error', () => undefined); // reported where a call fails (a miss, or a logged store/invalidation)
  }
  const cache = generationalCache(redis ? redisStore(redis, prefix, log) : inMemoryStore(), log);
  // Every committed change invalidates: while Redis is away, each one would write a line.
  const invalidationFailed = rarely(log);
  return {
    cache,
    async invalidate(events) {
      const entities = events.flatMap(entitiesOf);
      if (!entities.length) return;
      try {
        await cache.invalidate(entities);
      } catch (error) {
        invalidationFailed('error', { err: error }, 'response cache: invalidation failed (entries expire within the TTL)');
      }
    },
    async close() {
      redis?.disconnect();
    },
  };
}

/** The fields never cached: those that depend on the caller, and `Query.pageViews`. */
const uncachedCoordinates = (schema: GraphQLSchema): string[] => [...callerDependentFields(schema), 'Query.pageViews'];

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
function cacheKey(documentString: string, operationName: string | null | undefined, variables: unknown): string | undefined {
  let json: string;
  try {
    json = JSON.stringify(variables ?? {});
  } catch {
    // Nested too deeply to write (a RangeError): the input checks refuse such variables anyway.
    return undefined;
  }
  return createHash('sha256').update(`${documentString}|${operationName ?? ''}|${json}`).digest('hex');
}

/** The key of a read that has no entry (cacheKey had none): without a read number, nothing is stored under it (generationalCache). */
const NO_ENTRY = 'none';

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
 * The documents none of whose operations is ever stored: those that select a field never cached
 * (one that depends on the caller, or `Query.pageViews`). Nothing is looked up for them either:
 * not by the early look (useResponseCacheHits), not by Yoga's plugin before parsing, not by its
 * execution hook. A document is known by its node (Yoga's parse cache hands back the same one for
 * the same text) once it has run, and from then on by its text too, before it is parsed (a bounded
 * LRU: one forgotten is looked up again until it runs once more). A document with several
 * operations counts as never cached when any of them selects such a field.
 */
export function neverCachedDocuments(schema: GraphQLSchema) {
  const uncached = new Set(uncachedCoordinates(schema));
  const typeInfo = new TypeInfo(schema);
  const byNode = new WeakMap<DocumentNode, boolean>();
  const texts = new LRUCache<string, true>({ maxSize: 4_000_000, sizeCalculation: (_value, text) => text.length });
  function selectsUncached(document: DocumentNode): boolean {
    let found = false;
    visit(document, visitWithTypeInfo(typeInfo, {
      Field() {
        const parent = typeInfo.getParentType();
        const field = typeInfo.getFieldDef();
        if (parent && field && uncached.has(`${parent.name}.${field.name}`)) {
          found = true;
          return BREAK;
        }
        return undefined;
      },
    }));
    return found;
  }
  return {
    uncached: [...uncached],
    /** Whether `document`'s results are never stored; remembers its `text` if so. */
    node(document: DocumentNode, text: string | undefined): boolean {
      let never = byNode.get(document);
      if (never === undefined) byNode.set(document, (never = selectsUncached(document)));
      if (never && text) texts.set(text, true);
      return never;
    },
    /** Whether the document of this text is known never to be stored (before parsing it). */
    text: (text: string): boolean => texts.has(text),
  };
}
export type NeverCached = ReturnType<typeof neverCachedDocuments>;

/**
 * Yoga's response-cache plugin serves a hit once the request is parsed into GraphQL params, after
 * Yoga's request pipeline; a hit is only a lookup, so a plain GET (query, variables, operation
 * name) is answered here, from onRequest, with what Yoga would send for it: the same body, ETag,
 * Last-Modified and content type. Anything else (persisted queries, other Accept values) takes
 * Yoga's way. An If-None-Match is decided here too (`conditional`, below).
 *
 * It belongs right after the rate-limit budget (a hit is counted like any request): every
 * onRequest hook a request passes costs it an iteration of the hook chain, and the ones between
 * (input checks, REST routes, graphql-sse, APQ, Yoga's cache) never act on such a GET (one whose
 * query string is not UTF-8 was never stored, so it reaches the checks).
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
   * is looked up in `persistedDocument`). Yoga's plugin looked the header's value up as a key of
   * the whole cache, whatever the request asked: the tag of any cached entry, or its bare key
   * whatever its version, earned a 304 for any query (another user's, `me`, one the caller may not
   * run, a syntax error). The header is removed once decided, so Yoga's plugin never sees it, and
   * the request goes on in full.
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

/** A short digest of a result's data: what makes two versions of one entry's tag differ. */
const versionOf = (data: unknown) => createHash('sha256').update(JSON.stringify(data ?? null)).digest('base64url').slice(0, 16);

/**
 * The entity tag of a cached result: its entry's key and its version, quoted (RFC 9110). Yoga's
 * plugin would send the bare key, the same for every version of the entry: a client holding the
 * tag of an older version would be told 304 once a newer one is cached.
 */
const entityTag = (key: string, data: unknown) => `"${key}.${versionOf(data)}"`;

/** An operation's context, once it is known never to be stored: not a query, or its document selects a field never cached. */
const neverStored = attachment<object, true>('not a query, or selects a field never cached');

/**
 * The plugins: queries on `path`, over GET and POST, are cached; nothing else is (plain GET hits
 * are served by useResponseCacheHits, POST hits by Yoga's plugin once the body is parsed). Only a
 * GET's result carries an ETag: a POST is never answered 304, and a tag would only invite clients
 * to send one in vain.
 */
export function useCachedQueries({ cache, path, neverCached }: { cache: Cache; path: string; neverCached: NeverCached }): Plugin[] {
  /** Requests whose document is known never to be stored: Yoga's plugin does not look them up. */
  const unlooked = attachment<Request, true>('never cached: not looked up');
  // Only GET and POST queries on `path` reach either plugin (a WebSocket operation has no
  // request): for any other request every hook of both is skipped (forRequests), where the
  // plugin's own `enabled` option would still record each request in its WeakMaps first.
  const cached = (request: Request) => (request.method === 'GET' || request.method === 'POST') && requestRecordOf(request)?.path === path;
  return [
    // Only a query is cached. With invalidateViaMutation off, envelop's plugin stores a mutation's
    // result like a query's (and serves it to the next identical mutation: a second refreshToken
    // with the same token answered the first one's new tokens), and a subscription's events too:
    // an operation that is not a query is marked here, before the plugin's onExecute asks `enabled`
    // (and so is one whose document selects a field never cached: see neverCachedDocuments).
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
      // One cache for everyone: what depends on the caller is never stored (see above).
      session: () => null,
      cache,
      ttl: RESPONSE_CACHE_TTL_MS,
      ttlPerSchemaCoordinate: Object.fromEntries(neverCached.uncached.map((coordinate) => [coordinate, 0])),
      // Yoga's plugin would hash with WebCrypto (async, and a DOMException per call): a
      // synchronous node:crypto hash.
      buildResponseCacheKey: ({ documentString, variableValues, operationName }) => {
        const key = cacheKey(documentString, operationName, variableValues);
        return key === undefined ? NO_ENTRY : readKey(key);
      },
      // Invalidation comes from our events (above), not from what a mutation happens to return.
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

/**
 * The entry a GET of `document` reads: its key, or undefined when the request has none (a
 * parameter named twice, refused by the input checks; variables that are not JSON, which Yoga
 * answers).
 */
function entryKeyOfGet(url: URL, document: string): string | undefined {
  if (repeatedParameter(url) !== undefined) return undefined;
  try {
    return cacheKey(document, url.searchParams.get('operationName'), JSON.parse(url.searchParams.get('variables') ?? '{}'));
  } catch {
    return undefined;
  }
}

/**
 * The entry a POST reads, when it is a plain one whose answer needs nothing but its entry: a JSON
 * body as the node server read it (src/server.ts), of `query` and at most `variables` and
 * `operationName`, with no key named twice, no query string and no content coding. Anything else
 * (a persisted query, a batch, a body the input checks refuse) takes Yoga's way, where a hit is
 * served too, once the body is parsed.
 */
function entryKeyOfPost(request: Request, url: URL, serverContext: Partial<NodeServerContext>, neverCached: NeverCached): string | undefined {
  const node = serverContext.req as { body?: unknown; bodyNotUtf8?: boolean } | undefined;
  const body = node?.body;
  if (typeof body !== 'string' || node!.bodyNotUtf8 || url.search || request.headers.has('content-encoding')) return undefined;
  if (!PLAIN_JSON.test(request.headers.get('content-type') ?? '')) return undefined;
  let params: unknown;
  try {
    params = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!params || typeof params !== 'object' || Array.isArray(params)) return undefined;
  const { query, variables, operationName, ...rest } = params as Record<string, unknown>;
  if (typeof query !== 'string' || !query || Object.keys(rest).length || neverCached.text(query)) return undefined;
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return undefined;
  if (operationName != null && typeof operationName !== 'string') return undefined;
  if (duplicateKey(body) !== undefined) return undefined;
  return cacheKey(query, operationName as string | null | undefined, variables);
}
/** `application/json`, with parameters (a charset) or none. */
const PLAIN_JSON = /^application\/json\s*(?:;|$)/i;

/** The document of a GET request: its `query`, or the persisted query its `extensions` name. */
function documentOf(url: URL, persistedDocument?: (sha256Hash: string) => string | undefined): string | undefined {
  const query = url.searchParams.get('query');
  if (query) return query;
  try {
    const hash = (JSON.parse(url.searchParams.get('extensions') ?? 'null') as { persistedQuery?: { sha256Hash?: unknown } } | null)?.persistedQuery?.sha256Hash;
    return typeof hash === 'string' ? persistedDocument?.(hash) : undefined;
  } catch {
    return undefined;
  }
}

