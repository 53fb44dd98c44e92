// This instance's subscribers: one bounded ring shared by clients' subscriptions, and a queue
// each for the instance's own followers. Both event buses deliver through it.
import { BusOverflow, type PositionedEvent } from '../bus.js';

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
