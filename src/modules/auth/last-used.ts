// When an API key or a session was last used: written at most once a minute each, not once a request.
import { LRUCache } from 'lru-cache';
import type { Logger } from '../../logger.js';

/** An API key's or a session's lastUsedAt is written at most this often. */
export const LAST_USED_INTERVAL_MS = 60_000;

/**
 * Records a use of `what` (by id, with its stored lastUsedAt). This instance remembers when it
 * last wrote (or saw) each one's lastUsedAt, and `write` must be conditional on `before`, so
 * concurrent instances also write it about once a minute. A failed write is logged and the
 * request goes on: it is bookkeeping only.
 */
export function lastUsedRecorder(what: string, write: (id: string, now: Date, before: Date) => Promise<unknown>, log?: Logger) {
  const touchedAt = new LRUCache<string, number>({ max: 10_000 });
  return async (id: string, lastUsedAt: Date | null): Promise<void> => {
    const now = Date.now();
    const known = Math.max(lastUsedAt?.getTime() ?? 0, touchedAt.get(id) ?? 0);
    if (now - known < LAST_USED_INTERVAL_MS) return;
    touchedAt.set(id, now);
    try {
      await write(id, new Date(now), new Date(now - LAST_USED_INTERVAL_MS));
    } catch (error) {
      log?.warn({ err: error, id }, `could not record ${what} use`);
    }
  };
}

/** The `where` of a conditional lastUsedAt write: never written, or written before `before`. */
export const lastUsedBefore = (before: Date) => [{ lastUsedAt: null }, { lastUsedAt: { lt: before } }];
