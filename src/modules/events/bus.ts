// Live fan-out of committed events to this instance's subscribers. Without REDIS_URL it is
// in-process; with it, every instance's relay publishes through Redis and every instance's
// subscribers hear it (@graphql-yoga/redis-event-target).
import { createHash } from 'node:crypto';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub } from 'graphql-yoga';
import { Redis } from 'ioredis';
import type { EventPayload } from './outbox.js';

/** The deployment's channel: derived from where its events are stored, never from secrets in the clear. */
export function eventChannel(databaseIdentity: string): string {
  return `learnstream:events:${createHash('sha256').update(databaseIdentity).digest('hex').slice(0, 16)}`;
}

/** An event whose commit order is known: `position` is dense and increasing. */
export interface PositionedEvent {
  id: string;
  position: number;
  payload: EventPayload;
}

export interface EventBus {
  publish(event: PositionedEvent): void;
  /** Every event published from now on, in the order this instance hears them. */
  subscribe(): AsyncIterableIterator<PositionedEvent>;
  close(): Promise<void>;
}

type Topics = Record<string, [PositionedEvent]>;

/**
 * `channel` names the stream on Redis: every instance of one deployment (one database) must use
 * the same one, and no other deployment sharing the Redis server may (see eventChannel).
 */
export function createEventBus({ redisUrl, channel }: { redisUrl?: string; channel: string }): EventBus {
  if (!redisUrl) {
    const pubsub = createPubSub<Topics>();
    return {
      publish: (event) => pubsub.publish(channel, event),
      subscribe: () => pubsub.subscribe(channel) as AsyncIterableIterator<PositionedEvent>,
      close: async () => {},
    };
  }
  const publishClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false });
  const pubsub = createPubSub<Topics>({ eventTarget: createRedisEventTarget({ publishClient, subscribeClient }) });
  return {
    publish: (event) => pubsub.publish(channel, event),
    subscribe: () => pubsub.subscribe(channel) as AsyncIterableIterator<PositionedEvent>,
    close: async () => {
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}
