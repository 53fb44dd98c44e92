// Per-endpoint isolation: each endpoint has its own share of this process's attempts in flight,
// so one that is slow, failing or silent holds at most its share while other endpoints' deliveries
// go out beside it. A receiver's 429 or Retry-After throttles its endpoint alone.
import type { AttemptResult } from './attempt.js';

/**
 * Attempts in flight per endpoint per process. Claims overlap attempts (an endpoint is claimed for
 * again once half its share is free), so 64 keeps one fast loopback receiver busy.
 */
export const ENDPOINT_SHARE = 64;
/** The share of an endpoint whose last STRIKES attempts all failed: it probes, it does not flood. */
const FAILING_SHARE = 4;
const STRIKES = 3;

/** What this process knows of one endpoint it has sent to. */
export interface EndpointState {
  inFlight: number;
  /** Consecutive failed attempts (reset by a success). */
  failures: number;
  /** Set when a claim gave it its whole remaining share: more may be due once slots free up. */
  filled: boolean;
  /** Until when (ms since epoch) its receiver asked to be left alone, as far as this process knows. */
  throttledUntil: number;
}

/** The endpoints this process has attempts in flight for, or remembers failing or throttled. */
export class EndpointShares {
  private readonly states = new Map<string, EndpointState>();

  /** The state of endpoint `id`, created on first use. */
  private stateOf(id: string): EndpointState {
    let state = this.states.get(id);
    if (!state) {
      state = { inFlight: 0, failures: 0, filled: false, throttledUntil: 0 };
      this.states.set(id, state);
    }
    return state;
  }

  private shareOf(state: EndpointState | undefined): number {
    return state && state.failures >= STRIKES ? FAILING_SHARE : ENDPOINT_SHARE;
  }

  /**
   * The claim's limits: the endpoints not to claim for (share used up, or throttled), and the
   * remaining room of those with part of their share in use (the others get ENDPOINT_SHARE).
   */
  claimLimits(now: number): { excluded: string[]; ids: string[]; rooms: number[] } {
    const excluded: string[] = [];
    const ids: string[] = [];
    const rooms: number[] = [];
    for (const [id, state] of this.states) {
      const room = this.shareOf(state) - state.inFlight;
      if (room <= 0 || state.throttledUntil > now) excluded.push(id);
      else if (room < ENDPOINT_SHARE) {
        ids.push(id);
        rooms.push(room);
      }
    }
    return { excluded, ids, rooms };
  }

  /**
   * After a claim: an endpoint given its whole remaining share may have more due; it is claimed
   * for again once half its share is free (finished()).
   */
  noteClaimed(claimed: readonly { endpointId: string }[]): void {
    const taken = new Map<string, number>();
    for (const d of claimed) taken.set(d.endpointId, (taken.get(d.endpointId) ?? 0) + 1);
    for (const [id, n] of taken) {
      const state = this.states.get(id);
      if (n >= this.shareOf(state) - (state?.inFlight ?? 0)) this.stateOf(id).filled = true;
    }
  }

  /** Whether some endpoint took its whole share in a claim and has not freed half of it since. */
  anyFilled(): boolean {
    return [...this.states.values()].some((s) => s.filled);
  }

  /** An attempt for endpoint `id` starts; pass the returned state to finished(). */
  started(id: string): EndpointState {
    const state = this.stateOf(id);
    state.inFlight++;
    return state;
  }

  /**
   * An attempt for endpoint `id` ended. True when the endpoint had more due than its share and half
   * of it is free now: time to claim for it again (in batches, not one slot at a time). An endpoint
   * with nothing left to remember is forgotten.
   */
  finished(id: string, state: EndpointState): boolean {
    state.inFlight--;
    let claimAgain = false;
    if (state.filled && state.inFlight <= this.shareOf(state) / 2) {
      state.filled = false;
      claimAgain = true;
    }
    if (state.inFlight === 0 && state.failures === 0 && state.throttledUntil <= Date.now()) this.states.delete(id);
    return claimAgain;
  }

  /**
   * What this process learns from an attempt before it is recorded: health and throttle. Returns
   * when a throttle the receiver asked for ends (ms since epoch), if it asked for one.
   */
  learn(result: AttemptResult): number | undefined {
    const state = this.stateOf(result.delivery.endpointId);
    if (result.outcome === 'SUCCEEDED') state.failures = 0;
    else if (result.outcome !== 'RELEASED') state.failures++;
    if (!result.throttleMs) return undefined;
    const until = result.at.getTime() + result.throttleMs;
    if (until > state.throttledUntil) state.throttledUntil = until;
    return until;
  }

  /** Forgets the throttle this process keeps for endpoint `id` (an ADMIN asked for attempts now). */
  liftThrottle(id: string): void {
    const state = this.states.get(id);
    if (state) state.throttledUntil = 0;
  }
}
