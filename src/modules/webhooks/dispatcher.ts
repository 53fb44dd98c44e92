// The webhook delivery worker. Every instance runs one; the database decides who sends what.
//
// Claim: one statement takes due deliveries (PENDING, nextAttemptAt passed, no live lease,
// endpoint enabled and not throttled) with FOR UPDATE SKIP LOCKED and stamps a lease on them
// (`lockedUntil` = now + timeout + margin), so with several instances on one PostgreSQL each
// attempt is made by exactly one of them, and the claim of a crashed instance is taken over
// once its lease has run out.
//
// Isolation: each endpoint has its own share of this process's attempts in flight (ENDPOINT_SHARE,
// FAILING_SHARE once it keeps failing), counted here in memory, and the claim is fair: among the
// oldest due deliveries it takes each endpoint's turn 1, then each one's turn 2, …, never more
// than an endpoint's remaining share, and it looks past the endpoints whose share is used up. So
// an endpoint that is slow, failing or never answers holds at most its share, and everyone else's
// deliveries go out beside it. A receiver's 429 or Retry-After throttles its endpoint alone
// (`throttledUntil`: no instance claims its deliveries before then).
//
// Attempt: URL guard again (DNS may have changed since the endpoint was saved), then one signed
// POST (Standard Webhooks; during a secret rotation signed with both secrets, the new one first) on
// node:http (http-post.ts: redirects not followed, every address checked at connect time when
// private targets are refused, the response body read up to a cap), the whole attempt time-boxed.
// Every outcome, including refusals and network errors, is data.
//
// Record: finished attempts are written in batches (one statement for many): the attempt row,
// and the delivery's new state, fenced by the lease the attempt was made under. A delivery
// whose lease was dropped meanwhile (an ADMIN's "retry now") or taken over keeps the newer
// state; the attempt itself is still recorded. The same statement keeps the endpoints' health
// (lastSuccessAt, failingSince), disables one that answered 410 Gone or has only failed for
// WEBHOOK_DISABLE_AFTER, and stores a receiver's throttle.
//
// Waking: idle, the worker looks for due deliveries once a second (IDLE_POLL_MS). It looks at
// once when told (wake(): the relay has made deliveries due), when a retry or throttle it knows of
// comes due, or when attempts finish and free slots; busy, it claims again as soon as a claim has
// filled every free slot. Housekeeping (retention, health of idle endpoints) runs at most once a
// minute (housekeeping.ts).
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { Logger } from '../../logger.js';
import type { Worker } from '../../workers.js';
import { failingReasonSql, formatDuration } from './delivery-health.js';
import { signatureHeader } from './delivery-signature.js';
import { createWebhookHousekeeping } from './housekeeping.js';
import { postOnce, PrivateTargetError } from './http-post.js';
import { parseRetryAfter } from './retry-after.js';
import { assertDeliverableUrl } from './url-guard.js';

/**
 * Attempts in flight per process, all endpoints together. An attempt waiting on a receiver costs a
 * socket and a timer, so this is set well above what one fast receiver needs, to leave room for
 * several endpoints that hold their whole share while they time out.
 */
const MAX_IN_FLIGHT = 512;
/**
 * Attempts in flight per endpoint per process. Claims overlap attempts (an endpoint is claimed for
 * again once half its share is free), so 64 keeps one fast loopback receiver busy as the single
 * pool of 64 did before endpoints were isolated.
 */
const ENDPOINT_SHARE = 64;
/** The share of an endpoint whose last STRIKES attempts all failed: it probes, it does not flood. */
const FAILING_SHARE = 4;
const STRIKES = 3;
/**
 * How many of the oldest claimable deliveries a claim looks at (times the free slots; at least
 * the minimum) to share them out fairly between endpoints.
 */
const WINDOW_PER_SLOT = 4;
const MIN_WINDOW = 256;
/** Idle, how often to look for due deliveries that nobody told this process about. */
const IDLE_POLL_MS = 1_000;
/**
 * After a claim whose window was all taken by endpoints that used up their share, how soon to look
 * past them (a claim that skips their deliveries costs a scan over them: not after every claim).
 */
