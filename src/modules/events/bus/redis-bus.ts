// The event bus shared by every instance over a Redis channel. The relay that positions an event
// publishes it there; each instance fans out what it hears to its own subscribers, in order
// and without gaps (sequencer.ts).
import { newRedis } from '../../../redis-options.js';
import { rarely, type Logger } from '../../../logger.js';
import type { EventBus, PositionedEvent } from '../bus.js';
import { createFanOut } from './fan-out.js';
import { createSequencer, type StoredEvents } from './sequencer.js';

/** Redis refused the connection's credentials: a wrong password (WRONGPASS), or none where one is needed (NOAUTH). */
function refusedCredentials(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return /^(Ready check failed: )?(WRONGPASS|NOAUTH)\b/.test(message);
}

/** Every instance of one deployment publishes and listens on `channel` (see eventChannel). */
export function createRedisBus({
  redisUrl,
  channel,
  log,
  buffer,
  stored,
}: {
  redisUrl: string;
  channel: string;
  log?: Logger;
  buffer: number;
  /** Where to read what was not heard on Redis; without it, what Redis brings is fanned out as heard. */
  stored?: StoredEvents;
}): EventBus {
  const publishClient = newRedis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  // A SUBSCRIBE issued while Redis is away waits for it (no retry limit); ioredis resubscribes on
  // reconnect to what Redis confirmed.
  const subscribeClient = newRedis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: null });
  // ioredis reconnects on its own; while Redis is unreachable or refuses us, say so every 10 s, not
  // per attempt (a wrong password fails every reconnection).
  const rarelyLogged = log && rarely(log);
  const report = (error: unknown, what: string) =>
    rarelyLogged?.('error', { err: error }, refusedCredentials(error)
      ? 'event bus: Redis refused the credentials of REDIS_URL, live events are read from the database until it accepts them'
      : what);
  for (const connection of [publishClient, subscribeClient]) {
    connection.on('error', (error: Error) => report(error, 'event bus: Redis unreachable, live events are read from the database until it is back'));
  }

  // One listener on the Redis channel while this instance has subscribers, fanned out locally.
  // Subscribed here rather than through @graphql-yoga/redis-event-target, which drops the promises
  // of its SUBSCRIBE and UNSUBSCRIBE: ioredis rejects queued commands when Redis refuses the
  // connection's AUTH (a wrong or missing password), and an unhandled rejection ends the process.
  let listening = false;
  let resubscribeWhenReady = false;
  function listen(): void {
    subscribeClient.subscribe(channel).catch((error: unknown) => {
      report(error, 'event bus: subscribing on Redis failed, live events are read from the database until it is back');
      // What Redis never confirmed, ioredis does not resubscribe to on reconnect: ask again then.
      if (resubscribeWhenReady) return;
      resubscribeWhenReady = true;
      subscribeClient.once('ready', () => {
        resubscribeWhenReady = false;
        if (listening) listen();
      });
    });
  }
  subscribeClient.on('message', (from: string, message: string) => {
    if (from !== channel || !listening) return;
    let event: PositionedEvent;
    try {
      event = JSON.parse(message) as PositionedEvent;
    } catch {
      return;
    }
    if (sequence) sequence.heard(event);
    else fanOut.publish(event);
  });
  const fanOut = createFanOut(
    buffer,
    () => {
      listening = true;
      sequence?.start();
      listen();
    },
    () => {
      listening = false;
      sequence?.stop();
      // Refused or lost with the connection: either way nothing more arrives for this instance.
      subscribeClient.unsubscribe(channel).catch(() => undefined);
    },
  );
  const sequence = stored && createSequencer(stored, (event) => fanOut.publish(event), log);
  return {
    shared: true,
    // The JSON of the event, its promise handled: a publish that fails while Redis is away (after
    // maxRetriesPerRequest) must not end the process as an unhandled rejection. A lost publish
    // costs no event: every instance reads it from the database once announced (sequencer.ts).
    publish: (event) => {
      publishClient.publish(channel, JSON.stringify(event)).catch((error: unknown) => {
        report(error, 'event bus: publish to Redis failed; instances read the event from the database once its position is announced');
      });
    },
    flushed: async () => {},
    subscribe: (options) => fanOut.subscribe(options),
    announce: (position) => sequence?.announce(position),
    close: async () => {
      sequence?.stop();
      // QUIT lets the UNSUBSCRIBE of the last subscriber's leaving be answered first; a Redis that
      // does not answer gets a second.
      await Promise.race([subscribeClient.quit().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}
