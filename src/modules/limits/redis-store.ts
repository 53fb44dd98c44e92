// The Redis RateLimitStore, shared by every instance of a deployment. One Lua script on a sorted set
// per key prunes, counts and records atomically, so concurrent hits from any number of connections
// never over-admit (unlike a GET-then-SET store). The clock is Redis's TIME, read inside the script,
// so instances whose clocks disagree agree on the window; `hit`'s `now` is ignored.
import { randomBytes } from 'node:crypto';
import { rejectBadLimits, type Decision, type RateLimitStore, type Receipt } from './store.js';
import { REDIS_COMMAND_TIMEOUT_MS, newRedis } from '../../redis-options.js';

// Scores are the server time in microseconds (exact in a double); a member is that time plus a
// suffix unique to the hit, so two hits in the same microsecond are two members.
//
// One script call counts a batch of hits of one key (the hits of one event-loop turn, see
// `createRedisStore`), in order, as if they came one after another at the same instant: the first
// `limit - count` are admitted and recorded, the rest refused. The script's cost is nearly all
// fixed, so a batch of n costs about what one hit does.
// KEYS[1] = key; ARGV = limit, windowMs, hits in the batch (n), a suffix unique to the batch.
// Returns {admitted, count before the batch, ms until a slot frees for an admitted hit, the same
// for a refused one, the members' common prefix}. Admitted hit i (1-based) has the member
// prefix .. i (its receipt: a refund removes exactly it) and leaves `limit - (before + i)`.
const HIT_SCRIPT = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window_ms = tonumber(ARGV[2])
local hits = tonumber(ARGV[3])
local window_us = window_ms * 1000
local t = redis.call('TIME')
local now_us = tonumber(t[1]) * 1000000 + tonumber(t[2])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now_us - window_us)
local before = redis.call('ZCARD', key)
local admitted = math.max(0, math.min(hits, limit - before))
local base = t[1] .. '.' .. t[2] .. '-' .. ARGV[4] .. '.'
if admitted > 0 then
  local args = {}
  for i = 1, admitted do
    args[2 * i - 1] = now_us
    args[2 * i] = base .. i
  end
  redis.call('ZADD', key, unpack(args))
  redis.call('PEXPIRE', key, window_ms)
end
-- The entry whose departure frees a slot: the oldest of the newest 'limit' (the oldest, unless the
-- limit for this key was lowered). For an admitted hit the count after it is at most the limit,
-- so that is the oldest entry.
local function reset_at(index)
  local entry = redis.call('ZRANGE', key, index, index, 'WITHSCORES')
  local ms = math.ceil((tonumber(entry[2]) + window_us - now_us) / 1000)
  if ms < 1 then ms = 1 end
  return ms
end
local reset_admitted = 0
if admitted > 0 then reset_admitted = reset_at(0) end
local reset_refused = 0
if admitted < hits then
  local first = math.max(0, before + admitted - limit)
  if first == 0 and admitted > 0 then reset_refused = reset_admitted else reset_refused = reset_at(first) end
end
return {admitted, before, reset_admitted, reset_refused, base}
`;

type HitReply = [admitted: number, before: number, resetAdmittedMs: number, resetRefusedMs: number, memberPrefix: string];
interface WithHit {
  learnstreamRateLimitHit(key: string, limit: number, windowMs: number, hits: number, suffix: string): Promise<HitReply>;
}

/** The most hits of one key one script call counts (a bigger batch is split). */
const MAX_BATCH = 256;

interface Batch {
  key: string;
  limit: number;
  windowMs: number;
  waiters: Waiter[];
}

interface Waiter {
  resolve(decision: Decision): void;
  reject(error: unknown): void;
}

export const DEFAULT_PREFIX = 'learnstream:rl:';
const FIRST_CONNECT_MS = 2_000;

/** `prefix` namespaces the keys: one per deployment sharing a Redis server. */
export function createRedisStore({ redisUrl, prefix = DEFAULT_PREFIX }: { redisUrl: string; prefix?: string }): RateLimitStore {
  // Without an offline queue a hit fails at once while Redis is unreachable (the limit service
  // then lets the request through) instead of holding every request until it reconnects.
  // Auto-pipelining: the hits of one event-loop turn go out in one socket write. A Redis that stops
  // answering fails a hit after REDIS_COMMAND_TIMEOUT_MS (the request goes through), as one that
  // is away does.
  const redis = newRedis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, enableAutoPipelining: true, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
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
  // Members must be unique per hit across instances: a random prefix per store, a counter per
  // batch and the hit's place in it (cheaper than random bytes per hit).
  const instance = `${randomBytes(6).toString('hex')}.`;
  let sequence = 0;
  const send = ({ key, limit, windowMs, waiters }: Batch): void => {
    client.learnstreamRateLimitHit(prefix + key, limit, windowMs, waiters.length, `${instance}${(sequence++).toString(36)}`).then(
      ([admitted, before, resetAdmittedMs, resetRefusedMs, memberPrefix]) => {
        waiters.forEach((waiter, i) =>
          waiter.resolve(
            i < admitted
              ? { allowed: true, limit, remaining: Math.max(0, limit - before - i - 1), resetMs: resetAdmittedMs, retryAfterMs: 0, receipt: `${memberPrefix}${i + 1}` }
              : { allowed: false, limit, remaining: 0, resetMs: resetRefusedMs, retryAfterMs: resetRefusedMs },
          ),
        );
      },
      (error: unknown) => {
        for (const waiter of waiters) waiter.reject(error);
      },
    );
  };
  // The hits asked in one turn of the event loop wait for its end (setImmediate: after the I/O
  // callbacks of the turn), and each key's go out as one script call. A busy caller's concurrent
  // requests then cost Redis one script, not one each; a lone hit waits for no timer.
  let batches = new Map<string, Batch>();
  const flush = () => {
    const due = batches;
    batches = new Map();
    for (const batch of due.values()) send(batch);
  };
  const enqueue = (key: string, limit: number, windowMs: number) =>
    new Promise<Decision>((resolve, reject) => {
      if (batches.size === 0) setImmediate(flush);
      const id = `${limit}/${windowMs}/${key}`;
      let batch = batches.get(id);
      if (!batch) batches.set(id, (batch = { key, limit, windowMs, waiters: [] }));
      batch.waiters.push({ resolve, reject });
      if (batch.waiters.length === MAX_BATCH) {
        batches.delete(id);
        send(batch);
      }
    });
  return {
    hit(key: string, limit: number, windowMs: number): Promise<Decision> {
      return rejectBadLimits(limit, windowMs) ?? (firstConnect ? firstConnect.then(() => enqueue(key, limit, windowMs)) : enqueue(key, limit, windowMs));
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
