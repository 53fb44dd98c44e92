// The webhook delivery worker. Every instance runs one; the database decides who sends what.
//
// Claim: one statement takes up to `free slots` due deliveries (PENDING, nextAttemptAt passed,
// no live lease, endpoint enabled) with FOR UPDATE SKIP LOCKED and stamps a lease on them
// (`lockedUntil` = now + timeout + margin), so with several instances on one PostgreSQL each
// attempt is made by exactly one of them, and the claim of a crashed instance is taken over
// once its lease has run out.
//
// Attempt: URL guard again (DNS may have changed since the endpoint was saved), then one signed
// POST (Standard Webhooks) on node:http (http-post.ts: redirects not followed, every address
// checked at connect time when private targets are refused, the response body read up to a
// cap), the whole attempt time-boxed. Every outcome, including refusals and network errors, is data.
//
// Record: finished attempts are written in batches (one statement for many): the attempt row,
// and the delivery's new state, fenced by the lease the attempt was made under. A delivery
// whose lease was dropped meanwhile (an ADMIN's "retry now") or taken over keeps the newer
// state; the attempt itself is still recorded.
import { Webhook } from 'standardwebhooks';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { Logger } from '../../logger.js';
import type { Worker } from '../../workers.js';
import { postOnce, PrivateTargetError } from './http-post.js';
import { parseRetryAfter } from './retry-after.js';
import { assertDeliverableUrl } from './url-guard.js';

/**
 * Attempts in flight per process. Claims overlap attempts (the loop claims again once half the
 * slots are free), so the database's round trips do not idle the HTTP side: 64 sustains well over
 * 1,000 deliveries/s to a loopback receiver where 32 stayed just under it on a loaded 2-core box.
 */
const MAX_IN_FLIGHT = 64;
/** How often to look for due deliveries when the last claim found fewer than it could take. */
const POLL_MS = 75;
/** A lease outlives the attempt's timeout by this much: time to record the outcome. */
const LEASE_MARGIN_MS = 10_000;
/** How much of a response body is read (the rest is discarded, the connection closed). */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** How much of a response body is kept in the attempt's error. */
const EXCERPT_CHARS = 200;
/** Attempts written per statement. */
const RECORD_BATCH = 256;
const USER_AGENT = 'Learnstream-Webhooks/1';
export const GONE_REASON = 'receiver answered 410 Gone';

export interface DispatcherOptions {
  db: Database;
  config: Config;
  log: Logger;
  /** Told the outcome of every attempt made, once it is recorded (metrics). */
  onAttempt?(outcome: Outcome): void;
}

/** A delivery this process holds a lease on. */
interface Claimed {
  id: string;
  endpointId: string;
  eventId: string;
  payload: unknown;
  attemptCount: number;
  /** The lease, as stamped by the claim: the fence for recording the outcome. */
  lockedUntil: Date;
  url: string;
  secret: string;
}

/**
 * SUCCEEDED: 2xx. RETRY: failed, due again after delayMs. FAILED: failed with the schedule spent.
 * GONE: 410, the endpoint is disabled. RELEASED: interrupted by stop(), due again at once and
 * not counted against the schedule.
 */
export type Outcome = 'SUCCEEDED' | 'RETRY' | 'FAILED' | 'GONE' | 'RELEASED';

interface AttemptResult {
  delivery: Claimed;
  at: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  outcome: Outcome;
  delayMs: number | null;
}

interface InFlight {
  delivery: Claimed;
  /** Aborts the attempt (stop() after its grace period). */
  interrupt: AbortController;
  /** Settles once the attempt is made and recorded (or recording failed). */
  done: Promise<void>;
}

const CLAIM_SQL = `
WITH due AS MATERIALIZED (
  SELECT d.id
    FROM "WebhookDelivery" d
    JOIN "WebhookEndpoint" e ON e.id = d."endpointId"
   WHERE d.status = 'PENDING' AND d."nextAttemptAt" <= now()
     AND (d."lockedUntil" IS NULL OR d."lockedUntil" < now())
     AND e.enabled
   ORDER BY d."nextAttemptAt"
   LIMIT $1
   FOR UPDATE OF d SKIP LOCKED
)
UPDATE "WebhookDelivery" d
   SET "lockedUntil" = now() + $2::float8 * interval '1 millisecond'
  FROM due, "WebhookEndpoint" e
 WHERE d.id = due.id AND e.id = d."endpointId"
RETURNING d.id, d."endpointId", d."eventId", d.payload, d."attemptCount", d."lockedUntil", e.url, e.secret`;

