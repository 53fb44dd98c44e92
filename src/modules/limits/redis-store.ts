// The Redis RateLimitStore: every instance of a deployment shares the counters. One Lua script per
// hit (EVALSHA through ioredis `defineCommand`) on a sorted set per key, so the prune, the count and
// the record happen atomically: concurrent hits from any number of connections never over-admit
// (unlike a GET-then-SET store). The clock is the Redis server's TIME, read inside the script, so
// instances whose clocks disagree still agree on the window; the `now` argument of `hit` is ignored.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { rejectBadLimits, type Decision, type RateLimitStore, type Receipt } from './store.js';
import { REDIS_COMMAND_TIMEOUT_MS } from '../../redis-options.js';

// Scores are the server time in microseconds (exact in a double); a member is that time plus a
// suffix unique to the hit, so two hits in the same microsecond are two members.
// KEYS[1] = key; ARGV = limit, windowMs, a suffix unique to this hit.
// Returns {allowed (0/1), count after this hit, ms until the oldest counted entry leaves, and the
// member added when allowed} (the member is the hit's receipt: a refund removes exactly it).
const HIT_SCRIPT = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window_ms = tonumber(ARGV[2])
local window_us = window_ms * 1000
local t = redis.call('TIME')
local now_us = tonumber(t[1]) * 1000000 + tonumber(t[2])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now_us - window_us)
local count = redis.call('ZCARD', key)
local allowed = 0
local member = false
if count < limit then
  member = t[1] .. '.' .. t[2] .. '-' .. ARGV[3]
  redis.call('ZADD', key, now_us, member)
  redis.call('PEXPIRE', key, window_ms)
  count = count + 1
  allowed = 1
end
-- The entry whose departure frees a slot: the oldest of the newest 'limit' (the oldest, unless the
-- limit for this key was lowered).
local first = 0
if count > limit then first = count - limit end
local oldest = redis.call('ZRANGE', key, first, first, 'WITHSCORES')
local reset_ms = math.ceil((tonumber(oldest[2]) + window_us - now_us) / 1000)
if reset_ms < 1 then reset_ms = 1 end
return {allowed, count, reset_ms, member}
`;

// The member is nil (false in the script) when refused.
type HitReply = [allowed: number, count: number, resetMs: number, member: string | null];
interface WithHit {
  learnstreamRateLimitHit(key: string, limit: number, windowMs: number, suffix: string): Promise<HitReply>;
}

export const DEFAULT_PREFIX = 'learnstream:rl:';
const FIRST_CONNECT_MS = 2_000;

/** `prefix` namespaces the keys: one per deployment sharing a Redis server. */
export function createRedisStore({ redisUrl, prefix = DEFAULT_PREFIX }: { redisUrl: string; prefix?: string }): RateLimitStore {
  // Without an offline queue a hit fails at once while Redis is unreachable (the limit service
  // then lets the request through) instead of holding every request until it reconnects.
  // Auto-pipelining: the hits of one event-loop turn go out in one write (measured: the socket
  // write per hit was the largest part of the store's cost under load). A Redis that stops
  // answering fails a hit after REDIS_COMMAND_TIMEOUT_MS (the request goes through), as one that is away does.
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, enableAutoPipelining: true, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
  redis.on('error', () => {
    // Reported by the limit service when a hit fails; ioredis keeps reconnecting on its own.
  });
  // Except at start: the first hits wait for the first connection (for at most FIRST_CONNECT_MS
  // in all), so a fresh instance counts its first requests instead of letting them through. Once
  // it is settled it is dropped, and a hit is the script's round trip alone.
  let firstConnect: Promise<void> | undefined = new Promise<void>((resolve) => {
    redis.once('ready', () => resolve());
    setTimeout(resolve, FIRST_CONNECT_MS).unref();
  }).then(() => {
    firstConnect = undefined;
  });
  redis.defineCommand('learnstreamRateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  const client = redis as unknown as WithHit;
  // Members must be unique per hit across instances: a random prefix per store and a counter
  // (cheaper than random bytes per hit).
  const instance = `${randomBytes(6).toString('hex')}.`;
  let sequence = 0;
  const send = (key: string, limit: number, windowMs: number): Promise<Decision> =>
    client
      .learnstreamRateLimitHit(prefix + key, limit, windowMs, `${instance}${(sequence++).toString(36)}`)
      .then(([allowed, count, resetMs, member]): Decision =>
        allowed === 1
          ? { allowed: true, limit, remaining: Math.max(0, limit - count), resetMs, retryAfterMs: 0, receipt: member! }
          : { allowed: false, limit, remaining: 0, resetMs, retryAfterMs: resetMs },
      );
  return {
    hit(key: string, limit: number, windowMs: number): Promise<Decision> {
      return rejectBadLimits(limit, windowMs) ?? (firstConnect ? firstConnect.then(() => send(key, limit, windowMs)) : send(key, limit, windowMs));
    },
    // ZREM of the member the script added: atomic, and exact whichever instance counted the hit.
    async refund(key: string, receipt: Receipt): Promise<void> {
      await redis.zrem(prefix + key, String(receipt));
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
