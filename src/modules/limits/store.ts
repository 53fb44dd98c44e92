// Rate-limit counters shared by every instance of a deployment: one small interface with an
// in-process implementation (memory-store.ts) and a Redis one (redis-store.ts), chosen by config
// (index.ts). Not wired into any request path yet.

/** The outcome of one `hit`. */
export interface Decision {
  allowed: boolean;
  limit: number;
  /** Requests still allowed in the window after this one (0 when refused). */
  remaining: number;
  /** Milliseconds until the oldest counted request leaves the window, i.e. until a slot frees. */
  resetMs: number;
  /** 0 when allowed; otherwise how long to wait before a request can be allowed (= resetMs). */
  retryAfterMs: number;
}

/**
 * A true rolling window (a sliding log of timestamps per key): a request at `now` is allowed iff
 * fewer than `limit` allowed requests of that key have timestamps in (now − windowMs, now].
 * An allowed request is recorded; a refused one is not (it does not consume budget). So a client
 * that spends its whole budget at 0:59 cannot spend it again at 1:01, only from 1:59 on.
 */
export interface RateLimitStore {
  /**
   * Counts one request of `key` against `limit` per `windowMs`. `now` (ms) is the clock for the
   * in-process store (defaults to Date.now()); the Redis store ignores it and uses the Redis
   * server's clock, so instances with skewed clocks agree. The in-process store answers at once
   * (no promise: a request it counts waits no extra turn of the event loop); either store reports
   * bad arguments or a failure as a rejected promise.
   */
  hit(key: string, limit: number, windowMs: number, now?: number): Decision | Promise<Decision>;
  close(): Promise<void>;
}

/**
 * A rejected promise (RangeError) when `limit` or `windowMs` is not a positive integer, else
 * undefined: what either store's `hit` returns for them.
 */
export function rejectBadLimits(limit: number, windowMs: number): Promise<never> | undefined {
  if (!Number.isInteger(limit) || limit < 1) return Promise.reject(new RangeError(`rate limit must be a positive integer, got ${limit}`));
  if (!Number.isInteger(windowMs) || windowMs < 1) {
    return Promise.reject(new RangeError(`rate-limit window must be a positive integer of milliseconds, got ${windowMs}`));
  }
  return undefined;
}
