// Makes webhook deliveries due once their events are published: the relay's own at once, and
// those a relay left behind (its database failed after the commit, or it died) later.
import type { Db } from '../../../db/client.js';
import type { Prisma } from '../../../generated/prisma/client.js';
import type { Logger } from '../../../logger.js';

/**
 * Deliveries created but never made due: the process that positioned their events died between
 * its commit and making them due, or the database failed in between and that process is gone
 * too. Any relay makes them due once they are this old; a live relay makes its own due within
 * milliseconds of its commit, or retries at its next loop.
 */
export const STRANDED_AFTER_MS = 10_000;
/**
 * How often at most a relay looks for stranded deliveries (one query on the (status,
 * nextAttemptAt) index); idle, at each fallback poll.
 */
export const STRANDED_LOOK_EVERY_MS = 4_000;
/** At most this many events whose deliveries wait to be made due are remembered (the rest are stranded). */
const UNDUE_MAX = 10 * 500;

export function createDueDeliveries({ db, log, onDeliveriesDue }: { db: Db; log: Logger; onDeliveriesDue?(): void }) {
  /**
   * Events whose deliveries could not be made due (the database failed after the commit): made
   * due at the next rescue, rather than once stranded.
   */
  const undue = new Set<string>();
  let lastStrandedLook = 0;

  /** Makes due now the deliveries that `where` picks among those still waiting for it; how many. */
  async function makeDueWhere(where: Prisma.WebhookDeliveryWhereInput): Promise<number> {
    const { count } = await db.webhookDelivery.updateMany({
      where: { ...where, status: 'PENDING', nextAttemptAt: null },
      data: { nextAttemptAt: new Date() },
    });
    if (count) onDeliveriesDue?.();
    return count;
  }

  return {
    /** Makes the deliveries of these (published) events due; on failure, remembers them for rescue(). */
    async makeDue(eventIds: string[]): Promise<void> {
      try {
        await makeDueWhere({ eventId: { in: eventIds } });
      } catch (error) {
        for (const id of eventIds) if (undue.size < UNDUE_MAX) undue.add(id);
        throw error;
      }
    },
    /** Makes due what makeDue could not, and what a dead relay left stranded (every few seconds). */
    async rescue(): Promise<void> {
      if (undue.size) {
        const ids = [...undue];
        await makeDueWhere({ eventId: { in: ids } });
        for (const id of ids) undue.delete(id);
      }
      const now = Date.now();
      if (now - lastStrandedLook < STRANDED_LOOK_EVERY_MS) return;
      lastStrandedLook = now;
      const count = await makeDueWhere({ createdAt: { lt: new Date(now - STRANDED_AFTER_MS) } });
      if (count) log.warn({ count }, 'webhook deliveries stranded by a relay that stopped before making them due: made due now');
    },
  };
}