const LOOK_PAST_MS = 100;
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
  /** The secret replaced by a rotation, while it still signs (null otherwise). */
  previousSecret: string | null;
  /** How many deliveries the claim's window held (the same on every row of one claim). */
  seen: number;
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
  /** The receiver asked for its whole endpoint to be left alone this long (429, Retry-After). */
  throttleMs: number | null;
}

interface InFlight {
  delivery: Claimed;
  /** Ends the attempt: its timeout, or stop() after its grace period (INTERRUPTED). */
  abort: AbortController;
  /** Settles once the attempt is made and recorded (or recording failed). */
  done: Promise<void>;
}

/** What this process knows of one endpoint it has sent to. */
interface EndpointState {
  inFlight: number;
  /** Consecutive failed attempts (reset by a success). */
  failures: number;
  /** Set when a claim gave it its whole remaining share: more may be due once slots free up. */
  filled: boolean;
  /** Until when (ms since epoch) its receiver asked to be left alone, as far as this process knows. */
  throttledUntil: number;
}

// $1 free slots, $2 lease ms, $3 endpoints not to claim for (share used up, or throttled as far as
// this process knows), $4 window, $5 the share of an endpoint with nothing in flight here,
// $6/$7 the remaining share of the others.
//
// The window: the oldest claimable deliveries among each claimable endpoint's oldest, no more of
// one endpoint than it could be given (its remaining share, at most the free slots). Read per
// endpoint (partial index on endpointId, nextAttemptAt of the PENDING deliveries), so the
// deliveries of disabled, throttled and excluded endpoints are never read: read in due order
// across all endpoints (index on status, nextAttemptAt), the claim went through every due
// delivery of the disabled ones to drop them at the join (100,000 of them: up to 550 ms a claim).
// Turns: row_number per endpoint, so the ORDER BY takes every endpoint's first before anyone's
// second. Window functions and FOR UPDATE do not mix in one SELECT, so the lock is taken on the
// picked ids one level up, re-checking that each is still due and unleased (SKIP LOCKED: another
// instance's claim or record has it); looked up by id as an array (a semi-join could read every
// due delivery to match them).
export const CLAIM_SQL = `
WITH candidate AS MATERIALIZED (
  SELECT d.id, d."endpointId", d."nextAttemptAt", d.room
    FROM "WebhookEndpoint" e
    LEFT JOIN unnest($6::text[], $7::int[]) AS share(id, room) ON share.id = e.id
   CROSS JOIN LATERAL (
     SELECT d.id, d."endpointId", d."nextAttemptAt", COALESCE(share.room, $5::int) AS room
       FROM "WebhookDelivery" d
      WHERE d."endpointId" = e.id AND d.status = 'PENDING' AND d."nextAttemptAt" <= now()
        AND (d."lockedUntil" IS NULL OR d."lockedUntil" < now())
      ORDER BY d."nextAttemptAt", d.id
      LIMIT LEAST(COALESCE(share.room, $5::int), $1::int)
   ) d
   WHERE e.enabled AND (e."throttledUntil" IS NULL OR e."throttledUntil" <= now())
     AND e.id <> ALL($3::text[])
   ORDER BY d."nextAttemptAt", d.id
   LIMIT $4
), seen AS (
  SELECT count(*)::int AS n FROM candidate
), turn AS (
  SELECT c.id, c."nextAttemptAt",
         row_number() OVER (PARTITION BY c."endpointId" ORDER BY c."nextAttemptAt", c.id) AS turn,
         c.room
    FROM candidate c
), picked AS (
  SELECT id FROM turn WHERE turn <= room ORDER BY turn, "nextAttemptAt", id LIMIT $1
), due AS MATERIALIZED (
  SELECT d.id
    FROM "WebhookDelivery" d
   WHERE d.id = ANY (ARRAY(SELECT id FROM picked))
     AND d.status = 'PENDING' AND d."nextAttemptAt" <= now()
     AND (d."lockedUntil" IS NULL OR d."lockedUntil" < now())
   FOR UPDATE OF d SKIP LOCKED
)
UPDATE "WebhookDelivery" d
   SET "lockedUntil" = now() + $2::float8 * interval '1 millisecond'
  FROM due, seen, "WebhookEndpoint" e
 WHERE d.id = due.id AND e.id = d."endpointId"
RETURNING d.id, d."endpointId", d."eventId", d.payload, d."attemptCount", d."lockedUntil", e.url, e.secret,
          CASE WHEN e."previousSecretExpiresAt" > now() THEN e."previousSecret" END AS "previousSecret",
          seen.n AS seen`;

