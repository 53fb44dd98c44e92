// What the clients on a request's path (rate-limit counts, the GraphQL response cache) do when
// Redis stops answering without closing the connection (a host or a proxy that froze, packets
// dropped, a Redis blocked by a long command): without a timeout, ioredis waits for the reply as
// long as the connection lives, and so did every request behind it (each one holds a rate-limit
// count), while /readyz said ready. With it, a command that gets no reply fails as it does while
// Redis is away: the limits let the request through, the response cache misses. A command already
// sent still runs when Redis answers again (an invalidation included: it is never lost to the
// timeout); one lost with its connection is covered by the cache's new epoch on reconnect.

import { createRequire } from 'node:module';
import type { Redis, RedisOptions } from 'ioredis';

const require = createRequire(import.meta.url);

/** How long a request waits for one Redis command before going on as in a Redis outage. */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000;

/**
 * A Redis client. ioredis is loaded on the first call, not imported at start-up: a deployment
 * without REDIS_URL never loads it (several MB of resident memory for nothing).
 */
export function newRedis(url: string, options: RedisOptions): Redis {
  const { Redis: Client } = require('ioredis') as typeof import('ioredis');
  return new Client(url, options);
}
