// Live fan-out of committed events to this instance's subscribers. Without REDIS_URL it is
// in-process (other instances on the same PostgreSQL hear of new positions through NOTIFY: see
// relay.ts); with it, every instance's relay publishes on a Redis channel and every instance's
// subscribers hear it, with what Redis did not bring read from the database (createSequencer).
// Either way a subscriber reads a bounded ring, never a queue of its own (createFanOut).
import { Redis } from 'ioredis';
import { deploymentId } from '../../deployment.js';
import { rarely, type Logger } from '../../logger.js';
import type { Audience } from './audience.js';
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
  /**
   * Who besides ADMINs sees it (audience.ts), carried on the bus (and in its Redis message) so a
   * stream filters without reading the database. Absent: ADMINs only.
   */
  audience?: Audience;
}

export interface EventBus {
  /** Whether a publish reaches every instance's subscribers (Redis), or only this instance's. */
  readonly shared: boolean;
  publish(event: PositionedEvent): void;
  /**
   * Resolves once everything this instance published has been handed to its own subscribers (a
   * burst enters them one event per turn of the event loop). With Redis, once it is sent.
   */
  flushed(): Promise<void>;
  /**
   * Every event published from now on, in the order this instance hears them. `bounded` (a
   * client's subscription): it reads the shared ring, and once it is more than the bus's buffer
   * behind its next `next()` fails with BusOverflow. Otherwise (the instance's own followers, such
   * as the response cache's invalidation, which always read) it has a queue of its own.
   */
  subscribe(options?: { bounded?: boolean }): AsyncIterableIterator<PositionedEvent>;
  /**
   * Every position up to `position` has committed (a relay's NOTIFY, or its look). A shared bus
   * that has not heard them on Redis within ANNOUNCED_GRACE_MS reads them from the database and
   * hands them to this instance's subscribers. In-process, the relay follows instead (relay.ts).
   */
  announce(position: number): void;
  close(): Promise<void>;
}

/** Where a shared bus reads the events it did not hear on Redis. */
export interface StoredEvents {
  /** The newest position given (0 before the first event). */
  newest(): Promise<number>;
  /** The events with position in (from, to], in order. */
  between(from: number, to: number): AsyncIterable<PositionedEvent>;
}

/**
 * How long an announced position may take to arrive on Redis before it is read from the
 * database. The relay publishes right after the commit that NOTIFYs, so on a healthy Redis the
 * message is there first; the grace only decides how soon a partition is noticed.
 */
export const ANNOUNCED_GRACE_MS = 500;

