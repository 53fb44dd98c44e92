// Recording finished attempts in batches, one statement for many: each attempt row, its delivery's
// new state (fenced by the attempt's lease), the endpoints' health, disabling one that answered 410
// or has only failed for WEBHOOK_DISABLE_AFTER, and a receiver's throttle.
import type { Database } from '../../../db/client.js';
import type { Logger } from '../../../logger.js';
import { failingReasonSql, formatDuration } from '../delivery-health.js';
import type { AttemptResult } from './attempt.js';

/** Attempts written per statement. */
const RECORD_BATCH = 256;
const GONE_REASON = 'receiver answered 410 Gone';

// The endpoint's new failingSince, in the record statement's endpoint update (`e` the endpoint,
// `h` its attempts in the batch): the first failure after its last success, whichever batch saw
// it. Attempts recorded out of order (another instance, a late record) are placed by their time.
const LAST_SUCCESS = `GREATEST(e."lastSuccessAt", h.success_at)`;
const FIRST_FAILURE_AFTER_SUCCESS = `(SELECT min(f) FROM unnest(h.failed_at) AS f WHERE f > COALESCE(${LAST_SUCCESS}, '-infinity'::timestamptz))`;
const FAILING_SINCE = `CASE WHEN e."failingSince" IS NOT NULL AND (${LAST_SUCCESS} IS NULL OR e."failingSince" > ${LAST_SUCCESS})
       THEN LEAST(e."failingSince", ${FIRST_FAILURE_AFTER_SUCCESS})
       ELSE ${FIRST_FAILURE_AFTER_SUCCESS} END`;
const FAILING_TOO_LONG = `(${FAILING_SINCE}) < now() - $11::float8 * interval '1 millisecond'`;

// One statement for a batch. The attempt is recorded whatever became of its delivery (it
// happened); the delivery's state only if it is still under our lease. Each endpoint is updated once,
// locked first in id order (`locked`), the order other instances' batches and the housekeeping use:
// an UPDATE alone locks in its plan's order, and two batches then deadlock. FOR NO KEY UPDATE is the
// UPDATE's own lock; it does not conflict with the relay fan-out's foreign-key FOR KEY SHARE.
export const RECORD_SQL = `
WITH r AS (
  SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::int[], $4::int[], $5::text[], $6::text[], $7::float8[], $8::timestamptz[], $9::text[], $10::float8[])
    AS r(id, at, status_code, duration_ms, error, outcome, delay_ms, lease, endpoint_id, throttle_ms)
), attempts AS (
  INSERT INTO "WebhookAttempt" ("deliveryId", at, "statusCode", "durationMs", error)
  SELECT r.id, r.at, r.status_code, r.duration_ms, r.error FROM r JOIN "WebhookDelivery" d ON d.id = r.id
), h AS (
  SELECT endpoint_id AS id,
         max(at) FILTER (WHERE outcome = 'SUCCEEDED') AS success_at,
         array_agg(at) FILTER (WHERE outcome IN ('RETRY', 'FAILED', 'GONE')) AS failed_at,
         bool_or(outcome = 'GONE') AS gone,
         max(at + throttle_ms * interval '1 millisecond') AS throttled_until
    FROM r
   WHERE outcome <> 'RELEASED'
   GROUP BY endpoint_id
), locked AS MATERIALIZED (
  SELECT e.id FROM "WebhookEndpoint" e
   WHERE e.id = ANY (ARRAY(SELECT id FROM h))
   ORDER BY e.id
     FOR NO KEY UPDATE
), endpoints AS (
  UPDATE "WebhookEndpoint" e
     SET "lastSuccessAt" = ${LAST_SUCCESS},
         "failingSince" = ${FAILING_SINCE},
         "throttledUntil" = GREATEST(e."throttledUntil", h.throttled_until),
         enabled = e.enabled AND NOT h.gone AND NOT COALESCE(${FAILING_TOO_LONG}, false),
         "disabledReason" = CASE WHEN NOT e.enabled THEN e."disabledReason"
                                 WHEN h.gone THEN '${GONE_REASON}'
                                 WHEN ${FAILING_TOO_LONG} THEN ${failingReasonSql(FAILING_SINCE, '$12::text')}
                                 ELSE e."disabledReason" END,
         "updatedAt" = CASE WHEN e.enabled AND (h.gone OR COALESCE(${FAILING_TOO_LONG}, false)) THEN now() ELSE e."updatedAt" END
    FROM h JOIN locked ON locked.id = h.id
   WHERE e.id = locked.id
  RETURNING e.id, e.enabled, e."disabledReason", e."updatedAt" = now() AND NOT e.enabled AS disabled_now
), deliveries AS (
  UPDATE "WebhookDelivery" d
     SET status = (CASE r.outcome WHEN 'SUCCEEDED' THEN 'SUCCEEDED' WHEN 'RETRY' THEN 'PENDING' WHEN 'RELEASED' THEN 'PENDING' ELSE 'FAILED' END)::"DeliveryStatus",
         "nextAttemptAt" = CASE r.outcome
                             WHEN 'RETRY' THEN now() + r.delay_ms * interval '1 millisecond'
                             WHEN 'RELEASED' THEN d."nextAttemptAt"
                             ELSE NULL END,
         "attemptCount" = d."attemptCount" + CASE WHEN r.outcome = 'RELEASED' THEN 0 ELSE 1 END,
         "lockedUntil" = NULL
    FROM r
   WHERE d.id = r.id AND d."lockedUntil" = r.lease
)
SELECT id, "disabledReason" FROM endpoints WHERE disabled_now`;

