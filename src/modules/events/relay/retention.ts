// Deletes events past their retention, never the one a client may hold as its cursor.
import type { Db } from '../../../db/client.js';
import type { Prisma } from '../../../generated/prisma/client.js';
import { EVENT_TYPES } from '../outbox.js';

/**
 * An event past retention is deleted only once a later event of its name is past retention too.
 * A client that has seen everything holds the newest event of a name as its `after` (the list's
 * last item, a subscription's last event, with `types` or without), so its cursor holds until the
 * event after it is itself past retention: never, for a client that reads at least once per
 * retention period. So the newest positioned event is always kept, as it must be: positions
 * continue from MAX(position), and restarting them at 1 would hide what follows from live
 * subscribers, who skip what is not newer than what they have seen.
 * "Later" counts only events the cursor's holder sees (audience.ts): a name's boundary is its
 * newest public event past retention; ADMIN-only events, which only ADMINs hold, go once any later
 * event of their name is past retention; events about one learner (ownerId) only past a later
 * public one (none is recorded yet: the first name that has them needs a boundary per owner).
 * Page views take the newest by time (the createdAt index), the rare names the newest
 * by position (their (type, position) index). Returns how many were deleted.
 */
export async function deleteEventsPastRetention(db: Db, retentionDays: number, now = Date.now()): Promise<number> {
  const cutoff = new Date(now - retentionDays * 86_400_000);
  const boundaries = await db.$queryRaw<{ type: string; position: bigint | null; anyPosition: bigint | null }[]>`
    SELECT t.name AS type,
           (SELECT max(e.position) FROM "Event" e WHERE e.type = t.name AND e.type <> 'analytics.hit' AND e."createdAt" < ${cutoff}
              AND NOT e."adminOnly" AND e."ownerId" IS NULL) AS position,
           (SELECT max(e.position) FROM "Event" e WHERE e.type = t.name AND e.type <> 'analytics.hit' AND e."createdAt" < ${cutoff}) AS "anyPosition"
      FROM unnest(${EVENT_TYPES.filter((t) => t !== 'analytics.hit')}::text[]) AS t(name)
    UNION ALL
    SELECT 'analytics.hit',
           (SELECT e.position FROM "Event" e WHERE e.type = 'analytics.hit' AND e."createdAt" < ${cutoff} AND e.position IS NOT NULL
             ORDER BY e."createdAt" DESC, e.position DESC LIMIT 1), NULL`;
  const bounded = boundaries.flatMap((b): Prisma.EventWhereInput[] => [
    ...(b.position === null ? [] : [{ type: b.type, position: { lt: b.position } }]),
    ...(b.anyPosition === null || (b.position !== null && b.anyPosition <= b.position) ? [] : [{ type: b.type, adminOnly: true, position: { lt: b.anyPosition } }]),
  ]);
  if (bounded.length === 0) return 0;
  const { count } = await db.event.deleteMany({
    where: { createdAt: { lt: cutoff }, OR: bounded },
  });
  return count;
}
