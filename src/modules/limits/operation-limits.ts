// The operation limits: per client address, on top of the tier budget, each declared once here with
// the Mutation field and REST route it covers (max and window: config.operationLimits). REST and
// GraphQL count a call on the same key (`op:<field>:<address>`) in the same store: GraphQL through
// @envelop/rate-limiter (use-operation-limits.ts), REST through the router's guard below.
import type { Config, LimitedOperation } from '../../config.js';
import type { RequestContext } from '../../context.js';
import { AppError } from '../../errors.js';
import type { RouteDefinition, RouteGuard } from '../../http/route.js';
import { RATE_LIMITED_MESSAGE, type LimitService } from './service.js';
import type { Decision } from './store.js';
import { budgetAdmissionOf } from './use-budget.js';

interface OperationLimit {
  /** The Mutation field. */
  field: string;
  /** The REST route, as `METHOD /path`. */
  route: string;
}

export const OPERATION_LIMITS: Readonly<Record<LimitedOperation, OperationLimit>> = {
  login: { field: 'login', route: 'POST /api/auth/login' },
  register: { field: 'register', route: 'POST /api/auth/register' },
  recordPageView: { field: 'recordPageView', route: 'POST /api/analytics/views' },
};

export const LIMITED_OPERATIONS = Object.keys(OPERATION_LIMITS) as LimitedOperation[];

type Limits = Pick<Config, 'operationLimits'>;

/**
 * Counts one call of `operation` from `address`: the store's decision, or null when the store
 * failed (the call goes through; LimitService.hit logged it). A refused call is not counted.
 */
export function hitOperation(limits: LimitService, config: Limits, operation: LimitedOperation, address: string): Promise<Decision | null> {
  const { max, windowMs } = config.operationLimits[operation];
  return limits.hit(`op:${OPERATION_LIMITS[operation].field}:${address}`, max, windowMs);
}

/** The 429 of a refused operation: the contract's RATE_LIMITED with a numeric Retry-After. */
export function operationRefusal(retryAfterMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError('RATE_LIMITED', RATE_LIMITED_MESSAGE, { headers: { 'retry-after': String(seconds) } });
}

/** A 429 a service made: the login throttle's (too many failed attempts for an e-mail). */
export const isThrottled = (error: unknown): boolean => error instanceof AppError && error.code === 'RATE_LIMITED';

/**
 * Gives back the tier budget the request (or WebSocket operation) of `context` took: a refused
 * operation does not consume budget.
 */
export async function refundBudget(limits: LimitService, context: object): Promise<void> {
  const admission = budgetAdmissionOf(context);
  if (admission) await limits.refund(admission);
}

/**
 * The REST side: the router runs each route's handler through this guard. A limited route's call
 * is counted after its input is parsed (a 400 costs nothing); refused, it is a 429 and the budget
 * is given back, as it is when the service's own throttle refuses it.
 */
export function restOperationLimits({ config, limits }: { config: Limits; limits: LimitService }): RouteGuard {
  const byRoute = new Map(LIMITED_OPERATIONS.map((operation) => [OPERATION_LIMITS[operation].route, operation]));
  /** Each route's operation (null: none), looked up once per route rather than per call. */
  const operations = new WeakMap<RouteDefinition, LimitedOperation | null>();
  const operationOf = (route: RouteDefinition) => {
    let operation = operations.get(route);
    if (operation === undefined) operations.set(route, (operation = byRoute.get(`${route.method} ${route.path}`) ?? null));
    return operation;
  };
  return async (route, ctx: RequestContext, run) => {
    const operation = operationOf(route);
    if (!operation) return run();
    const decision = await hitOperation(limits, config, operation, ctx.ip);
    if (decision && !decision.allowed) {
      await refundBudget(limits, ctx);
      throw operationRefusal(decision.retryAfterMs);
    }
    try {
      return await run();
    } catch (error) {
      if (isThrottled(error)) await refundBudget(limits, ctx);
      throw error;
    }
  };
}
