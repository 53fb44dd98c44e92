// Attempting one delivery: the URL guard again, then one signed POST (http-post.ts), time-boxed.
// Every outcome, refusals and network errors included, is data: a 2xx succeeds, a 410 disables the
// endpoint, any other failure is retried on the schedule (no sooner than a Retry-After) until it is spent.
import type { Config } from '../../../config.js';
import { signatureHeader } from '../delivery-signature.js';
import { postOnce, PrivateTargetError } from '../http-post.js';
import { parseRetryAfter } from '../retry-after.js';
import { assertDeliverableUrl } from '../url-guard.js';

/** How much of a response body is read (the rest is discarded, the connection closed). */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** How much of a response body is kept in the attempt's error. */
const EXCERPT_CHARS = 200;
const USER_AGENT = 'Learnstream-Webhooks/1';

/** A delivery this process holds a lease on (as the claim returns it): what an attempt is made of. */
export interface Claimed {
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

export interface AttemptResult {
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

/** Why an attempt was aborted (the abort reason; the request rejects with it). */
const TIMED_OUT = new Error('webhook attempt timed out');
/** The abort reason for stop() interrupting an attempt after its grace period: RELEASED. */
export const INTERRUPTED = new Error('webhook attempt interrupted: the service is stopping');

/** Makes one attempt of `delivery`, ended by its timeout or by `abort` (with INTERRUPTED). */
export type Attempt = (delivery: Claimed, abort: AbortController) => Promise<AttemptResult>;

export function createAttempt({ retryScheduleMs, timeoutMs, allowPrivateTargets }: Config['webhook']): Attempt {
  /** What a failed attempt leads to: another attempt after the scheduled delay, or FAILED. */
  function afterFailure(delivery: Claimed, retryAfterMs?: number): Pick<AttemptResult, 'outcome' | 'delayMs'> {
    // attemptCount attempts were made before this one; the n-th failure waits schedule[n-1].
    const scheduled = retryScheduleMs[delivery.attemptCount];
    if (scheduled === undefined) return { outcome: 'FAILED', delayMs: null };
    return { outcome: 'RETRY', delayMs: Math.max(scheduled, retryAfterMs ?? 0) };
  }

  // One controller and one timer per attempt, rather than AbortSignal.timeout with AbortSignal.any
  // (see docs/decisions.md).
  return async function attempt(delivery, abort) {
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
  };
}

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