// One statement for a batch of finished attempts. The attempt is recorded whatever became of the
// delivery meanwhile (it was made); the delivery's state only if it is still under our lease.
const RECORD_SQL = `
WITH r AS (
  SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::int[], $4::int[], $5::text[], $6::text[], $7::float8[], $8::timestamptz[])
    AS r(id, at, status_code, duration_ms, error, outcome, delay_ms, lease)
), attempts AS (
  INSERT INTO "WebhookAttempt" ("deliveryId", at, "statusCode", "durationMs", error)
  SELECT r.id, r.at, r.status_code, r.duration_ms, r.error FROM r JOIN "WebhookDelivery" d ON d.id = r.id
), gone AS (
  UPDATE "WebhookEndpoint" e
     SET enabled = false, "disabledReason" = '${GONE_REASON}', "updatedAt" = now()
    FROM r JOIN "WebhookDelivery" d ON d.id = r.id
   WHERE r.outcome = 'GONE' AND e.id = d."endpointId" AND e.enabled
)
UPDATE "WebhookDelivery" d
   SET status = (CASE r.outcome WHEN 'SUCCEEDED' THEN 'SUCCEEDED' WHEN 'RETRY' THEN 'PENDING' WHEN 'RELEASED' THEN 'PENDING' ELSE 'FAILED' END)::"DeliveryStatus",
       "nextAttemptAt" = CASE r.outcome
                           WHEN 'RETRY' THEN now() + r.delay_ms * interval '1 millisecond'
                           WHEN 'RELEASED' THEN d."nextAttemptAt"
                           ELSE NULL END,
       "attemptCount" = d."attemptCount" + CASE WHEN r.outcome = 'RELEASED' THEN 0 ELSE 1 END,
       "lockedUntil" = NULL
  FROM r
 WHERE d.id = r.id AND d."lockedUntil" = r.lease`;

const RELEASE_SQL = `
UPDATE "WebhookDelivery" d SET "lockedUntil" = NULL
  FROM unnest($1::text[], $2::timestamptz[]) AS r(id, lease)
 WHERE d.id = r.id AND d."lockedUntil" = r.lease`;

/** The part of a response body kept for the attempt's error: one line, at most EXCERPT_CHARS. */
function excerpt(bytes: Buffer): string {
  // Control characters go too: PostgreSQL text cannot hold NUL, and a row that cannot be written
  // would leave the attempt unrecorded and the delivery retried on lease expiry forever.
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point
  const text = bytes.toString('utf8').replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

/** Why a request failed without a response, in words a receiver's operator recognises. */
function networkError(error: unknown): string {
  if (error instanceof PrivateTargetError) return `refused: ${error.message}`;
  const e = error as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : undefined;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset by the receiver';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found (DNS)';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    case 'HPE_HEADER_OVERFLOW':
      return 'response headers too large';
  }
  const message = typeof e.message === 'string' ? e.message : String(error);
  return code ? `${message} (${code})` : message;
}

/**
 * The body: the stored payload as JSON, `event` and `timestamp` first as the contract lists them
 * (jsonb keeps keys in its own order, shortest first).
 */
function serialize(payload: unknown): string {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return JSON.stringify(payload);
  const { event, timestamp, ...rest } = payload as Record<string, unknown>;
  return JSON.stringify({ event, timestamp, ...rest });
}

