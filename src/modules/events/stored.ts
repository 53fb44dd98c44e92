// The stored events, read by position: the record every live stream falls back on when it did
// not hear an event (a replay, a gap, an event published on Redis by an instance that could not
// reach it).
import type { Db } from '../../db/client.js';
import { audienceOf } from './audience.js';
import type { PositionedEvent } from './bus.js';
import type { EventPayload } from './outbox.js';

const PAGE = 500;

/** Stored events with position in (from, to], in order, a page of 500 at a time. */
export async function* storedEvents(db: Db, from: number, to = Number.MAX_SAFE_INTEGER): AsyncGenerator<PositionedEvent> {
  for (let last = from; ; ) {
    const rows = await db.event.findMany({
      where: { position: { gt: last, lte: to } },
      orderBy: { position: 'asc' },
      take: PAGE,
      select: { id: true, payload: true, position: true, adminOnly: true, ownerId: true },
    });
    for (const r of rows) yield { id: r.id, payload: r.payload as EventPayload, position: Number(r.position), audience: audienceOf(r) };
    if (rows.length < PAGE) return;
    last = Number(rows[rows.length - 1]!.position);
  }
}

/**
 * The newest position given (0 before the first event). Raw SQL: Prisma's aggregate wraps max() in
 * a subquery (`SELECT MAX(position) FROM (SELECT position FROM "Event" … OFFSET $1)`) that read
 * every event's position, where a plain max() is one step down the end of the unique index.
 */
export async function newestPosition(db: Db): Promise<number> {
  const [row] = await db.$queryRaw<{ max: bigint | null }[]>`SELECT max(position) AS max FROM "Event"`;
  return Number(row?.max ?? 0);
}