// The endpoint's new failingSince, in the record statement's endpoint update (`e` the endpoint,
// `h` its attempts in the batch): the first failure after its last success, whichever batch saw
// it. Attempts recorded out of order (another instance, a late record) are placed by their time.
const LAST_SUCCESS = `GREATEST(e."lastSuccessAt", h.success_at)`;
const FIRST_FAILURE_AFTER_SUCCESS = `(SELECT min(f) FROM unnest(h.failed_at) AS f WHERE f > COALESCE(${LAST_SUCCESS}, '-infinity'::timestamptz))`;
const FAILING_SINCE = `CASE WHEN e."failingSince" IS NOT NULL AND (${LAST_SUCCESS} IS NULL OR e."failingSince" > ${LAST_SUCCESS})
       THEN LEAST(e."failingSince", ${FIRST_FAILURE_AFTER_SUCCESS})
       ELSE ${FIRST_FAILURE_AFTER_SUCCESS} END`;
const FAILING_TOO_LONG = `(${FAILING_SINCE}) < now() - $11::float8 * interval '1 millisecond'`;

// One statement for a batch of finished attempts. The attempt is recorded whatever became of the
// delivery meanwhile (it was made); the delivery's state only if it is still under our lease.
// Endpoints: one update per endpoint of the batch (a row may be updated only once per statement),
// locked first in id order (`locked`), so that two instances recording for the same endpoints, and
// the housekeeping's disable pass, lock them in the same order. The UPDATE alone locks them in the
// order its plan reads them (an ORDER BY in `h` does not survive the join): by id for a batch of one
// or two endpoints (a nested loop over the sorted `h`), but for more a hash join over a sequential
// scan of "WebhookEndpoint", i.e. where each row's current version sits in the heap, which every
// update moves; two instances' batches then deadlocked. FOR NO KEY UPDATE is the lock the UPDATE
// takes anyway: it does not conflict with the FOR KEY SHARE the relay's fan-out INSERT takes on
// the endpoints (its foreign key check), as FOR UPDATE would.
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

const RELEASE_SQL = `
UPDATE "WebhookDelivery" d SET "lockedUntil" = NULL
  FROM unnest($1::text[], $2::timestamptz[]) AS r(id, lease)
 WHERE d.id = r.id AND d."lockedUntil" = r.lease`;

/** Why an attempt was aborted (the abort reason; the request rejects with it). */
const TIMED_OUT = new Error('webhook attempt timed out');
const INTERRUPTED = new Error('webhook attempt interrupted: the service is stopping');

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

export interface Dispatcher extends Worker {
  /**
   * An ADMIN asked for attempts to this endpoint now (a test, a retry, a recovery): forget the
   * throttle this worker keeps for it (the service lifted the stored one) and look at once.
   */
  attemptNow(endpointId: string): void;
}

