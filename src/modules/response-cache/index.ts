// The response cache: GraphQL queries (over GET and POST) and REST's public reads, stored once for
// every caller, in process without REDIS_URL and shared by every instance through Redis with it.
// Only what is the same for every caller is stored (cacheable.ts); entries are dropped by our own
// committed events (invalidation.ts) and expire after RESPONSE_CACHE_TTL_MS anyway.
import type { Cache } from '@graphql-yoga/plugin-response-cache';
import type { Redis } from 'ioredis';
import { deploymentId } from '../../deployment.js';
import { rarely, type Logger } from '../../logger.js';
import { REDIS_COMMAND_TIMEOUT_MS, newRedis } from '../../redis-options.js';
import type { EventPayload } from '../events/outbox.js';
import { generationalCache } from './generations.js';
import { entitiesOf } from './invalidation.js';
import { createMemoryStore } from './memory-store.js';
import { createRedisStore } from './redis-store.js';

export { neverCachedDocuments, neverCachedFields, type FieldCachePolicy, type NeverCached } from './cacheable.js';
export { entitiesOf, invalidateOnEvents } from './invalidation.js';
export { cachedReads, type CachedJson, type CachedReads } from './rest-reads.js';
export { RESPONSE_CACHE_TTL_MS, type Entity } from './store.js';
export { useCachedQueries } from './use-cached-queries.js';
export { useResponseCacheHits } from './use-response-cache-hits.js';

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

/** `prefix` namespaces the Redis keys per deployment (like the rate-limit counters). */
export function createResponseCache({ redisUrl, prefix, log }: { redisUrl?: string; prefix: string; log: Logger }): ResponseCache {
  let redis: Redis | undefined;
  if (redisUrl) {
    // A Redis that stops answering is a miss (and a logged store or invalidation), not a request held until it answers.
    redis = newRedis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, enableAutoPipelining: true, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
    redis.on('error', () => undefined); // reported where a call fails (a miss, or a logged store/invalidation)
  }
  const cache = generationalCache(redis ? createRedisStore(redis, prefix, log) : createMemoryStore(), log);
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
