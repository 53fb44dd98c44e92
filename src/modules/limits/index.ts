// The rate-limit store for this deployment: in-process without REDIS_URL, shared through Redis with it.
import { deploymentId } from '../../deployment.js';
import { createMemoryStore } from './memory-store.js';
import { createRedisStore, DEFAULT_PREFIX } from './redis-store.js';
import type { RateLimitStore } from './store.js';

export type { Decision, RateLimitStore, Receipt } from './store.js';
export { createMemoryStore, type MemoryRateLimitStore } from './memory-store.js';
export { createRedisStore, DEFAULT_PREFIX } from './redis-store.js';

/** `prefix` (Redis only) namespaces the keys, e.g. one per deployment sharing the server. */
export function createRateLimitStore({ redisUrl, prefix = DEFAULT_PREFIX }: { redisUrl?: string; prefix?: string }): RateLimitStore {
  return redisUrl ? createRedisStore({ redisUrl, prefix }) : createMemoryStore();
}

/**
 * The deployment's key prefix on Redis, derived from where its data lives (like the event
 * channel): every instance of one deployment shares its counters, and no other deployment does.
 */
export function rateLimitPrefix(databaseIdentity: string): string {
  return `${DEFAULT_PREFIX}${deploymentId(databaseIdentity)}:`;
}
