// The event stream behind Subscription.events: optional replay from a cursor, then live, in
// commit order with no gap and no duplicate at the seam.
import type { Caller } from '../auth/caller.js';
import type { Db } from '../../db/client.js';
import { badInput, unauthenticated } from '../../errors.js';
import type { CredentialWatch } from '../auth/credential-watch.js';
import { canSee, visibleWhere } from './audience.js';
import { BusOverflow, type EventBus, type PositionedEvent } from './bus.js';
import { positionAfter } from './list.js';
import { EVENT_TYPES } from './outbox.js';
import { newestPosition, storedEvents } from './stored.js';

export interface StreamOptions {
  caller: Caller;
  /** Event names to receive; none or empty means all. */
  types?: readonly string[] | null;
  /** Replay the stored events after this event id before going live. */
  after?: string | null;
}

/**
 * The subscriber fell more than SUBSCRIPTION_BUFFER events behind (it did not read): its stream
 * ends. `lastEventId` is the last event it was sent (or, if none, the event it started after),
 * so it can resume with `after` and miss nothing.
 */
export class SubscriberTooSlow extends Error {
  readonly code = 'SUBSCRIBER_TOO_SLOW';
  constructor(
    readonly lastEventId: string | null,
    readonly buffer: number,
  ) {
    super(
      lastEventId
        ? `Subscriber too slow: more than ${buffer} events behind. The last event sent was ${lastEventId}; subscribe again with after: "${lastEventId}" to resume`
        : `Subscriber too slow: more than ${buffer} events behind, before any event was sent; subscribe again to resume`,
    );
    this.name = 'SubscriberTooSlow';
  }
}

export function createEventService({ db, bus, credentials }: { db: Db; bus: EventBus; credentials?: CredentialWatch }) {
  const stored = (from: number, to?: number) => storedEvents(db, from, to);

  /**
   * The id of the newest event at or before `position` that `caller` sees (null when none: before
   * the first), to resume from: an id they may not see would be refused as `after`, and none of
   * the events in between is theirs.
   */
  async function lastVisibleAt(position: number, caller: Caller): Promise<string | null> {
    if (!position) return null;
    const row = await db.event.findFirst({
      where: { position: { lte: position }, ...visibleWhere(caller) },
      orderBy: { position: 'desc' },
      select: { id: true },
    });
    return row?.id ?? null;
  }

  return {
    /**
     * Without `after`: subscribes first (so nothing published meanwhile is missed), then takes
     * the newest stored position as the start. With `after`: replays from the database until it
     * has caught up, and only then subscribes and reads the database once more (what committed
     * in between), so a long replay never counts against the live buffer. Then streams live
     * events, skipping what was already sent and filling any gap (events heard out of order from
     * several instances) from the database. A subscriber more than the bus's buffer behind ends
     * with SubscriberTooSlow.
     */
    async stream({ caller, types, after }: StreamOptions): Promise<AsyncIterableIterator<PositionedEvent>> {
      const unknown = (types ?? []).find((t) => !(EVENT_TYPES as readonly string[]).includes(t));
      if (unknown) throw badInput('types', `unknown event name ${JSON.stringify(unknown)}`);
      const wanted = types?.length ? new Set(types) : null;
      // Only what the caller may see (audience.ts), from the audience the event carries: no read.
      // Hidden events still advance the stream's position, so the seam and gaps work as for all.
      const matches = (e: PositionedEvent) => canSee(caller, e.audience) && (!wanted || wanted.has(e.payload.event));

      let start = 0;
      let live: AsyncIterableIterator<PositionedEvent> | undefined;
      let ended = false;
      // `after: ""` is an id no event has (BAD_USER_INPUT, as in the list), not "no after".
      if (after != null) {
        start = Number(await positionAfter(db, after, caller));
      } else {
        live = bus.subscribe({ bounded: true });
        try {
          start = await newestPosition(db);
        } catch (error) {
          await live.return?.();
          throw error;
        }
      }

      const events = (async function* () {
        let last = start;
        /** The last event handed to the subscriber, for SubscriberTooSlow. */
        let lastSent: string | null = after ?? null;
        try {
          if (!live) {
            // Replay until a page comes back short: caught up with what had committed by then.
            for await (const e of stored(last)) {
              last = e.position;
              if (matches(e)) {
                lastSent = e.id;
                yield e;
              }
            }
            if (ended) return;
            live = bus.subscribe({ bounded: true });
          }
          // What committed before the subscription above (or, without `after`, before the start).
          for await (const e of stored(last)) {
            last = e.position;
            if (matches(e)) {
              lastSent = e.id;
              yield e;
            }
          }
          for (;;) {
            let next: IteratorResult<PositionedEvent>;
            try {
              next = await live.next();
            } catch (error) {
              if (error instanceof BusOverflow) throw new SubscriberTooSlow(lastSent ?? (await lastVisibleAt(start, caller)), error.buffer);
              throw error;
            }
            if (next.done) return;
            const e = next.value;
            if (e.position <= last) continue;
            if (e.position > last + 1) {
              for await (const missed of stored(last, e.position - 1)) {
                last = missed.position;
                if (matches(missed)) {
                  lastSent = missed.id;
                  yield missed;
                }
              }
            }
            last = e.position;
            if (matches(e)) {
              lastSent = e.id;
              yield e;
            }
          }
        } finally {
          await live?.return?.();
        }
      })();
      // A generator waiting for the bus only sees `return()` after its next event: end the bus
      // subscription first, which releases that wait, so a departed subscriber is let go at once.
      const stop = async () => {
        ended = true;
        await live?.return?.();
      };
      // Revoking the session (or API key) the stream was opened with ends it, as it ends every
      // other use of that credential: with the contract's 403 (credential-watch.ts). Revocation
      // ends the bus subscription, which releases a wait in progress, and the next read reports
      // it. Reads are not raced against the revocation: that costs a promise and a closure per
      // event per subscriber, and a race against a never-settling promise keeps every event it raced.
      const credential = credentials?.watch(caller);
      let revoked = false;
      /** The revocation has been reported (thrown once): the stream is over. */
      let reported = false;
      void credential?.revoked.then(() => {
        revoked = true;
        void stop();
      });
      const end = async (value?: unknown) => {
        credential?.release();
        await stop();
        return events.return(value as undefined);
      };
      const iterator: AsyncIterableIterator<PositionedEvent> = {
        next: async () => {
          // Asked again after it ended with the error: done, not the error again (answered at once,
          // in a loop of microtasks, that would starve the event loop).
          if (reported) return { value: undefined, done: true };
          // Revoked before this read or during it: the read is not handed on.
          const next = revoked ? undefined : await events.next();
          if (next && !revoked) {
            if (next.done) credential?.release();
            return next;
          }
          reported = true;
          await end();
          throw unauthenticated();
        },
        return: end,
        throw: async (error?: unknown) => {
          credential?.release();
          await stop();
          return events.throw(error);
        },
        [Symbol.asyncIterator]: () => iterator,
      };
      return iterator;
    },
  };
}

export type EventService = ReturnType<typeof createEventService>;
