// The event stream behind Subscription.events: optional replay from a cursor, then live, in
// commit order with no gap and no duplicate at the seam.
import type { Caller } from '../../context.js';
import type { Db } from '../../db/client.js';
import { badInput } from '../../errors.js';
import type { EventBus, PositionedEvent } from './bus.js';
import { EVENT_TYPES, type EventPayload } from './outbox.js';

const PAGE = 500;

export interface StreamOptions {
  caller: Caller;
  /** Event names to receive; none or empty means all. */
  types?: readonly string[] | null;
  /** Replay the stored events after this event id before going live. */
  after?: string | null;
}

export function createEventService({ db, bus }: { db: Db; bus: EventBus }) {
  /** Stored events with position in (from, to], in order. */
  async function* stored(from: number, to = Number.MAX_SAFE_INTEGER): AsyncGenerator<PositionedEvent> {
    for (let last = from; ; ) {
      const rows = await db.event.findMany({
        where: { position: { gt: last, lte: to } },
        orderBy: { position: 'asc' },
        take: PAGE,
        select: { id: true, payload: true, position: true },
      });
      for (const r of rows) yield { id: r.id, payload: r.payload as EventPayload, position: Number(r.position) };
      if (rows.length < PAGE) return;
      last = Number(rows[rows.length - 1]!.position);
    }
  }

  return {
    /**
     * Subscribes first (so nothing published meanwhile is missed), then replays from the
     * database, then streams live events, skipping what was already sent and filling any gap
     * (events heard out of order from several instances) from the database.
     */
    async stream({ types, after }: StreamOptions): Promise<AsyncIterableIterator<PositionedEvent>> {
      const unknown = (types ?? []).find((t) => !(EVENT_TYPES as readonly string[]).includes(t));
      if (unknown) throw badInput('types', `unknown event name ${JSON.stringify(unknown)}`);
      const wanted = types?.length ? new Set(types) : null;
      const matches = (e: PositionedEvent) => !wanted || wanted.has(e.payload.event);

      let start = 0;
      if (after) {
        const from = await db.event.findUnique({ where: { id: after }, select: { position: true } });
        if (!from || from.position === null) throw badInput('after', 'unknown or expired event id');
        start = Number(from.position);
      }
      const live = bus.subscribe();
      if (!after) {
        try {
          const { _max } = await db.event.aggregate({ _max: { position: true } });
          start = Number(_max.position ?? 0);
        } catch (error) {
          await live.return?.();
          throw error;
        }
      }

      const events = (async function* () {
        let last = start;
        try {
          for await (const e of stored(last)) {
            last = e.position;
            if (matches(e)) yield e;
          }
          for await (const e of live) {
            if (e.position <= last) continue;
            if (e.position > last + 1) {
              for await (const missed of stored(last, e.position - 1)) {
                last = missed.position;
                if (matches(missed)) yield missed;
              }
            }
            last = e.position;
            if (matches(e)) yield e;
          }
        } finally {
          await live.return?.();
        }
      })();
      // A generator waiting for the bus only sees `return()` after its next event: end the bus
      // subscription first, which releases that wait, so a departed subscriber is let go at once.
      const iterator: AsyncIterableIterator<PositionedEvent> = {
        next: () => events.next(),
        return: async (value?: unknown) => {
          await live.return?.();
          return events.return(value as undefined);
        },
        throw: async (error?: unknown) => {
          await live.return?.();
          return events.throw(error);
        },
        [Symbol.asyncIterator]: () => iterator,
      };
      return iterator;
    },
  };
}

export type EventService = ReturnType<typeof createEventService>;
