// The operation limits (operation-limits.ts) on GraphQL, as @envelop/rate-limiter's plugin with
// `configByField` built from the table. The library's stores read the log and write it back in two
// steps, which over-admits under concurrency; the store handed to it records atomically while
// reading (LimitService.hit) and reports the calls before this one, so its write step does nothing.
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { Store, useRateLimiter, type Identity } from '@envelop/rate-limiter';
import { getOperationAST, Kind, type DocumentNode, type GraphQLError } from 'graphql';
import type { Config, LimitedOperation } from '../../config.js';
import type { RequestContext } from '../../context.js';
import { isGraphQLError, maskGraphQLError } from '../../graphql/errors.js';
import type { Logger } from '../../logger.js';
import { hitOperation, isThrottled, LIMITED_OPERATIONS, OPERATION_LIMITS, operationRefusal, refundBudget } from './operation-limits.js';
import { RATE_LIMITED_MESSAGE, type LimitService } from './service.js';
import type { Decision } from './store.js';

export function useOperationLimits({ config, limits, log }: { config: Pick<Config, 'operationLimits'>; limits: LimitService; log: Logger }): Plugin[] {
  const byField = new Map(LIMITED_OPERATIONS.map((operation): [string, LimitedOperation] => [OPERATION_LIMITS[operation].field, operation]));
  /** The refused hits' decisions, by `field:address`, until the refusal is reported. */
  const refusedDecisions = new Map<string, Decision>();
  /** Milliseconds to wait, by the operation's context, for the 429's Retry-After. */
  const retryAfter = new WeakMap<object, number>();

  const store = new (class AtomicStore extends Store {
    async getForIdentity({ contextIdentity, fieldIdentity }: Identity): Promise<readonly number[]> {
      const operation = byField.get(fieldIdentity)!;
      const decision = await hitOperation(limits, config, operation, contextIdentity);
      if (!decision) return []; // the store failed: let it through (limits.hit logged it)
      if (!decision.allowed) refusedDecisions.set(`${fieldIdentity}:${contextIdentity}`, decision);
      // The decision is the store's: the plugin adds this call to what it gets back and refuses
      // above max, so an admitted call gets no timestamps and a refused one max of them (one
      // timestamp per call in the window would make every call cost O(limit)).
      return decision.allowed ? [] : new Array<number>(config.operationLimits[operation].max).fill(Date.now());
    }
    setForIdentity(): void {
      // Already recorded (or, when refused, deliberately not) by getForIdentity.
    }
  })();

  // Only a mutation can select a limited field: the rest skip both hooks below.
  const isMutation = (args: { document: DocumentNode; operationName?: string | null }) => getOperationAST(args.document, args.operationName)?.operation === 'mutation';
  const isRefusal = (error: GraphQLError) => (error.extensions?.http as { statusCode?: number } | undefined)?.statusCode === 429;

  // Its type names the context it adds (`rateLimiterFn`), which Yoga's Plugin type cannot carry.
  const limiter = useRateLimiter({
    identifyFn: (context) => (context as RequestContext).ip,
    store,
    configByField: LIMITED_OPERATIONS.map((operation) => ({
      type: 'Mutation',
      field: OPERATION_LIMITS[operation].field,
      max: config.operationLimits[operation].max,
      window: `${config.operationLimits[operation].windowMs}ms`,
      message: RATE_LIMITED_MESSAGE,
    })),
    onRateLimitError: ({ context, field, identifier }) => {
      const key = `${field.name}:${identifier}`;
      const decision = refusedDecisions.get(key);
      refusedDecisions.delete(key);
      const waitMs = decision?.retryAfterMs ?? config.operationLimits[byField.get(field.name)!].windowMs;
      retryAfter.set(context as object, Math.max(waitMs, retryAfter.get(context as object) ?? 0));
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
            const waitMs = retryAfter.get(args.contextValue as object);
            if (waitMs !== undefined) {
              const refusal = operationRefusal(waitMs);
              const errors = result.errors.map((error) => {
                if (!isGraphQLError(error) || !isRefusal(error)) return error;
                const field = error.nodes?.[0];
                const path = field?.kind === Kind.FIELD ? [(field.alias ?? field.name).value] : undefined;
                return maskGraphQLError(createGraphQLError(RATE_LIMITED_MESSAGE, { nodes: error.nodes, path, originalError: refusal }), log);
              });
              setResult({ ...result, data: result.data ?? null, errors });
            } else if (!result.errors.some((error) => isThrottled(error.originalError))) {
              return;
            }
            // A refused operation does not consume budget: given back before the 429 is made, so
            // that its headers show the budget refunded.
            return refundBudget(limits, args.contextValue as object);
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
