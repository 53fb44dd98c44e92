// The event list: the stored, positioned events in commit order, the polling twin of
// Subscription.events (same ids, same `after` cursor, same authorization). GET /api/v1/events and
// Query.events are thin adapters over `list`.
import type { Caller } from '../auth/caller.js';
import type { Db } from '../../db/client.js';
import { lowerBound } from '../../dates.js';
import { isId } from '../../ids.js';
import { audienceOf, canSee, visibleWhere } from './audience.js';
import type { PositionedEvent } from './bus.js';
import { EVENT_CATALOG, type EventName } from './catalog.js';
import { unknownEvent, type EventListFilter } from './inputs.js';
import type { EventPayload } from './outbox.js';

/** Where `since` starts in commit order is looked for first among this many positions (see list). */
const SINCE_HEAD = 1_000;
/** Below this many events since `since`, where it starts is found among them all (see list). */
const FEW_SINCE = 50_000;

/**
 * The position of the event `id` names, or null when no positioned event has that id or `caller`
 * may not see it (audience.ts): the same answer, so that an event hidden from the caller does not
 * exist for them, as a draft lesson's 404 says. A cursor the caller was given always names an
 * event they saw, and who sees an event never changes. Checked before the lookup: a NUL (which
 * PostgreSQL text cannot hold) or a 1 MB string never reaches the database.
 */
export async function positionOf(db: Db, caller: Caller, id: string): Promise<bigint | null> {
  const row = isId(id, 'evt')
    ? await db.event.findUnique({ where: { id }, select: { position: true, adminOnly: true, ownerId: true } })
    : null;
  return row && row.position !== null && canSee(caller, audienceOf(row)) ? row.position : null;
}

/** The position of the event a subscription's `after` names (positionOf), or its 400. */
export async function positionAfter(db: Db, after: string, caller: Caller): Promise<bigint> {
  const position = await positionOf(db, caller, after);
  if (position === null) throw unknownEvent('after');
  return position;
}

export interface EventListOptions extends EventListFilter {
  caller: Caller;
  /** Only events after this position (exclusive): positionOf the client's `after`. */
  after?: bigint;
}

export interface EventListPage {
  items: PositionedEvent[];
  hasMore: boolean;
  /** The last item's id when there is more after it; null on the last page. */
  nextCursor: string | null;
}

export function createEventLogService({ db }: { db: Db }) {
  return {
    /** The event-type catalogue. */
    types: () => ({ items: EVENT_CATALOG.map(({ name, description, schema }) => ({ name: name as EventName, description, schema })) }),

    /** The position of the event `id` names, if `caller` may see it (see positionOf). */
    positionOf: ({ caller, id }: { caller: Caller; id: string }) => positionOf(db, caller, id),

    /**
     * One page of the stored events in commit order that `caller` may see (audience.ts): any
     * authenticated caller may read them, as any may subscribe. The page and `nextCursor` hold
     * only events the caller sees: the events hidden from them are skipped as if they did not exist.
     *
     * Cost: one keyset read on the unique index of `position` (`position > cursor ORDER BY position
     * LIMIT n`): the rows read are the page, however long the history before the cursor. With
     * `since`, one more statement first finds where that time starts in commit order. A rare
     * `types` filter reads past the events of other types.
     */
    async list({ caller, types, after, since, limit }: EventListOptions): Promise<EventListPage> {
      // The first whole millisecond at or after `since`; none when it is before year 1 (older than any event).
      const sinceAt = since !== undefined ? lowerBound(since) : undefined;

      let from = after ?? 0n;
      if (sinceAt) {
        // Where `since` starts in commit order: the lowest position of an event that new (not the
        // position of the first one by time: a transaction that began earlier can commit later).
        // Exact three ways, each tried only when the one before could not tell, cheapest first: the
        // next SINCE_HEAD positions (an old `since`: at once); else, when fewer than FEW_SINCE
        // events are that new (a recent `since`), the lowest of all their positions, through the
        // index of createdAt (the OFFSET 0 keeps min() from being planned as a walk); else a walk
        // up the positions to the first one that new. Left to choose, PostgreSQL walks for a
        // recent `since` too, guessing that new events are spread over the positions when they are
        // all at the end.
        const [first] = await db.$queryRaw<{ position: bigint | null }[]>`
          SELECT COALESCE(
            (SELECT position FROM (SELECT position, "createdAt" FROM "Event" WHERE position > ${from} ORDER BY position LIMIT ${SINCE_HEAD}) AS head
              WHERE "createdAt" >= ${sinceAt} ORDER BY position LIMIT 1),
            CASE
              WHEN (SELECT count(*) FROM (SELECT FROM "Event" WHERE "createdAt" >= ${sinceAt} LIMIT ${FEW_SINCE}) AS recent) < ${FEW_SINCE}
              THEN (SELECT min(position) FROM (SELECT position FROM "Event" WHERE "createdAt" >= ${sinceAt} AND position > ${from} OFFSET 0) AS recent)
              ELSE (SELECT position FROM "Event" WHERE "createdAt" >= ${sinceAt} AND position > ${from} ORDER BY position LIMIT 1)
            END) AS position`;
        if (first?.position == null) return { items: [], hasMore: false, nextCursor: null };
        from = first.position - 1n;
      }

      // Not an ADMIN: the same keyset read, skipping what the caller may not see (adminOnly and
      // ownerId are read from the row the read fetches anyway). The rows it reads past are the
      // hidden events among the page's, edits of drafts: few beside the public ones.
      const rows = await db.event.findMany({
        where: {
          position: { gt: from },
          ...(types?.length ? { type: { in: [...types] } } : {}),
          ...(sinceAt ? { createdAt: { gte: sinceAt } } : {}),
          ...visibleWhere(caller),
        },
        orderBy: { position: 'asc' },
        take: limit + 1,
        select: { id: true, payload: true, position: true },
      });
      const hasMore = rows.length > limit;
      const items = (hasMore ? rows.slice(0, limit) : rows).map(
        (r): PositionedEvent => ({ id: r.id, payload: r.payload as EventPayload, position: Number(r.position) }),
      );
      return { items, hasMore, nextCursor: hasMore ? items[items.length - 1]!.id : null };
    },
  };
}

export type EventLogService = ReturnType<typeof createEventLogService>;
