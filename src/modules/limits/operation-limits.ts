// The operation limits (login, register, recordPageView per client address, on top of the tier
// budget) as @envelop/rate-limiter's plugin: each limit is declared once, as `configByField` of
// the Mutation field, and holds for REST too, whose routes for these operations execute the same
// field through the envelop pipeline (RequestContext.execute).
//
// The library's own stores read the log and write it back in two steps, which over-admits under
// concurrency (and RedisStore across instances). So the store handed to it records atomically
// while reading (RateLimitStore.hit: one Redis script across instances) and reports the calls
// before this one; its write step has nothing left to do.
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { Store, useRateLimiter, type Identity } from '@envelop/rate-limiter';
import { getOperationAST, Kind, type DocumentNode, type GraphQLError } from 'graphql';
import type { Config, LimitedOperation } from '../../config.js';
import type { RequestContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { isGraphQLError, maskGraphQLError } from '../../graphql/errors.js';
import type { Logger } from '../../logger.js';
import type { Decision } from './store.js';
import { RATE_LIMITED_MESSAGE, type LimitService } from './service.js';
import { budgetAdmissionOf } from './use-budget.js';

/** The Mutation field of each limited operation. */
const FIELD: Record<LimitedOperation, string> = { login: 'login', register: 'register', recordPageView: 'recordPageView' };

export function useOperationLimits({ config, limits, log }: { config: Pick<Config, 'operationLimits'>; limits: LimitService; log: Logger }): Plugin[] {
  const operations = Object.keys(FIELD) as LimitedOperation[];
  const byField = new Map(operations.map((op) => [FIELD[op], config.operationLimits[op]]));
  /** The refused hits' decisions, by `field:address`, until the refusal is reported. */
  const refusedDecisions = new Map<string, Decision>();
  /** Seconds to wait, by the operation's context, for the 429's Retry-After. */
  const retryAfter = new WeakMap<object, number>();

  const store = new (class AtomicStore extends Store {
    async getForIdentity({ contextIdentity, fieldIdentity }: Identity): Promise<readonly number[]> {
      const limit = byField.get(fieldIdentity)!;
      const decision = await limits.hit(`op:${fieldIdentity}:${contextIdentity}`, limit.max, limit.windowMs);
      if (!decision) return []; // the store failed: let it through (limits.hit logged it)
      if (!decision.allowed) refusedDecisions.set(`${fieldIdentity}:${contextIdentity}`, decision);
      // The decision is the store's: the plugin adds this call to what it gets back and refuses
      // above max, so an admitted call gets no timestamps and a refused one max of them. (Handing
      // back one timestamp per call in the window made every call cost O(limit): with a limit of
      // 10^8 a minute, a view cost 56 % more CPU after 12,000 views.)
      return decision.allowed ? [] : new Array<number>(limit.max).fill(Date.now());
    }
    setForIdentity(): void {
      // Already recorded (or, when refused, deliberately not) by getForIdentity.
    }
  })();

  // Only a mutation can select a limited field: the rest skip both hooks below.
  const isMutation = (args: { document: DocumentNode; operationName?: string | null }) => getOperationAST(args.document, args.operationName)?.operation === 'mutation';
  const isRefusal = (error: GraphQLError) => (error.extensions?.http as { statusCode?: number } | undefined)?.statusCode === 429;
  /** A 429 a resolver made: the login throttle's (src/modules/auth/service.ts). */
  const isThrottled = (error: GraphQLError) => error.originalError instanceof AppError && error.originalError.code === 'RATE_LIMITED';

  // Its type names the context it adds (`rateLimiterFn`), which Yoga's Plugin type cannot carry.
  const limiter = useRateLimiter({
    identifyFn: (context) => (context as RequestContext).ip,
    store,
    configByField: operations.map((op) => ({
      type: 'Mutation',
      field: FIELD[op],
      max: config.operationLimits[op].max,
      window: `${config.operationLimits[op].windowMs}ms`,
      message: RATE_LIMITED_MESSAGE,
    })),
    onRateLimitError: ({ context, field, identifier }) => {
      const key = `${field.name}:${identifier}`;
      const decision = refusedDecisions.get(key);
      refusedDecisions.delete(key);
      const seconds = Math.max(1, Math.ceil((decision?.retryAfterMs ?? byField.get(field.name)!.windowMs) / 1000));
      retryAfter.set(context as object, Math.max(seconds, retryAfter.get(context as object) ?? 0));
    },
  }) as unknown as Plugin;

  return [
    {
      // The plugin's refusals become the contract's: RATE_LIMITED, HTTP 429 with a numeric
      // Retry-After (it sets `http.statusCode`, which Yoga does not read, and a window as `10s`),
      // at the field's path (it computes none for a root field) with `data: null`. Before the
      // limiter in the list: a refusal stops execution, and only the hooks of the plugins before
      // it (not Yoga's masking, which comes last) see the result.
      onExecute({ args }) {
        if (!isMutation(args)) return;
        return {
          onExecuteDone({ result, setResult }) {
            if (!('errors' in result) || !result.errors) return;
            const seconds = retryAfter.get(args.contextValue as object);
            if (seconds !== undefined) {
              const refusal = new AppError('RATE_LIMITED', RATE_LIMITED_MESSAGE, { headers: { 'retry-after': String(seconds) } });
              const errors = result.errors.map((error) => {
                if (!isGraphQLError(error) || !isRefusal(error)) return error;
                const field = error.nodes?.[0];
                const path = field?.kind === Kind.FIELD ? [(field.alias ?? field.name).value] : undefined;
                return maskGraphQLError(createGraphQLError(RATE_LIMITED_MESSAGE, { nodes: error.nodes, path, originalError: refusal }), log);
              });
              setResult({ ...result, data: result.data ?? null, errors });
            } else if (!result.errors.some(isThrottled)) {
              return;
            }
            // A refused request does not consume budget: the tier budget counted this one before
            // anything was parsed (use-budget.ts), and gets it back now, before the 429 is made
            // (so that its headers show the budget refunded). The same for the login throttle's
            // refusal (too many failed attempts for an e-mail), which the auth service makes.
            const admission = budgetAdmissionOf(args.contextValue as object);
            return admission && limits.refund(admission);
          },
        };
      },
    },
    {
      ...limiter,
      // The limiter walks the whole document with TypeInfo on every execution.
      onExecute: (payload) => (isMutation(payload.args) ? limiter.onExecute?.(payload) : undefined),
    },
  ];
}
