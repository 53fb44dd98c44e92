// REST's public reads through the response cache (routes that declare `cached`, src/http/route.ts):
// the same entries' lifetime and invalidation as GraphQL's, answered with an ETag.
import type { Cache } from '@graphql-yoga/plugin-response-cache';
import type { ExecutionResult } from 'graphql';
import { digest, strongEntityTag } from '../../digest.js';
import { readKey } from './generations.js';
import { RESPONSE_CACHE_TTL_MS, type Entity } from './store.js';

/** A REST answer read through the response cache: its JSON and the entity tag of that JSON. */
export interface CachedJson {
  body: string;
  etag: string;
}

/**
 * `read(key, load)` answers from the entry under `key`, or calls `load` and stores what it
 * returns, tagged with the entities it names, unless a change committed since the lookup. A `load`
 * that throws (a 404) stores nothing. The tag is a digest of the body: the same whether the answer
 * came from the cache or the database, so If-None-Match is decided alike.
 */
export function cachedReads(cache: Cache) {
  // Rendered once per entry: the in-process cache hands out the stored object itself.
  const rendered = new WeakMap<object, CachedJson>();
  const render = (data: unknown): CachedJson => {
    const body = JSON.stringify(data);
    return { body, etag: strongEntityTag(body) };
  };
  return {
    async read(key: string, load: () => Promise<{ data: unknown; entities: Entity[] }>): Promise<CachedJson> {
      const read = readKey(digest(key, undefined, 'hex'));
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
