// Makes the event bus the configuration asks for: in process without REDIS_URL, shared over
// Redis with it.
import { deploymentId } from '../../../deployment.js';
import type { Logger } from '../../../logger.js';
import type { EventBus } from '../bus.js';
import { createFanOut } from './fan-out.js';
import { createRedisBus } from './redis-bus.js';
import type { StoredEvents } from './sequencer.js';

/** SUBSCRIPTION_BUFFER's default. */
const DEFAULT_BUFFER = 1000;

/** The deployment's channel: derived from where its events are stored, never from secrets in the clear. */
export function eventChannel(databaseIdentity: string): string {
  return `learnstream:events:${deploymentId(databaseIdentity)}`;
}

/**
 * `channel` names the stream on Redis: every instance of one deployment (one database) must use
 * the same one, and no other deployment sharing the Redis server may (see eventChannel).
 */
export function createEventBus({
  redisUrl,
  channel,
  log,
  buffer = DEFAULT_BUFFER,
  stored,
}: {
  redisUrl?: string;
  channel: string;
  log?: Logger;
  /** How far (in events) a subscriber may fall behind before its next read fails (SUBSCRIPTION_BUFFER). */
  buffer?: number;
  /** With Redis: where to read what was not heard on it (see sequencer.ts). */
  stored?: StoredEvents;
}): EventBus {
  if (redisUrl) return createRedisBus({ redisUrl, channel, log, buffer, stored });
  const fanOut = createFanOut(buffer);
  return {
    shared: false,
    publish: (event) => fanOut.publish(event),
    flushed: () => fanOut.flushed(),
    subscribe: (options) => fanOut.subscribe(options),
    announce: () => {},
    close: async () => {},
  };
}