export function createDispatcher({ db, config, log, onAttempt }: DispatcherOptions): Dispatcher {
  const { retryScheduleMs, timeoutMs, allowPrivateTargets, disableAfterMs } = config.webhook;
  const disableAfter = formatDuration(disableAfterMs);
  const leaseMs = timeoutMs + LEASE_MARGIN_MS;
  const housekeeping = createWebhookHousekeeping({ db, config, log });
  const inFlight = new Map<string, InFlight>();
  const endpoints = new Map<string, EndpointState>();
  const pending: { result: AttemptResult; written: () => void }[] = [];
  let flushing: Promise<void> | undefined;
  let housekeepingRun: Promise<void> | undefined;
  let stopping = false;
  let loopDone: Promise<void> = Promise.resolve();
  /** Ends the claim loop's current pause (a slot freed, something came due, stop). */
  let endPause: (() => void) | undefined;
  /** A wake that came while the loop was not pausing (claiming): its next pause is skipped. */
  let wokenMeanwhile = false;
  let waitingForSlot = false;
  /** The soonest retry or end of a throttle this process knows of (ms since epoch). */
  let soonestDue = Infinity;
  /** The window of the last claim. */
  let lastWindow = MIN_WINDOW;

  function wakeLoop(): void {
    if (endPause) endPause();
    else wokenMeanwhile = true;
  }

  function pause(ms?: number): Promise<void> {
    if (wokenMeanwhile) {
      wokenMeanwhile = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        if (endPause === done) endPause = undefined;
        resolve();
      }
      endPause = done;
    });
  }

  function endpointState(id: string): EndpointState {
    let state = endpoints.get(id);
    if (!state) {
      state = { inFlight: 0, failures: 0, filled: false, throttledUntil: 0 };
      endpoints.set(id, state);
    }
    return state;
  }

  function shareOf(state: EndpointState | undefined): number {
    return state && state.failures >= STRIKES ? FAILING_SHARE : ENDPOINT_SHARE;
  }

  function dueAt(at: number): void {
    if (at < soonestDue) soonestDue = at;
  }

  /** What a failed attempt leads to: another attempt after the scheduled delay, or FAILED. */
  function afterFailure(delivery: Claimed, retryAfterMs?: number): Pick<AttemptResult, 'outcome' | 'delayMs'> {
    // attemptCount attempts were made before this one; the n-th failure waits schedule[n-1].
    const scheduled = retryScheduleMs[delivery.attemptCount];
    if (scheduled === undefined) return { outcome: 'FAILED', delayMs: null };
    return { outcome: 'RETRY', delayMs: Math.max(scheduled, retryAfterMs ?? 0) };
  }

  /**
   * One attempt, ended by `abort`: by its timer (TIMED_OUT) or by stop() (INTERRUPTED). One
   * controller and one timer per attempt: AbortSignal.timeout and AbortSignal.any cost several
   * times that per attempt (measured in the dispatch bench's profile).
   */
  async function attempt(delivery: Claimed, abort: AbortController): Promise<AttemptResult> {
    const at = new Date();
    const started = performance.now();
    const { signal } = abort;
    const timer = setTimeout(() => abort.abort(TIMED_OUT), timeoutMs);
    const elapsed = () => Math.max(0, Math.round(performance.now() - started));
    const failed = (error: string, statusCode: number | null = null, retryAfterMs?: number): AttemptResult => {
      const next = afterFailure(delivery, retryAfterMs);
      // A 429 slows the whole endpoint (for its Retry-After, or the delay this delivery waits);
      // so does a Retry-After on any other failure.
      const throttleMs = statusCode === 429 ? (retryAfterMs ?? next.delayMs) : (retryAfterMs ?? null);
      return { delivery, at, statusCode, durationMs: elapsed(), error, ...next, throttleMs: throttleMs || null };
    };
    try {
      try {
        // Allowed private targets, the guard only checks the URL's form: nothing to wait for.
        if (allowPrivateTargets) await assertDeliverableUrl(delivery.url, true);
        else await untilAborted(assertDeliverableUrl(delivery.url, false), signal);
      } catch (error) {
        if (signal.aborted) throw error;
        return failed(`refused: ${error instanceof Error ? error.message : String(error)}`);
      }
      const body = serialize(delivery.payload);
      const timestamp = Math.floor(at.getTime() / 1000);
      const secrets = delivery.previousSecret ? [delivery.secret, delivery.previousSecret] : [delivery.secret];
      const reply = await postOnce(delivery.url, {
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'webhook-id': delivery.eventId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader(secrets, delivery.eventId, timestamp, body),
        },
        body,
        signal,
        allowPrivateTargets,
        maxResponseBytes: MAX_RESPONSE_BYTES,
      });
      const { status } = reply;
      const text = excerpt(reply.body);
      if (status >= 200 && status < 300) return { delivery, at, statusCode: status, durationMs: elapsed(), error: null, outcome: 'SUCCEEDED', delayMs: null, throttleMs: null };
      if (status === 410) return { delivery, at, statusCode: status, durationMs: elapsed(), error: `receiver answered 410 Gone: the endpoint is disabled${text ? `: ${text}` : ''}`, outcome: 'GONE', delayMs: null, throttleMs: null };
      const what = status >= 300 && status < 400 ? `receiver answered ${status} (redirects are not followed)` : `receiver answered ${status}`;
      return failed(text ? `${what}: ${text}` : what, status, parseRetryAfter(reply.headers['retry-after']));
    } catch (error) {
      if (signal.reason === INTERRUPTED) {
        return { delivery, at, statusCode: null, durationMs: elapsed(), error: 'interrupted: the service stopped before an answer came', outcome: 'RELEASED', delayMs: null, throttleMs: null };
      }
      if (signal.reason === TIMED_OUT) return failed(`timed out after ${timeoutMs} ms`);
      return failed(networkError(error));
    } finally {
      clearTimeout(timer);
    }
  }

  async function record(batch: AttemptResult[]): Promise<{ id: string; disabledReason: string }[]> {
    const column = <T>(pick: (r: AttemptResult) => T) => batch.map(pick);
    return db.query<{ id: string; disabledReason: string }>(RECORD_SQL, [
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
      disableAfterMs,
      disableAfter,
    ]);
  }

  function logOutcome(r: AttemptResult): void {
    const fields = { deliveryId: r.delivery.id, endpointId: r.delivery.endpointId, eventId: r.delivery.eventId, statusCode: r.statusCode, durationMs: r.durationMs };
    if (r.outcome === 'GONE') log.warn(fields, 'webhook receiver answered 410 Gone: endpoint disabled');
    else if (r.outcome === 'FAILED') log.info({ ...fields, error: r.error }, 'webhook delivery failed: retry schedule spent');
    else if (r.outcome !== 'SUCCEEDED') log.debug({ ...fields, error: r.error, retryInMs: r.delayMs, throttleMs: r.throttleMs }, 'webhook attempt failed');
  }

  /** Writes finished attempts in batches until none are waiting. */
  async function flush(): Promise<void> {
    while (pending.length) {
      const batch = pending.splice(0, RECORD_BATCH);
      const results = batch.map((p) => p.result);
      const disabled: { id: string; disabledReason: string }[] = [];
      try {
        disabled.push(...(await record(results)));
      } catch (error) {
        // One bad row (e.g. its delivery deleted mid-statement) must not lose the others.
        log.warn({ err: error, count: results.length }, 'recording webhook attempts failed: retrying one by one');
        for (const r of results) {
          await record([r]).then(
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
        const r = p.result;
        logOutcome(r);
        // Due again: look for it then rather than at the next idle poll.
        if (r.outcome === 'RETRY' && r.delayMs !== null) dueAt(now + r.delayMs);
        onAttempt?.(r.outcome);
        p.written();
      }
      for (const e of disabled) {
        if (e.disabledReason !== GONE_REASON) log.warn({ endpointId: e.id, reason: e.disabledReason }, 'webhook endpoint disabled: failing for too long');
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

  /** What this process learns from an attempt before it is recorded: health and throttle. */
  function learn(result: AttemptResult): void {
    const state = endpointState(result.delivery.endpointId);
    if (result.outcome === 'SUCCEEDED') state.failures = 0;
    else if (result.outcome !== 'RELEASED') state.failures++;
    if (result.throttleMs) {
      const until = result.at.getTime() + result.throttleMs;
      if (until > state.throttledUntil) state.throttledUntil = until;
      dueAt(until);
    }
  }

  function launch(delivery: Claimed): void {
    const abort = new AbortController();
    const state = endpointState(delivery.endpointId);
    state.inFlight++;
    const done = attempt(delivery, abort)
      .then((result) => {
        learn(result);
        return recordSoon(result);
      })
      .catch((error: unknown) => log.error({ err: error, deliveryId: delivery.id }, 'webhook attempt crashed'))
      .finally(() => {
        inFlight.delete(delivery.id);
        state.inFlight--;
        // Claim in batches, not one slot at a time: wake the loop once half the slots are free,
        // of all of them or of an endpoint that had more due than its share.
        if (state.filled && state.inFlight <= shareOf(state) / 2) {
          state.filled = false;
          wakeLoop();
        } else if (waitingForSlot && inFlight.size <= MAX_IN_FLIGHT / 2) wakeLoop();
        if (state.inFlight === 0 && state.failures === 0 && state.throttledUntil <= Date.now()) endpoints.delete(delivery.endpointId);
      });
    inFlight.set(delivery.id, { delivery, abort, done });
  }

  /** Claims up to `free` due deliveries, fairly between endpoints, within their shares. */
  async function claim(free: number): Promise<Claimed[]> {
    const now = Date.now();
    const excluded: string[] = [];
    const ids: string[] = [];
    const rooms: number[] = [];
    for (const [id, state] of endpoints) {
      const room = shareOf(state) - state.inFlight;
      if (room <= 0 || state.throttledUntil > now) excluded.push(id);
      else if (room < ENDPOINT_SHARE) {
        ids.push(id);
        rooms.push(room);
      }
    }
    const window = Math.max(MIN_WINDOW, free * WINDOW_PER_SLOT);
    lastWindow = window;
    const claimed = await db.query<Claimed>(CLAIM_SQL, [free, leaseMs, excluded, window, ENDPOINT_SHARE, ids, rooms]);
    // An endpoint given its whole remaining share may have more due: claim for it again once half
    // its share is free (launch's finally).
    const taken = new Map<string, number>();
    for (const d of claimed) taken.set(d.endpointId, (taken.get(d.endpointId) ?? 0) + 1);
    for (const [id, n] of taken) {
      const state = endpoints.get(id);
      if (n >= shareOf(state) - (state?.inFlight ?? 0)) endpointState(id).filled = true;
    }
    return claimed;
  }

  /** How long to rest after a claim that did not fill every free slot. */
  function restMs(claimed: Claimed[]): number {
    const now = Date.now();
    // The window was full and some endpoint took its whole share: other endpoints' deliveries may
    // wait behind theirs. Look past them soon (they are now excluded), not after every claim.
    const windowFull = claimed.length > 0 && claimed[0]!.seen >= lastWindow && [...endpoints.values()].some((s) => s.filled);
    let ms = windowFull ? LOOK_PAST_MS : IDLE_POLL_MS;
    if (soonestDue <= now) soonestDue = Infinity;
    else ms = Math.min(ms, soonestDue - now);
    return ms;
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      if (!housekeepingRun) {
        housekeepingRun = housekeeping
          .runIfDue()
          .catch((error: unknown) => log.warn({ err: error }, 'webhook housekeeping failed'))
          .finally(() => (housekeepingRun = undefined));
      }
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
        await pause(IDLE_POLL_MS);
        continue;
      }
      for (const delivery of claimed) launch(delivery);
      // A full batch: there may be more due right now; otherwise rest until told or due.
      if (claimed.length < free && !stopping) {
        const ms = restMs(claimed);
        if (ms > 0) await pause(ms);
      }
    }
  }

  return {
    start(): void {
      stopping = false;
      loopDone = loop().catch((error: unknown) => log.error({ err: error }, 'webhook dispatcher stopped unexpectedly'));
    },

    wake(): void {
      wakeLoop();
    },

    attemptNow(endpointId: string): void {
      const state = endpoints.get(endpointId);
      if (state) state.throttledUntil = 0;
      wakeLoop();
    },

    async stop(): Promise<void> {
      stopping = true;
      wakeLoop();
      await loopDone;
      // In flight: each attempt ends within its timeout; give them that, then interrupt the rest.
      const all = () => Promise.all([...inFlight.values()].map((f) => f.done));
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), timeoutMs + 1_000)));
      const late = (await Promise.race([all(), graceOver])) === 'late';
      clearTimeout(timer);
      if (late) {
        const leftovers = [...inFlight.entries()];
        for (const [, f] of leftovers) f.abort.abort(INTERRUPTED);
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
      await housekeepingRun;
    },
  };
}
