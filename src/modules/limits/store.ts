// Rate-limit counters shared by every instance of a deployment: one small interface with an
// in-process implementation (memory-store.ts) and a Redis one (redis-store.ts), chosen by config
// (index.ts).

/**
 * What identifies one allowed hit's entry in the store that counted it, for `refund`: opaque to
 * everyone else (the in-process store's timestamp, the Redis store's sorted-set member).
 */
export type Receipt = string | number;

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
  /** The entry this hit added, when allowed: what `refund` takes to give it back. */
  receipt?: Receipt;
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
   * server's clock, so instances with skewed clocks agree. Bad arguments or a failure reject.
   */
  hit(key: string, limit: number, windowMs: number, now?: number): Promise<Decision>;
  /**
   * Gives back one allowed hit of `key` (its decision's receipt), for a request that was refused
   * after it was counted (a refused request does not consume budget): exactly that entry goes,
   * never another request's; a receipt the store no longer holds (its entry left the window)
   * removes nothing. A failure rejects, as `hit` does.
   */
  refund(key: string, receipt: Receipt): Promise<void>;
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
