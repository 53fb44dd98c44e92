// The Cache Yoga's response-cache plugin (and REST reads) use, over a GenerationalStore: a read
// that misses notes the generation it saw, and stores its result only if no change came since.
import type { Cache } from '@graphql-yoga/plugin-response-cache';
import { LRUCache } from 'lru-cache';
import { rarely, type Logger } from '../../logger.js';
import { RESPONSE_CACHE_TTL_MS, type Entity, type GenerationalStore } from './store.js';

/**
 * The key a read looks up and stores under: the entry's key, then `:` and a number of the read, so
 * that the generation a lookup saw is noted for that read alone. Noted by entry key, a read begun
 * before a change could store its old data against the generation a later read noted after it.
 * A module-wide counter, not the request's context: Yoga's Cache gives `get` and `set` no request.
 */
let reads = 0;
export const readKey = (key: string) => `${key}:${(reads = (reads + 1) % 0x7fffffff).toString(36)}`;

/** The entry's key in a read's key (or in an entry key, itself). */
export const entryKey = (id: string) => {
  const mark = id.indexOf(':');
  return mark === -1 ? id : id.slice(0, mark);
};

/** Only entities with an id are tracked: invalidation always names one (entitiesOf). */
const withIds = (entities: Iterable<{ typename: string; id?: string | number }>): Entity[] =>
  [...entities].flatMap((e) => (e.id == null ? [] : [{ typename: e.typename, id: String(e.id) }]));

export function generationalCache(store: GenerationalStore, log: Logger): Cache {
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
