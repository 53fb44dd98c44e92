// The GenerationalStore on Redis, shared by every instance of a deployment, with its Lua scripts
// (each one atomic: a store checks the generation, an invalidation bumps it and drops entries).
import type { ExecutionResult } from 'graphql';
import type { Redis } from 'ioredis';
import type { Logger } from '../../logger.js';
import type { Entity, GenerationalStore } from './store.js';

/** How long the generation is kept without any invalidation (a new one starts from 1 again). */
const GENERATION_TTL_MS = 24 * 60 * 60 * 1000;

// KEYS: generation, epoch, entry, entity sets. ARGV: the generation seen, the entry (JSON), TTL (ms), the entry's id.
// The entry is stored as `<epoch>|<JSON>`: a lookup takes it only while the epoch is still that one.
const STORE_IF_CURRENT = `
if (redis.call('GET', KEYS[1]) or '0') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[3], (redis.call('GET', KEYS[2]) or '0') .. '|' .. ARGV[2], 'PX', ARGV[3])
for i = 4, #KEYS do
  redis.call('SADD', KEYS[i], ARGV[4])
  if redis.call('PTTL', KEYS[i]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[i], ARGV[3]) end
end
return 1`;
// KEYS: generation, entity sets. ARGV: the prefix of entry keys, the generation's TTL (ms).
const INVALIDATE = `
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
for i = 2, #KEYS do
  for _, id in ipairs(redis.call('SMEMBERS', KEYS[i])) do redis.call('DEL', ARGV[1] .. id) end
  redis.call('DEL', KEYS[i])
end
return 1`;
// KEYS: generation, epoch. ARGV: their TTL (ms). Every entry stored so far stops being found, and
// no lookup begun before can store what it read.
const FORGET_ALL = `
for i = 1, 2 do
  redis.call('INCR', KEYS[i])
  redis.call('PEXPIRE', KEYS[i], ARGV[1])
end
return 1`;

/**
 * Keys: `<prefix>gen`, `<prefix>epoch`, `<prefix>r:<id>` (entries), `<prefix>e:<Type>:<id>` (what
 * names an entity).
 *
 * While this instance cannot reach Redis, a change it commits cannot drop what it made stale, and
 * the event that would make every instance drop it is lost with Redis's pub/sub. So once it is
 * connected again, before it reads any entry, it forgets them all (a new epoch); until then every
 * lookup misses and the query runs.
 */
export function createRedisStore(redis: Redis, prefix: string, log: Logger): GenerationalStore {
  const generationKey = `${prefix}gen`;
  const epochKey = `${prefix}epoch`;
  const entryKey = (id: string) => `${prefix}r:${id}`;
  const setKey = (entity: Entity) => `${prefix}e:${entity.typename}:${entity.id}`;
  let trusted = true;
  redis.on('close', () => {
    trusted = false;
  });
  redis.on('ready', () => {
    if (trusted) return;
    redis.eval(FORGET_ALL, 2, generationKey, epochKey, String(GENERATION_TTL_MS)).then(
      () => {
        trusted = true;
      },
      // Lost again before it ran: the next 'ready' tries again.
      (error: unknown) => log.warn({ err: error }, 'response cache: could not clear the cache after Redis came back'),
    );
  });
  return {
    async get(id) {
      if (!trusted) throw new Error('response cache: not cleared since Redis came back');
      const [stored, generation, epoch] = await redis.mget(entryKey(id), generationKey, epochKey);
      const bar = stored?.indexOf('|') ?? -1;
      const entry = stored && stored.slice(0, bar) === (epoch ?? '0') ? (JSON.parse(stored.slice(bar + 1)) as ExecutionResult) : undefined;
      return { entry, generation: generation ?? '0' };
    },
    async set(id, entry, entities, ttl, seen) {
      const keys = [...new Set(entities.map(setKey))];
      await redis.eval(STORE_IF_CURRENT, 3 + keys.length, generationKey, epochKey, entryKey(id), ...keys, seen, JSON.stringify(entry), String(ttl), id);
    },
    async invalidate(entities) {
      const keys = [...new Set(entities.map(setKey))];
      await redis.eval(INVALIDATE, 1 + keys.length, generationKey, ...keys, `${prefix}r:`, String(GENERATION_TTL_MS));
    },
  };
}
