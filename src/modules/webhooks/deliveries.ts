// ADMIN views and actions on an endpoint's deliveries: the paged log, a test ping, a retry.
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { keysetPage, keysetSeek, type PageRequest } from '../../db/keyset.js';
import { notFound } from '../../errors.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { lookupId, newId } from '../../ids.js';
import type { Caller } from '../auth/caller.js';
import { assertAdmin } from '../auth/roles.js';
import { oneMoreAttempt, type AttemptNow } from './attempt-now.js';
import { findEndpoint } from './endpoints.js';
import { toDeliveryView, withAttempts, type DeliveryView } from './views.js';

export const TEST_EVENT = 'webhook.test';

export function createDeliveries({ db, config, attemptNow }: { db: Db; config: Config; attemptNow: AttemptNow }) {
  const scheduleEnd = config.webhook.retryScheduleMs.length;

  /**
   * Deliveries with their attempts, read in one snapshot. Prisma reads the attempts with a second
   * query, and the worker records an attempt and its delivery's new state in one statement: that
   * statement committing between the two would pair a delivery's old state with its new attempt.
   */
  const inOneSnapshot = <T>(read: (tx: Prisma.TransactionClient) => Promise<T>) => db.$transaction(read, { isolationLevel: 'RepeatableRead' });

  /** Inserts a delivery due now: the worker picks it up. */
  async function enqueueTest(endpointId: string): Promise<DeliveryView> {
    const now = new Date();
    const delivery = await db.webhookDelivery.create({
      data: {
        id: newId('dlv'),
        endpointId,
        eventId: newId('evt'),
        event: TEST_EVENT,
        payload: { event: TEST_EVENT, timestamp: now.toISOString() },
        status: 'PENDING',
        nextAttemptAt: now,
        createdAt: now,
      },
      include: withAttempts,
    });
    return toDeliveryView(delivery);
  }

  return {
    /** Queues a `webhook.test` ping (its own `evt_` id) to this endpoint only; the worker sends it. */
    async test({ caller, id }: { caller: Caller; id: string }): Promise<DeliveryView> {
      assertAdmin(caller);
      await findEndpoint(db, id);
      try {
        const queued = await enqueueTest(id);
        await attemptNow(id);
        return queued;
      } catch (error) {
        // Deleted between the check and the insert: the foreign key says so.
        if ((error as { code?: unknown }).code === 'P2003') throw notFound(`Webhook ${id}`);
        throw error;
      }
    },

    /** The endpoint's deliveries, newest first (each with its attempts, oldest first), keyset-paginated. */
    async deliveries({ caller, id, page }: { caller: Caller; id: string; page: PageRequest }) {
      assertAdmin(caller);
      const { limit, seek, orderBy, take } = keysetSeek(page);
      await findEndpoint(db, id);
      const rows = await inOneSnapshot((tx) => tx.webhookDelivery.findMany({ where: { endpointId: id, ...seek }, orderBy, take, include: withAttempts }));
      const found = keysetPage(rows, limit);
      return { ...found, items: found.items.map(toDeliveryView) };
    },

    /**
     * One more attempt now (oneMoreAttempt), whatever the delivery's state (PENDING, SUCCEEDED or
     * FAILED). A delivery still waiting for its event to be published is left as it is (it goes
     * out right after).
     */
    async retryDelivery({ caller, id, deliveryId }: { caller: Caller; id: string; deliveryId: string }): Promise<DeliveryView> {
      assertAdmin(caller);
      await findEndpoint(db, id);
      lookupId('Delivery', deliveryId);
      // At most one of the two matches (in this order, the second cannot match what the first
      // made PENDING): a PENDING delivery gets its next attempt sooner, an ended one its one attempt.
      await db.webhookDelivery.updateMany({
        where: { id: deliveryId, endpointId: id, status: 'PENDING', ...oneMoreAttempt.where },
        data: oneMoreAttempt.data(),
      });
      await db.webhookDelivery.updateMany({
        where: { id: deliveryId, endpointId: id, status: { not: 'PENDING' } },
        data: oneMoreAttempt.data(scheduleEnd),
      });
      const delivery = await inOneSnapshot((tx) => tx.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId: id }, include: withAttempts }));
      if (!delivery) throw notFound(`Delivery ${deliveryId}`);
      await attemptNow(id);
      return toDeliveryView(delivery);
    },
  };
}