interface DisabledEndpoint {
  id: string;
  disabledReason: string;
}

export interface RecorderOptions {
  db: Database;
  log: Logger;
  /** WEBHOOK_DISABLE_AFTER: an endpoint that has only failed this long is disabled. */
  disableAfterMs: number;
  /** Told of each attempt once it is recorded (or recording it failed and was logged). */
  onRecorded(result: AttemptResult, recordedAt: number): void;
}

/**
 * Queues finished attempts and writes them in batches, one flush at a time. A delivery whose lease
 * was dropped meanwhile (an ADMIN's retry) or taken over keeps the newer state; its attempt is
 * still recorded.
 */
export class AttemptRecorder {
  private readonly queue: { result: AttemptResult; written: () => void }[] = [];
  private flushing: Promise<void> | undefined;
  private readonly disableAfter: string;

  constructor(private readonly options: RecorderOptions) {
    this.disableAfter = formatDuration(options.disableAfterMs);
  }

  /** Resolves once `result` is written (or writing it failed and was logged). */
  recordSoon(result: AttemptResult): Promise<void> {
    return new Promise((written) => {
      this.queue.push({ result, written });
      this.flushing ??= this.flush().finally(() => (this.flushing = undefined));
    });
  }

  /** Resolves once the flush under way, if any, has ended. */
  async idle(): Promise<void> {
    await this.flushing;
  }

  /** Writes queued attempts in batches until none are waiting. */
  private async flush(): Promise<void> {
    const { log, onRecorded } = this.options;
    while (this.queue.length) {
      const batch = this.queue.splice(0, RECORD_BATCH);
      const results = batch.map((p) => p.result);
      const disabled: DisabledEndpoint[] = [];
      try {
        disabled.push(...(await this.write(results)));
      } catch (error) {
        // One bad row (e.g. its delivery deleted mid-statement) must not lose the others.
        log.warn({ err: error, count: results.length }, 'recording webhook attempts failed: retrying one by one');
        for (const r of results) {
          await this.write([r]).then(
            (rows) => disabled.push(...rows),
            (e: unknown) => {
              // The lease runs out and the delivery is attempted again: at least once still holds.
              log.error({ err: e, deliveryId: r.delivery.id }, 'recording a webhook attempt failed');
            },
          );
        }
      }
      const now = Date.now();
      for (const p of batch) {
        this.logOutcome(p.result);
        onRecorded(p.result, now);
        p.written();
      }
      for (const e of disabled) {
        if (e.disabledReason !== GONE_REASON) log.warn({ endpointId: e.id, reason: e.disabledReason }, 'webhook endpoint disabled: failing for too long');
      }
    }
  }

  private write(batch: AttemptResult[]): Promise<DisabledEndpoint[]> {
    const column = <T>(pick: (r: AttemptResult) => T) => batch.map(pick);
    return this.options.db.query<DisabledEndpoint>(RECORD_SQL, [
      column((r) => r.delivery.id),
      column((r) => r.at.toISOString()),
      column((r) => r.statusCode),
      column((r) => r.durationMs),
      column((r) => r.error),
      column((r) => r.outcome),
      column((r) => r.delayMs),
      column((r) => r.delivery.lockedUntil.toISOString()),
      column((r) => r.delivery.endpointId),
      column((r) => r.throttleMs),
      this.options.disableAfterMs,
      this.disableAfter,
    ]);
  }

  private logOutcome(r: AttemptResult): void {
    const { log } = this.options;
    const fields = { deliveryId: r.delivery.id, endpointId: r.delivery.endpointId, eventId: r.delivery.eventId, statusCode: r.statusCode, durationMs: r.durationMs };
    if (r.outcome === 'GONE') log.warn(fields, 'webhook receiver answered 410 Gone: endpoint disabled');
    else if (r.outcome === 'FAILED') log.info({ ...fields, error: r.error }, 'webhook delivery failed: retry schedule spent');
    else if (r.outcome !== 'SUCCEEDED') log.debug({ ...fields, error: r.error, retryInMs: r.delayMs, throttleMs: r.throttleMs }, 'webhook attempt failed');
  }
}
