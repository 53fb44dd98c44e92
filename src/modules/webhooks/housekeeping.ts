// The webhook worker's housekeeping, run by the dispatcher of every instance at most once a
// minute: the delivery log's retention, and disabling endpoints that only fail. Several instances
// doing it at once only wait on each other's row locks.
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { Logger } from '../../logger.js';
import { failingReasonSql, formatDuration } from './delivery-health.js';

export const HOUSEKEEPING_EVERY_MS = 60_000;
/** Deliveries deleted per statement, and statements per pass (the rest waits a minute). */
const DELETE_CHUNK = 5_000;
const MAX_CHUNKS_PER_PASS = 20;

// Retention: deliveries created more than WEBHOOK_LOG_RETENTION_DAYS ago go, their attempts with
// them (ON DELETE CASCADE), in chunks so a large backlog is not one long transaction. A PENDING one
// that old goes too when its endpoint is disabled: nothing will attempt it, re-enabling must not
// flood the receiver with month-old events (recover is the deliberate way), and it would sit in the
// due range every claim scans. A PENDING one of an enabled endpoint stays: it is still on its retry
// schedule, and goes once it ends. One whose lease is live waits for the next pass.
const DELETE_OLD_SQL = `
DELETE FROM "WebhookDelivery" d
 WHERE d.id IN (
   SELECT o.id
     FROM "WebhookDelivery" o
     JOIN "WebhookEndpoint" e ON e.id = o."endpointId"
    WHERE o."createdAt" < now() - $1::float8 * interval '1 day'
      AND (o.status <> 'PENDING' OR NOT e.enabled)
      AND (o."lockedUntil" IS NULL OR o."lockedUntil" < now())
    LIMIT ${DELETE_CHUNK})
RETURNING d.status::text AS status`;

// Health: an endpoint failing for longer than WEBHOOK_DISABLE_AFTER is disabled even if no new
// attempt comes to find it. The endpoints are locked in id order first, as the record statement
// locks them (an UPDATE alone locks them in scan order: a deadlock with a record statement).
// FOR NO KEY UPDATE is the UPDATE's own lock.
export const DISABLE_FAILING_SQL = `
WITH failing AS MATERIALIZED (
  SELECT e.id FROM "WebhookEndpoint" e
   WHERE e.enabled AND e."failingSince" < now() - $1::float8 * interval '1 millisecond'
   ORDER BY e.id
     FOR NO KEY UPDATE
)
UPDATE "WebhookEndpoint" e
   SET enabled = false, "disabledReason" = ${failingReasonSql('e."failingSince"', '$2::text')}, "updatedAt" = now()
  FROM failing
 WHERE e.id = failing.id AND e.enabled AND e."failingSince" < now() - $1::float8 * interval '1 millisecond'
RETURNING e.id, e."disabledReason"`;

export interface WebhookHousekeeping {
  /** Runs a pass if the last one began at least HOUSEKEEPING_EVERY_MS ago (or never). */
  runIfDue(): Promise<void>;
}

export function createWebhookHousekeeping({ db, config, log }: { db: Database; config: Config; log: Logger }): WebhookHousekeeping {
  const { logRetentionDays, disableAfterMs } = config.webhook;
  let lastRun = -Infinity;

  async function pass(): Promise<void> {
    const disabled = await db.query<{ id: string; disabledReason: string }>(DISABLE_FAILING_SQL, [disableAfterMs, formatDuration(disableAfterMs)]);
    for (const e of disabled) log.warn({ endpointId: e.id, reason: e.disabledReason }, 'webhook endpoint disabled: failing for too long');

    let deleted = 0;
    let pending = 0;
    for (let chunk = 0; chunk < MAX_CHUNKS_PER_PASS; chunk++) {
      const rows = await db.query<{ status: string }>(DELETE_OLD_SQL, [logRetentionDays]);
      deleted += rows.length;
      pending += rows.filter((r) => r.status === 'PENDING').length;
      if (rows.length < DELETE_CHUNK) break;
    }
    if (deleted) log.info({ count: deleted, pendingOnDisabledEndpoints: pending, retentionDays: logRetentionDays }, 'webhook deliveries past retention deleted');
  }

  return {
    async runIfDue(): Promise<void> {
      const now = Date.now();
      if (now - lastRun < HOUSEKEEPING_EVERY_MS) return;
      lastRun = now;
      await pass();
    },
  };
}
