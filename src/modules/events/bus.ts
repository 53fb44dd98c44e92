// Live fan-out of committed events to this instance's subscribers. Without REDIS_URL it is
// in-process; with it, every instance's relay publishes through Redis and every instance's
// subscribers hear it (@graphql-yoga/redis-event-target).
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub } from 'graphql-yoga';
import { Redis } from 'ioredis';
import { deploymentId } from '../../deployment.js';
import type { Logger } from '../../logger.js';
import type { EventPayload } from './outbox.js';

/** The deployment's channel: derived from where its events are stored, never from secrets in the clear. */
export function eventChannel(databaseIdentity: string): string {
  return `learnstream:events:${deploymentId(databaseIdentity)}`;
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
 * This instance's subscribers, each with its own queue. One plain callback per subscriber
 * instead of an EventTarget listener plus a Repeater: a publish to thousands of subscribers is a
 * loop of array pushes, and a subscriber is registered as soon as `subscribe()` returns (not at
 * its first `next()`), so nothing published in between is lost.
 */
function createFanOut(onFirst?: () => void, onLast?: () => void) {
  const listeners = new Set<(event: PositionedEvent) => void>();
  return {
    publish(event: PositionedEvent): void {
      for (const listener of listeners) listener(event);
    },
    subscribe(): AsyncIterableIterator<PositionedEvent> {
      const buffer: PositionedEvent[] = [];
      let waiting: ((result: IteratorResult<PositionedEvent>) => void) | undefined;
      let done = false;
      const listener = (event: PositionedEvent) => {
        if (waiting) {
          const resolve = waiting;
          waiting = undefined;
          resolve({ value: event, done: false });
        } else buffer.push(event);
      };
      const finish = (): IteratorResult<PositionedEvent> => {
        if (!done) {
          done = true;
          buffer.length = 0;
          listeners.delete(listener);
          if (!listeners.size) onLast?.();
          const resolve = waiting;
          waiting = undefined;
          resolve?.({ value: undefined, done: true });
        }
        return { value: undefined, done: true };
      };
      if (!listeners.size) onFirst?.();
      listeners.add(listener);
      const iterator: AsyncIterableIterator<PositionedEvent> = {
        next: () => {
          if (buffer.length) return Promise.resolve({ value: buffer.shift()!, done: false });
          if (done) return Promise.resolve({ value: undefined, done: true });
          return new Promise((resolve) => (waiting = resolve));
        },
        return: () => Promise.resolve(finish()),
        throw: (error: unknown) => {
          finish();
          return Promise.reject(error);
        },
        [Symbol.asyncIterator]: () => iterator,
      };
      return iterator;
    },
  };
}

/**
 * `channel` names the stream on Redis: every instance of one deployment (one database) must use
 * the same one, and no other deployment sharing the Redis server may (see eventChannel).
 */
export function createEventBus({ redisUrl, channel, log }: { redisUrl?: string; channel: string; log?: Logger }): EventBus {
  if (!redisUrl) {
    const fanOut = createFanOut();
    return {
      publish: (event) => fanOut.publish(event),
      subscribe: () => fanOut.subscribe(),
      close: async () => {},
    };
  }
  const publishClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false });
  // ioredis reconnects on its own; while Redis is unreachable, say so every 10 s, not per attempt.
  let lastErrorLoggedAt = 0;
  for (const connection of [publishClient, subscribeClient]) {
    connection.on('error', (error: Error) => {
      if (Date.now() - lastErrorLoggedAt < 10_000) return;
      lastErrorLoggedAt = Date.now();
      log?.error({ err: error }, 'event bus: Redis unreachable, live events are not shared until it is back');
    });
  }
  const pubsub = createPubSub<Topics>({ eventTarget: createRedisEventTarget({ publishClient, subscribeClient }) });
  // One listener on the Redis channel while this instance has subscribers, fanned out locally.
  let source: AsyncIterableIterator<PositionedEvent> | undefined;
  const fanOut = createFanOut(
    () => {
      const iterator = pubsub.subscribe(channel)[Symbol.asyncIterator]() as AsyncIterableIterator<PositionedEvent>;
      source = iterator;
      void (async () => {
        for (let r = await iterator.next(); !r.done; r = await iterator.next()) fanOut.publish(r.value);
      })();
    },
    () => {
      void source?.return?.();
      source = undefined;
    },
  );
  return {
    publish: (event) => pubsub.publish(channel, event),
    subscribe: () => fanOut.subscribe(),
    close: async () => {
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}