/** An async iterator over `next`, ended (by return() or throw()) through `finish`. */
function iteratorOf(
  next: () => Promise<IteratorResult<PositionedEvent>>,
  finish: () => IteratorResult<PositionedEvent>,
): AsyncIterableIterator<PositionedEvent> {
  const iterator: AsyncIterableIterator<PositionedEvent> = {
    next,
    return: () => Promise.resolve(finish()),
    throw: (error: unknown) => {
      finish();
      return Promise.reject(error);
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

/** SUBSCRIPTION_BUFFER's default. */
const DEFAULT_BUFFER = 1000;

/**
 * A subscriber that fell more than `buffer` events behind: the events it had not read yet are no
 * longer held for it. The event stream turns this into SUBSCRIBER_TOO_SLOW.
 */
export class BusOverflow extends Error {
  constructor(readonly buffer: number) {
    super(`more than ${buffer} events behind`);
    this.name = 'BusOverflow';
  }
}

/** A subscriber's place in the fan-out: the sequence number of the next event it reads. */
interface Reader {
  cursor: number;
  done: boolean;
  /** Set while it waits for the next event (it has read everything published). */
  resolve?: (result: IteratorResult<PositionedEvent>) => void;
}

/**
 * This instance's subscribers. A bounded one (a client's subscription) is a cursor into one
 * shared ring of the last `buffer` events, so what a client that does not read costs is bounded
 * by the ring, whatever the volume: once the ring has moved more than `buffer` events past it,
 * its next read fails with BusOverflow. Publishing to thousands of them is one write to the ring
 * and a loop over the ones waiting. A subscriber is registered as soon as `subscribe()` returns
 * (not at its first `next()`), so nothing published in between is lost.
 */
export function createFanOut(buffer: number, onFirst?: () => void, onLast?: () => void) {
  const ring: PositionedEvent[] = [];
  /** Sequence number of the next event published. */
  let head = 0;
  let subscribers = 0;
  let waiting: Reader[] = [];
  /** Unbounded subscribers: a queue each. */
  const followers = new Set<(event: PositionedEvent) => void>();

  function follow(): AsyncIterableIterator<PositionedEvent> {
    const queue: PositionedEvent[] = [];
    let resolveNext: ((result: IteratorResult<PositionedEvent>) => void) | undefined;
    let done = false;
    const listener = (event: PositionedEvent) => {
      if (!resolveNext) return void queue.push(event);
      const resolve = resolveNext;
      resolveNext = undefined;
      resolve({ value: event, done: false });
    };
    const finish = (): IteratorResult<PositionedEvent> => {
      if (!done) {
        done = true;
        queue.length = 0;
        followers.delete(listener);
        if (!--subscribers) onLast?.();
        const resolve = resolveNext;
        resolveNext = undefined;
        resolve?.({ value: undefined, done: true });
      }
      return { value: undefined, done: true };
    };
    if (!subscribers++) onFirst?.();
    followers.add(listener);
    return iteratorOf(() => {
      if (queue.length) return Promise.resolve({ value: queue.shift()!, done: false });
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => (resolveNext = resolve));
    }, finish);
  }

  /** Published, not yet in the ring: see publish. */
  const pending: PositionedEvent[] = [];
  let draining = false;
  /** Waiting for `pending` to empty (flushed()). */
  let flushWaiters: (() => void)[] = [];

  function deliver(event: PositionedEvent): void {
    ring[head % buffer] = event;
    head++;
    for (const listener of followers) listener(event);
    if (!waiting.length) return;
    const woken = waiting;
    waiting = [];
    for (const reader of woken) {
      if (reader.done || !reader.resolve) continue;
      const resolve = reader.resolve;
      reader.resolve = undefined;
      reader.cursor = head;
      resolve({ value: event, done: false });
    }
  }

  function drain(): void {
    deliver(pending.shift()!);
    if (pending.length) return void setImmediate(drain);
    draining = false;
    const waiters = flushWaiters;
    flushWaiters = [];
    for (const resolve of waiters) resolve();
  }

  return {
    /**
     * A burst (a relay's batch, a Redis chunk) goes into the ring one event per turn of the event
     * loop: a subscriber that reads hands each event to its transport (and is waiting again)
     * before the next arrives, so only one that does not read falls behind.
     */
    publish(event: PositionedEvent): void {
      pending.push(event);
      if (draining) return;
      draining = true;
      setImmediate(drain);
    },
    flushed(): Promise<void> {
      return draining ? new Promise((resolve) => flushWaiters.push(resolve)) : Promise.resolve();
    },
    subscribe({ bounded = false }: { bounded?: boolean } = {}): AsyncIterableIterator<PositionedEvent> {
      if (!bounded) return follow();
      const reader: Reader = { cursor: head, done: false };
      const finish = (): IteratorResult<PositionedEvent> => {
        if (!reader.done) {
          reader.done = true;
          if (!--subscribers) onLast?.();
          const resolve = reader.resolve;
          reader.resolve = undefined;
          resolve?.({ value: undefined, done: true });
        }
        return { value: undefined, done: true };
      };
      if (!subscribers++) onFirst?.();
      return iteratorOf(() => {
        if (reader.done) return Promise.resolve({ value: undefined, done: true });
        const behind = head - reader.cursor;
        if (behind > buffer) {
          finish();
          return Promise.reject(new BusOverflow(buffer));
        }
        if (behind > 0) return Promise.resolve({ value: ring[reader.cursor++ % buffer]!, done: false });
        return new Promise((resolve) => {
          reader.resolve = resolve;
          waiting.push(reader);
        });
      }, finish);
    },
  };
}

/** Redis refused the connection's credentials: a wrong password (WRONGPASS), or none where one is needed (NOAUTH). */
function refusedCredentials(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return /^(Ready check failed: )?(WRONGPASS|NOAUTH)\b/.test(message);
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
  /** With Redis: where to read what was not heard on it (see createSequencer). */
  stored?: StoredEvents;
}): EventBus {
  if (!redisUrl) {
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
  const publishClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  // A SUBSCRIBE issued while Redis is away waits for it (no retry limit); ioredis resubscribes on
  // reconnect to what Redis confirmed.
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: null });
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
  // connection's AUTH (a wrong or missing password), and that unhandled rejection ended the process.
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
    // costs no event: every instance reads it from the database once announced (createSequencer).
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

/**
 * What a shared bus hands this instance's subscribers: every event once, in order of position,
 * with no gap. Redis brings events out of order when several instances publish, and not at all
 * when the instance that positioned them was cut off from Redis (its publish is lost). A gap
 * before an event heard is filled from the database first; an announced position not heard
 * within ANNOUNCED_GRACE_MS is read from it. What was already delivered is dropped when heard.
 */
function createSequencer(stored: StoredEvents, deliver: (event: PositionedEvent) => void, log?: Logger) {
  /** The highest position delivered; undefined while stopped or until the start is known. */
  let delivered: number | undefined;
  let announced = 0;
  let grace: NodeJS.Timeout | undefined;
  let steps: Promise<void> = Promise.resolve();
  let lastWarnedAt = 0;
  /** One step at a time, in the order asked. */
  const inTurn = (step: () => Promise<void> | void) => {
    steps = steps.then(step).catch((error: unknown) => log?.warn({ err: error }, 'event bus: reading events from the database failed'));
  };

  async function fill(to: number): Promise<number> {
    if (delivered === undefined || delivered >= to) return 0;
    let count = 0;
    for await (const event of stored.between(delivered, to)) {
      deliver(event);
      delivered = event.position;
      count++;
    }
    // Positions deleted past their retention have nothing to deliver.
    delivered = to;
    return count;
  }

  function awaitAnnounced(): void {
    const due = announced;
    grace = setTimeout(() => {
      grace = undefined;
      inTurn(async () => {
        const count = await fill(due);
        if (count && Date.now() - lastWarnedAt > 10_000) {
          lastWarnedAt = Date.now();
          log?.warn({ count, position: due }, 'event bus: events not heard on Redis were read from the database');
        }
      });
      if (announced > due) awaitAnnounced();
    }, ANNOUNCED_GRACE_MS);
    grace.unref();
  }

  return {
    /** The first subscriber came: delivery starts after the newest position given. */
    start(): void {
      inTurn(async () => {
        delivered = await stored.newest();
      });
    },
    stop(): void {
      clearTimeout(grace);
      grace = undefined;
      inTurn(() => {
        delivered = undefined;
      });
    },
    heard(event: PositionedEvent): void {
      inTurn(async () => {
        // The start could not be read (the database was away): start here.
        delivered ??= event.position - 1;
        if (event.position <= delivered) return;
        await fill(event.position - 1);
        deliver(event);
        delivered = event.position;
      });
    },
    announce(position: number): void {
      if (position > announced) announced = position;
      if (!grace) awaitAnnounced();
    },
  };
}
