// Where the response cache's entries live: the interface both stores implement (memory-store.ts,
// redis-store.ts), and what an entry is tagged with so that a change can find it.
import type { ExecutionResult } from 'graphql';

/** A cached entity an entry names: a change to it makes the entry stale. */
export type Entity = { typename: string; id: string };

/**
 * A store with generations. A read may begin before a change commits and store its (old) result
 * after the change invalidated the entry: then it would be served stale. So every invalidation
 * bumps a generation, a lookup that misses notes the generation it saw, and a result is stored
 * only if the generation is still that one, checked atomically with the store. An entry is a
 * GraphQL result; a REST read stores its body as `data`.
 */
export interface GenerationalStore {
  get(id: string): Promise<{ entry: ExecutionResult | undefined; generation: string }>;
  /** Stores only if the generation is still `generation`. */
  set(id: string, entry: ExecutionResult, entities: Entity[], ttl: number, generation: string): Promise<void>;
  /** Bumps the generation, then drops every entry that names one of the entities. */
  invalidate(entities: Entity[]): Promise<void>;
}

/** How long an entry lives at most, even if no event invalidates it. */
export const RESPONSE_CACHE_TTL_MS = 60_000;
