// Rate limits for every transport (REST, GraphQL over HTTP, SSE, WebSocket), counted by two Yoga
// plugins over this service on one RateLimitStore: the tier budget (use-budget.ts), one rolling
// window per caller (user, API key's owner, or address at the Free limit); and the operation
// limits (operation-limits.ts), per address on login, register and recordPageView.
import type { Config } from '../../config.js';
import type { Caller } from '../auth/caller.js';
import { rarely, type Logger } from '../../logger.js';
import type { Decision, RateLimitStore } from './store.js';

export const RATE_LIMITED_MESSAGE = 'Rate limit exceeded';
/** Logged (rarely) when the store fails and requests go through uncounted. */
export const STORE_FAILED_MESSAGE = 'rate-limit store failed: letting requests through unlimited';

/** The outcome of counting one request against its caller's budget. */
export interface Admission {
  allowed: boolean;
  /** The contract's limit headers (lower-case names), Retry-After included when refused. */
  headers: Record<string, string>;
  /** What `refund` gives back (its budget's key and policy, the hit's decision with its receipt). */
  key: string;
  policy: string;
  decision: Decision;
}

export function createLimitService({ config, limits, log }: { config: Pick<Config, 'rateLimit'>; limits: RateLimitStore; log: Logger }) {
  const windowMs = config.rateLimit.windowSeconds * 1000;
  // A failing store fails every request: reported once every REPEATED_FAILURE_LOG_INTERVAL_MS.
  const reportStoreFailure = rarely(log);
  const reportRefundFailure = rarely(log);

  /**
   * A failing store (Redis unreachable) lets requests through, without limit headers, rather
   * than take the whole API down with it: null, and the failure is logged.
   */
  async function hit(key: string, limit: number, window: number): Promise<Decision | null> {
    try {
      return await limits.hit(key, limit, window);
    } catch (error) {
      return storeFailed(error);
    }
  }

  function storeFailed(error: unknown): null {
    reportStoreFailure('error', { err: error }, STORE_FAILED_MESSAGE);
    return null;
  }

  /** The headers of draft-ietf-httpapi-ratelimit-headers-11, and the X-RateLimit-* ones. */
  function headersFor(decision: Decision, policy: string, windowSeconds: number): Record<string, string> {
    const resetSeconds = Math.max(1, Math.ceil(decision.resetMs / 1000));
    const headers: Record<string, string> = {
      'ratelimit-policy': `"${policy}";q=${decision.limit};w=${windowSeconds}`,
      ratelimit: `"${policy}";r=${decision.remaining};t=${resetSeconds}`,
      'x-ratelimit-limit': String(decision.limit),
      'x-ratelimit-remaining': String(decision.remaining),
      'x-ratelimit-reset': String(Math.ceil((Date.now() + decision.resetMs) / 1000)),
    };
    if (!decision.allowed) headers['retry-after'] = String(resetSeconds);
    return headers;
  }

  const pro = { name: 'pro', limit: config.rateLimit.pro };
  const free = { name: 'free', limit: config.rateLimit.free };
  /** The caller's policy: anonymous callers are on `free`; Enterprise has none. */
  function policyFor(caller: Caller | null): { name: string; limit: number } | null {
    switch (caller?.tier) {
      case 'ENTERPRISE':
        return null;
      case 'PRO':
        return pro;
      default:
        return free;
    }
  }

  /**
   * Counts one request (a REST call, a GraphQL request or operation) against the caller's budget.
   * null when nothing limits it: an Enterprise caller (no headers at all), or a failing store.
   * A refused request is not counted.
   */
  async function admit(caller: Caller | null, address: string): Promise<Admission | null> {
    const policy = policyFor(caller);
    if (!policy) return null;
    const key = caller ? `user:${caller.userId}` : `addr:${address}`;
    return admission(await hit(key, policy.limit, windowMs), key, policy.name);
  }

  function admission(decision: Decision | null, key: string, policy: string): Admission | null {
    return decision && { allowed: decision.allowed, headers: headersFor(decision, policy, config.rateLimit.windowSeconds), key, policy, decision };
  }

  /**
   * Gives back the budget an admitted request took when it is refused after all (by an operation
   * limit, once executing): a refused request does not consume budget. At most once per
   * admission; its headers then show the budget as refunded (one more remaining than when it was
   * counted). A refund the store fails is logged (rarely) and the request goes on, still counted.
   */
  async function refund(admitted: Admission): Promise<void> {
    const { decision, key } = admitted;
    const { receipt } = decision;
    if (receipt === undefined) return; // refused (nothing was counted), or refunded already
    const refunded: Decision = { ...decision, remaining: Math.min(decision.limit, decision.remaining + 1), receipt: undefined };
    admitted.decision = refunded;
    try {
      await limits.refund(key, receipt);
    } catch (error) {
      return refundFailed(error);
    }
    admitted.headers = headersFor(refunded, admitted.policy, config.rateLimit.windowSeconds);
  }

  function refundFailed(error: unknown): void {
    reportRefundFailure('warn', { err: error }, 'rate-limit store failed to refund a refused request: it stays counted');
  }

  return { admit, hit, refund };
}

export type LimitService = ReturnType<typeof createLimitService>;
