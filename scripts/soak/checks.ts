// The soak's verdicts, as pure functions over what it recorded, so each one can fail on its own
// (test/soak-checks.test.ts feeds them lost events, stray 503s, unearned 429s and growing memory).

/** A fault injected mid-run, and when it was in effect (ms since the epoch). */
export interface FaultWindow {
  fault: 'kill' | 'postgres' | 'redis' | 'partition';
  /** For `kill`: the instance killed; for `partition`: the instance cut off from Redis. */
  instance?: number;
  from: number;
  /** When the fault was over: the instance listening again, PostgreSQL or Redis answering again. */
  to: number;
}

/**
 * How long after PostgreSQL answers again a 503 is still the contract's "database unreachable":
 * a pooled connection the restart cut is only found dead when it is next used.
 */
export const POSTGRES_GRACE_MS = 5_000;
/** Requests on the killed process that failed this long after the kill still count as cut by it. */
export const KILL_GRACE_MS = 2_000;

export type Budget = 'unlimited' | 'paced' | 'greedy';

/** One request's end, as the client saw it. */
export interface RequestResult {
  kind: string;
  budget: Budget;
  instance: number;
  start: number;
  end: number;
  /** HTTP status; 0 when no response came (the connection failed, or the request timed out). */
  status: number;
  /** The transport error's code (ECONNRESET, UND_ERR_SOCKET, TimeoutError…), when status is 0. */
  transportError?: string;
  /** `extensions.code` of each GraphQL error in the body. */
  graphqlCodes?: string[];
  /** REST error body's `code`. */
  bodyCode?: number;
  hasRetryAfter?: boolean;
  /** For a 429: whether the client had spent its budget (see BudgetTracker). */
  budgetSpent?: boolean;
  /** Whether the body answered as the request expects (e.g. a 201 with an id). */
  wellFormed?: boolean;
  /**
   * A resend of an Idempotency-Key whose earlier send had no success yet (it may still run, or
   * have been cut by a fault): the one request a 409 "still in progress" may answer.
   */
  idempotentResend?: boolean;
}

export type Verdict = 'ok' | 'allowed 429' | 'allowed 503' | 'allowed 409' | 'cut by kill -9' | 'failed';

const overlaps = (r: RequestResult, from: number, to: number) => r.start <= to && r.end >= from;

/**
 * What the contract makes of one request:
 * - 429 only for a client that had spent its budget (the contract's rolling window), with
 *   Retry-After and the error body (REST) or RATE_LIMITED (GraphQL);
 * - 503 ("database unreachable") only while PostgreSQL was down or within POSTGRES_GRACE_MS of
 *   it answering again, with the error body (REST) or every GraphQL error UNAVAILABLE;
 * - 409 (an Idempotency-Key still in progress) only for a resend of a key whose earlier send has
 *   not succeeded yet, with the error body;
 * - no response only for a request in flight on the process killed with SIGKILL (the contract
 *   promises committed data, checked against the events; a dead process answers nothing);
 * - everything else must be the expected success.
 */
export function judge(r: RequestResult, faults: readonly FaultWindow[]): { verdict: Verdict; reason?: string } {
  const codes = r.graphqlCodes ?? [];
  if (r.status === 0) {
    const kill = faults.find((f) => f.fault === 'kill' && f.instance === r.instance && r.start <= f.to && r.end >= f.from && r.end <= f.from + KILL_GRACE_MS);
    if (kill) return { verdict: 'cut by kill -9' };
    return { verdict: 'failed', reason: `no response (${r.transportError ?? 'unknown'})` };
  }
  const limited = r.status === 429 || (codes.length > 0 && codes.every((c) => c === 'RATE_LIMITED'));
  if (limited) {
    if (r.status !== 429) return { verdict: 'failed', reason: `RATE_LIMITED with HTTP ${r.status} (the contract says 429)` };
    if (!r.hasRetryAfter) return { verdict: 'failed', reason: '429 without Retry-After' };
    if (!r.budgetSpent) return { verdict: 'failed', reason: `429 to a ${r.budget} client that had not spent its budget` };
    return { verdict: 'allowed 429' };
  }
  const unavailable = r.status === 503 || (codes.length > 0 && codes.every((c) => c === 'UNAVAILABLE'));
  if (unavailable) {
    const down = faults.find((f) => f.fault === 'postgres' && overlaps(r, f.from, f.to + POSTGRES_GRACE_MS));
    if (!down) return { verdict: 'failed', reason: `${r.status === 503 ? '503' : 'UNAVAILABLE'} while PostgreSQL was up` };
    // The contract's shape: REST's error body with code 503; GraphQL's errors all UNAVAILABLE.
    if (r.graphqlCodes ? !codes.every((c) => c === 'UNAVAILABLE') : r.bodyCode !== 503) return { verdict: 'failed', reason: '503 without the error body' };
    return { verdict: 'allowed 503' };
  }
  if (r.status === 409 && r.idempotentResend) {
    if (r.bodyCode !== 409) return { verdict: 'failed', reason: '409 without the error body' };
    return { verdict: 'allowed 409' };
  }
  if (r.status >= 200 && r.status < 400 && !codes.length && r.wellFormed !== false) return { verdict: 'ok' };
  const what = codes.length ? `GraphQL ${codes.join(',')}` : r.wellFormed === false ? 'an unexpected body' : `HTTP ${r.status}`;
  return { verdict: 'failed', reason: `${what}${r.status >= 200 && r.status < 400 && codes.length ? ` (HTTP ${r.status})` : ''}` };
}

