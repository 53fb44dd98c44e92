// Bulk retry of an endpoint's failed deliveries, as Svix's recover.
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { lowerBound } from '../../dates.js';
import type { Caller } from '../auth/caller.js';
import { assertAdmin } from '../auth/roles.js';
import { oneMoreAttempt, type AttemptNow } from './attempt-now.js';
import { findEndpoint } from './endpoints.js';
import type { RecoverWebhookInput } from './inputs.js';
import type { RecoveryView } from './views.js';

export function createRecovery({ db, config, attemptNow }: { db: Db; config: Config; attemptNow: AttemptNow }) {
  const scheduleEnd = config.webhook.retryScheduleMs.length;
  return {
    /**
     * Every FAILED delivery of the endpoint created at or after `since` gets one more attempt now
     * (oneMoreAttempt), in one statement. A `since` older than the delivery log retention means
     * "every FAILED delivery still kept": older ones are deleted. On a disabled endpoint the
     * recovered deliveries wait, due, until it is enabled again (the worker sends only to enabled
     * endpoints).
     */
    async recover({ caller, id, input }: { caller: Caller; id: string; input: RecoverWebhookInput }): Promise<RecoveryView> {
      assertAdmin(caller);
      // Read as every date bound is (src/dates.ts): from its first whole millisecond; before year 1
      // it bounds nothing.
      const from = lowerBound(input.since);
      await findEndpoint(db, id);
      const { count } = await db.webhookDelivery.updateMany({
        where: { endpointId: id, status: 'FAILED', ...(from ? { createdAt: { gte: from } } : {}) },
        data: oneMoreAttempt.data(scheduleEnd),
      });
      if (count) await attemptNow(id);
      return { count };
    },
  };
}