/** Resolves or rejects with `promise`, or rejects as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export function createDispatcher({ db, config, log, onAttempt }: DispatcherOptions): Worker {
  const { retryScheduleMs, timeoutMs, allowPrivateTargets } = config.webhook;
  const leaseMs = timeoutMs + LEASE_MARGIN_MS;
  const inFlight = new Map<string, InFlight>();
  const pending: { result: AttemptResult; written: () => void }[] = [];
  let flushing: Promise<void> | undefined;
  let stopping = false;
  let loopDone: Promise<void> = Promise.resolve();
  /** Wakes the claim loop early (a slot freed, or stop). */
  let wake: (() => void) | undefined;
  let waitingForSlot = false;

  // A Webhook decodes its secret once; endpoints are few, deliveries many.
  const signers = new Map<string, Webhook>();
  function signer(secret: string): Webhook {
    let webhook = signers.get(secret);
    if (!webhook) {
      if (signers.size >= 1_000) signers.clear();
      webhook = new Webhook(secret);
      signers.set(secret, webhook);
    }
    return webhook;
  }

  function pause(ms?: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        if (wake === done) wake = undefined;
        resolve();
      }
      wake = done;
    });
  }

  /** What a failed attempt leads to: another attempt after the scheduled delay, or FAILED. */
  function afterFailure(delivery: Claimed, retryAfterMs?: number): Pick<AttemptResult, 'outcome' | 'delayMs'> {
    // attemptCount attempts were made before this one; the n-th failure waits schedule[n-1].
    const scheduled = retryScheduleMs[delivery.attemptCount];
    if (scheduled === undefined) return { outcome: 'FAILED', delayMs: null };
    return { outcome: 'RETRY', delayMs: Math.max(scheduled, retryAfterMs ?? 0) };
  }

  async function attempt(delivery: Claimed, interrupt: AbortSignal): Promise<AttemptResult> {
    const at = new Date();
    const started = performance.now();
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([timeout, interrupt]);
    const elapsed = () => Math.max(0, Math.round(performance.now() - started));
    const failed = (error: string, statusCode: number | null = null, retryAfterMs?: number): AttemptResult => ({
      delivery, at, statusCode, durationMs: elapsed(), error, ...afterFailure(delivery, retryAfterMs),
    });
    try {
      try {
        await untilAborted(assertDeliverableUrl(delivery.url, allowPrivateTargets), signal);
      } catch (error) {
        if (signal.aborted) throw error;
        return failed(`refused: ${error instanceof Error ? error.message : String(error)}`);
      }
      const body = serialize(delivery.payload);
      const reply = await postOnce(delivery.url, {
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'webhook-id': delivery.eventId,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signer(delivery.secret).sign(delivery.eventId, at, body),
        },
        body,
        signal,
        allowPrivateTargets,
        maxResponseBytes: MAX_RESPONSE_BYTES,
      });
      const { status } = reply;
      const text = excerpt(reply.body);
      if (status >= 200 && status < 300) return { delivery, at, statusCode: status, durationMs: elapsed(), error: null, outcome: 'SUCCEEDED', delayMs: null };
      if (status === 410) return { delivery, at, statusCode: status, durationMs: elapsed(), error: `receiver answered 410 Gone: the endpoint is disabled${text ? `: ${text}` : ''}`, outcome: 'GONE', delayMs: null };
      const what = status >= 300 && status < 400 ? `receiver answered ${status} (redirects are not followed)` : `receiver answered ${status}`;
      return failed(text ? `${what}: ${text}` : what, status, parseRetryAfter(reply.headers['retry-after']));
    } catch (error) {
      if (interrupt.aborted) {
        return { delivery, at, statusCode: null, durationMs: elapsed(), error: 'interrupted: the service stopped before an answer came', outcome: 'RELEASED', delayMs: null };
      }
      if (timeout.aborted) return failed(`timed out after ${timeoutMs} ms`);
      return failed(networkError(error));
    }
  }

  async function record(batch: AttemptResult[]): Promise<void> {
    const column = <T>(pick: (r: AttemptResult) => T) => batch.map(pick);
    await db.query(RECORD_SQL, [
      column((r) => r.delivery.id),
      column((r) => r.at.toISOString()),
      column((r) => r.statusCode),
      column((r) => r.durationMs),
      column((r) => r.error),
      column((r) => r.outcome),
      column((r) => r.delayMs),
      column((r) => r.delivery.lockedUntil.toISOString()),
    ]);
  }

  function logOutcome(r: AttemptResult): void {
    const fields = { deliveryId: r.delivery.id, endpointId: r.delivery.endpointId, eventId: r.delivery.eventId, statusCode: r.statusCode, durationMs: r.durationMs };
    if (r.outcome === 'GONE') log.warn(fields, 'webhook receiver answered 410 Gone: endpoint disabled');
    else if (r.outcome === 'FAILED') log.info({ ...fields, error: r.error }, 'webhook delivery failed: retry schedule spent');
    else if (r.outcome !== 'SUCCEEDED') log.debug({ ...fields, error: r.error, retryInMs: r.delayMs }, 'webhook attempt failed');
  }

  /** Writes finished attempts in batches until none are waiting. */
  async function flush(): Promise<void> {
    while (pending.length) {
      const batch = pending.splice(0, RECORD_BATCH);
      const results = batch.map((p) => p.result);
      try {
        await record(results);
      } catch (error) {
        // One bad row (e.g. its delivery deleted mid-statement) must not lose the others.
        log.warn({ err: error, count: results.length }, 'recording webhook attempts failed: retrying one by one');
        for (const r of results) {
          await record([r]).catch((e: unknown) => {
            // The lease runs out and the delivery is attempted again: at least once still holds.
            log.error({ err: e, deliveryId: r.delivery.id }, 'recording a webhook attempt failed');
          });
        }
      }
      for (const p of batch) {
        logOutcome(p.result);
        onAttempt?.(p.result.outcome);
        p.written();
      }
    }
  }

  /** Resolves once `result` is written (or writing it failed and was logged). */
  function recordSoon(result: AttemptResult): Promise<void> {
    return new Promise((written) => {
      pending.push({ result, written });
      flushing ??= flush().finally(() => (flushing = undefined));
    });
  }

  function launch(delivery: Claimed): void {
    const interrupt = new AbortController();
    const done = attempt(delivery, interrupt.signal)
      .then(recordSoon)
      .catch((error: unknown) => log.error({ err: error, deliveryId: delivery.id }, 'webhook attempt crashed'))
      .finally(() => {
        inFlight.delete(delivery.id);
        // Claim in batches, not one slot at a time: wake the loop once half the slots are free.
        if (waitingForSlot && inFlight.size <= MAX_IN_FLIGHT / 2) wake?.();
      });
    inFlight.set(delivery.id, { delivery, interrupt, done });
  }

  async function claim(limit: number): Promise<Claimed[]> {
    return db.query<Claimed>(CLAIM_SQL, [limit, leaseMs]);
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      const free = MAX_IN_FLIGHT - inFlight.size;
      if (free <= 0) {
        waitingForSlot = true;
        await pause();
        waitingForSlot = false;
        continue;
      }
      let claimed: Claimed[];
      try {
        claimed = await claim(free);
      } catch (error) {
        log.warn({ err: error }, 'claiming webhook deliveries failed');
        await pause(POLL_MS * 10);
        continue;
      }
      for (const delivery of claimed) launch(delivery);
      // A full batch: there may be more due right now; otherwise look again shortly.
      if (claimed.length < free && !stopping) await pause(POLL_MS);
    }
  }

  return {
    start(): void {
      stopping = false;
      loopDone = loop().catch((error: unknown) => log.error({ err: error }, 'webhook dispatcher stopped unexpectedly'));
    },

    async stop(): Promise<void> {
      stopping = true;
      wake?.();
      await loopDone;
      // In flight: each attempt ends within its timeout; give them that, then interrupt the rest.
      const all = () => Promise.all([...inFlight.values()].map((f) => f.done));
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), timeoutMs + 1_000)));
      const late = (await Promise.race([all(), graceOver])) === 'late';
      clearTimeout(timer);
      if (late) {
        const leftovers = [...inFlight.entries()];
        for (const [, f] of leftovers) f.interrupt.abort();
        await Promise.race([all(), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
        // Whatever could still not be recorded: drop our leases so another instance takes over now.
        const stuck = leftovers.filter(([id]) => inFlight.has(id)).map(([, f]) => f.delivery);
        if (stuck.length) {
          await db
            .query(RELEASE_SQL, [stuck.map((d) => d.id), stuck.map((d) => d.lockedUntil.toISOString())])
            .catch((error: unknown) => log.warn({ err: error }, 'releasing webhook leases failed'));
        }
      }
      await flushing;
    },
  };
}
