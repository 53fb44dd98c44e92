// An ADMIN's "one more attempt now" (a test, a retry, a recovery): the state it gives a delivery,
// and the endpoint throttle it lifts.
import type { Db } from '../../db/client.js';
import type { Prisma } from '../../generated/prisma/client.js';

/**
 * The one rule for "one more attempt now", for retry (one delivery) and recover (many): PENDING,
 * due at once, any worker's lease dropped. A delivery that had ended (FAILED or SUCCEEDED) gets
 * exactly that one attempt: its place in the retry schedule (attemptCount) is set to the
 * schedule's end, so if the attempt fails it is FAILED again, not retried on the rest of a
 * schedule it had left early (a 410, a success). A PENDING one keeps its place: its next attempt
 * is only brought forward. A delivery the relay has created but not yet made due (PENDING,
 * nextAttemptAt null) is left as it is: it is due as soon as its event is published, and must not
 * go out before subscribers see the event.
 */
export const oneMoreAttempt = {
  where: { NOT: { status: 'PENDING', nextAttemptAt: null } },
  data: (scheduleEnd?: number) => ({
    status: 'PENDING',
    nextAttemptAt: new Date(),
    lockedUntil: null,
    ...(scheduleEnd === undefined ? {} : { attemptCount: scheduleEnd }),
  }),
} satisfies {
  where: Prisma.WebhookDeliveryWhereInput;
  data: (scheduleEnd?: number) => Prisma.WebhookDeliveryUpdateManyMutationInput;
};

/**
 * Lifts the endpoint's throttle (a receiver's Retry-After, up to a day), in the database for every
 * instance, and tells this instance's worker (`onDeliveriesDue`). Asking for an attempt now says
 * the receiver is ready; a throttle left in place would hold the attempt back with nothing to show why.
 */
export function createAttemptNow({ db, onDeliveriesDue }: { db: Db; onDeliveriesDue?: (endpointId: string) => void }) {
  return async function attemptNow(endpointId: string): Promise<void> {
    await db.webhookEndpoint.updateMany({ where: { id: endpointId, throttledUntil: { not: null } }, data: { throttledUntil: null } });
    onDeliveriesDue?.(endpointId);
  };
}
export type AttemptNow = ReturnType<typeof createAttemptNow>;
