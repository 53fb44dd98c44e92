// The in-process RateLimitStore: one instance only (each process counts on its own).
import { rejectBadLimits, type Decision, type RateLimitStore, type Receipt } from './store.js';

interface Entry {
  /**
   * Timestamps of the allowed requests, ascending: those from `head` on are in the window (never
   * more than `limit`); those before it have left and wait to be compacted away.
   */
  stamps: number[];
  head: number;
  /** When the newest stamp leaves the window: after that the entry is empty and may be dropped. */
  expiresAt: number;
}

/**
 * Stamps that left the window are dropped from the front of the log in one go once they are at
 * least this many and half of it, not one by one: removing the first element of an array may move
 * every other (docs/decisions.md, "Rate-limit log compaction").
 */
const COMPACT_AT = 64;

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
    async hit(key: string, limit: number, windowMs: number, now = Date.now()): Promise<Decision> {
      const bad = rejectBadLimits(limit, windowMs);
      if (bad) return bad;
      let entry = entries.get(key);
      if (!entry) {
        entry = { stamps: [], head: 0, expiresAt: 0 };
        entries.set(key, entry);
      }
      const { stamps } = entry;
      // A stamp t counts while now − windowMs < t.
      const cutoff = now - windowMs;
      let head = entry.head;
      while (head < stamps.length && stamps[head]! <= cutoff) head++;
      if (head >= COMPACT_AT && head * 2 >= stamps.length) {
        stamps.splice(0, head);
        head = 0;
      }
      entry.head = head;
      // A stamp in the future of `now` (a clock that went back) still counts; only the past is pruned.
      // If the limit was lowered for this key, only the newest `limit` stamps matter.
      if (stamps.length - head >= limit) {
        const oldestCounted = stamps[stamps.length - limit]!;
        const resetMs = Math.max(1, oldestCounted + windowMs - now);
        return { allowed: false, limit, remaining: 0, resetMs, retryAfterMs: resetMs };
      }
      // Keep the log ascending even if `now` went back.
      let at = stamps.length;
      while (at > head && stamps[at - 1]! > now) at--;
      if (at === stamps.length) stamps.push(now);
      else stamps.splice(at, 0, now);
      entry.expiresAt = Math.max(entry.expiresAt, now + windowMs);
      return {
        allowed: true,
        limit,
        remaining: limit - (stamps.length - head),
        resetMs: stamps[head]! + windowMs - now,
        retryAfterMs: 0,
        // Its stamp: stamps of one value are interchangeable (they leave the window together), so
        // removing any one of them gives back exactly this hit.
        receipt: now,
      };
    },
    async refund(key: string, receipt: Receipt): Promise<void> {
      const entry = entries.get(key);
      if (!entry || typeof receipt !== 'number') return;
      // A refund follows its hit closely: its stamp is among the newest. One that left the window
      // (before `head`) is no longer counted: nothing to give back.
      const at = entry.stamps.lastIndexOf(receipt);
      if (at >= entry.head) entry.stamps.splice(at, 1);
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