/**
 * A client's own view of its rate-limit budget: the requests it sent that were not refused, by
 * when they ended. A 429 is earned when at least `limit` of them ended within the window before
 * the refused request started (plus a second of slack for the clocks of client and server).
 */
export class BudgetTracker {
  private admitted: number[] = [];
  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  record(r: Pick<RequestResult, 'status' | 'end'>): void {
    if (r.status !== 429) this.admitted.push(r.end);
  }

  /** Whether a refusal of a request started at `start` is justified. */
  spent(start: number): boolean {
    const since = start - this.windowMs - 1_000;
    while (this.admitted.length && this.admitted[0]! < since) this.admitted.shift();
    return this.admitted.length >= this.limit;
  }
}

/** A committed event, from the database's own list. */
export interface StoredEvent {
  id: string;
  position: number;
}

export interface StreamCheck {
  received: number;
  missing: number;
  /** Receipts of an id beyond its first. */
  duplicates: number;
  /** Receipts of ids that are not in the expected list (not committed, or before the start). */
  unexpected: number;
  /** An event that came after a later one on the same connection. */
  outOfOrder: number;
  missingSample: string[];
}

/**
 * A subscriber's receipts, connection by connection (each a list of ids in arrival order), against
 * the events it must have seen.
 */
export function checkStream(expected: readonly StoredEvent[], connections: readonly (readonly string[])[]): StreamCheck {
  const position = new Map(expected.map((e) => [e.id, e.position]));
  const count = new Map<string, number>();
  let unexpected = 0;
  let outOfOrder = 0;
  let received = 0;
  for (const ids of connections) {
    let last = -Infinity;
    for (const id of ids) {
      received++;
      count.set(id, (count.get(id) ?? 0) + 1);
      const p = position.get(id);
      if (p === undefined) {
        unexpected++;
        continue;
      }
      if (p < last) outOfOrder++;
      last = Math.max(last, p);
    }
  }
  let duplicates = 0;
  for (const n of count.values()) duplicates += n - 1;
  const missing = expected.filter((e) => !count.has(e.id)).map((e) => e.id);
  return { received, missing: missing.length, duplicates, unexpected, outOfOrder, missingSample: missing.slice(0, 5) };
}

/** What a write's acknowledgement promised (a 202 page view, a 200 publish) that is not in the database. */
export function unrecorded(acknowledged: Iterable<string>, stored: ReadonlySet<string>): string[] {
  return [...acknowledged].filter((key) => !stored.has(key));
}

export interface RssSample {
  at: number;
  kb: number;
}

export interface Flatness {
  samples: number;
  medianKb: number;
  /** Growth over the window by a least-squares line through the samples, KB. */
  growthKb: number;
  toleranceKb: number;
  flat: boolean;
}

/** Tolerance of the flatness check: the fitted growth may be this fraction of the median… */
export const RSS_TOLERANCE_FRACTION = 0.1;
/**
 * …or this much, whichever is larger: garbage collection alone moves RSS by up to ±50 MB within a
 * minute at this load (a 600 s run's flat instance, 255-310 MB for seven minutes, fitted +36 MB in
 * its last minute).
 */
export const RSS_TOLERANCE_MIN_KB = 48 * 1024;
/**
 * A process younger than this when the window opens is still growing its heap to the load (in
 * the 600 s run both instances climbed from ~150 MB to a ~330 MB plateau over the first 2-3
 * minutes, and the last third of 60 s runs saw up to +126 MB in 20 s): its RSS is printed, not
 * judged, since no tolerance tells that growth from a leak. A short run (CI's 60 s) judges no
 * instance; test/chaos-regressions.test.ts holds the subscription leak the soak found in CI.
 */
export const WARM_AFTER_MS = 180_000;

/**
 * Whether RSS was flat over [from, to]: the least-squares line through the samples rises by at
 * most max(RSS_TOLERANCE_FRACTION of the median, RSS_TOLERANCE_MIN_KB) across the window. Too few samples
 * (under 5) is not flat: nothing was shown.
 */
export function rssFlatness(samples: readonly RssSample[], from: number, to: number): Flatness {
  const window = samples.filter((s) => s.at >= from && s.at <= to);
  const sorted = window.map((s) => s.kb).sort((a, b) => a - b);
  const medianKb = sorted.length ? sorted[Math.floor(sorted.length / 2)]! : NaN;
  const toleranceKb = Math.max(RSS_TOLERANCE_FRACTION * medianKb, RSS_TOLERANCE_MIN_KB);
  if (window.length < 5) return { samples: window.length, medianKb, growthKb: NaN, toleranceKb, flat: false };
  const n = window.length;
  const mx = window.reduce((a, s) => a + s.at, 0) / n;
  const my = window.reduce((a, s) => a + s.kb, 0) / n;
  let num = 0;
  let den = 0;
  for (const s of window) {
    num += (s.at - mx) * (s.kb - my);
    den += (s.at - mx) ** 2;
  }
  const slope = den ? num / den : 0;
  const growthKb = slope * (to - from);
  return { samples: n, medianKb, growthKb, toleranceKb, flat: growthKb <= toleranceKb };
}

/** The nearest-rank percentile of a sorted array. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
