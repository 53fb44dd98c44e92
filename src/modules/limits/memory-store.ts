// The in-process RateLimitStore: one instance only (each process counts on its own).
import { rejectBadLimits, type Decision, type RateLimitStore, type Receipt } from './store.js';

interface Entry {
  /** Timestamps of the allowed requests still in the window, ascending; never more than `limit`. */
  stamps: number[];
  /** When the newest stamp leaves the window: after that the entry is empty and may be dropped. */
  expiresAt: number;
}

export interface MemoryRateLimitStore extends RateLimitStore {
  /** Drops every key with nothing left in its window at `now` (done periodically on its own). */
  sweep(now?: number): void;
  /** How many keys are held (for tests). */
  readonly size: number;
}

export function createMemoryStore({ sweepIntervalMs = 60_000 }: { sweepIntervalMs?: number } = {}): MemoryRateLimitStore {
  const entries = new Map<string, Entry>();

  const sweep = (now = Date.now()) => {
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
  };
  // Keeps memory bounded by the keys active within their window; does not keep the process alive.
  const timer = setInterval(() => sweep(), sweepIntervalMs);
  timer.unref();

  return {
    hit(key: string, limit: number, windowMs: number, now = Date.now()): Decision | Promise<Decision> {
      const bad = rejectBadLimits(limit, windowMs);
      if (bad) return bad;
      let entry = entries.get(key);
      if (!entry) {
        entry = { stamps: [], expiresAt: 0 };
        entries.set(key, entry);
      }
      const stamps = entry.stamps;
      // A stamp t counts while now − windowMs < t.
      const cutoff = now - windowMs;
      let expired = 0;
      while (expired < stamps.length && stamps[expired]! <= cutoff) expired++;
      if (expired) stamps.splice(0, expired);
      // A stamp in the future of `now` (a clock that went back) still counts; only the past is pruned.
      // If the limit was lowered for this key, only the newest `limit` stamps matter.
      if (stamps.length >= limit) {
        const oldestCounted = stamps[stamps.length - limit]!;
        const resetMs = Math.max(1, oldestCounted + windowMs - now);
        return { allowed: false, limit, remaining: 0, resetMs, retryAfterMs: resetMs };
      }
      // Keep the log ascending even if `now` went back.
      let at = stamps.length;
      while (at > 0 && stamps[at - 1]! > now) at--;
      stamps.splice(at, 0, now);
      entry.expiresAt = Math.max(entry.expiresAt, now + windowMs);
      return {
        allowed: true,
        limit,
        remaining: limit - stamps.length,
        resetMs: stamps[0]! + windowMs - now,
        retryAfterMs: 0,
        // Its stamp: stamps of one value are interchangeable (they leave the window together), so
        // removing any one of them gives back exactly this hit.
        receipt: now,
      };
    },
    refund(key: string, receipt: Receipt): void {
      const stamps = entries.get(key)?.stamps;
      if (!stamps || typeof receipt !== 'number') return;
      // A refund follows its hit closely: its stamp is among the newest.
      const at = stamps.lastIndexOf(receipt);
      if (at !== -1) stamps.splice(at, 1);
    },
    sweep,
    get size() {
      return entries.size;
    },
    async close() {
      clearInterval(timer);
      entries.clear();
    },
  };
}
