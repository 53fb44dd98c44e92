// The in-process GenerationalStore: one instance only (used without REDIS_URL).
import { createInMemoryCache } from '@graphql-yoga/plugin-response-cache';
import type { GenerationalStore } from './store.js';

/** Entries kept in process (least recently used go first). */
const IN_MEMORY_ENTRIES = 1000;

export function createMemoryStore(): GenerationalStore {
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
