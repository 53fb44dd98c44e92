// Builds the service: one graphql-yoga server that every HTTP request passes through (REST,
// GraphQL over GET/POST and SSE, health, OpenAPI) and whose envelop pipeline every WebSocket
// operation executes in. The plugin list below, in order, is the whole request path.
// No listen here: server.ts and the tests do that.
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { useAPQ } from '@graphql-yoga/plugin-apq';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { createYoga, type Plugin } from 'graphql-yoga';
import type { Config } from './config.js';
import type { RequestContext } from './context.js';
import type { Caller } from './modules/auth/caller.js';
import type { Database } from './db/client.js';
import { unauthenticated } from './errors.js';
import { maskGraphQLError } from './graphql/errors.js';
import { useGraphQLSSEWithBackpressure } from './graphql/sse-backpressure.js';
import { cachedReads, neverCachedDocuments, useCachedQueries, useResponseCacheHits, type ResponseCache } from './modules/response-cache/index.js';
import { schema } from './graphql/schema.js';
import { useBadRequestStatus } from './graphql/use-bad-request-status.js';
import { useGraphQLMethods } from './graphql/use-graphql-methods.js';
import { useInputEncoding } from './http/plugins/use-input-encoding.js';
import { useCors } from './http/plugins/use-cors.js';
import { useHealthChecks } from './http/plugins/use-health.js';
import { useMetrics } from './http/plugins/use-metrics.js';
import { CONSOLE_PATH, LANDING_PATH, REFERENCE_PATH, usePages } from './http/plugins/use-pages.js';
import { clientAddress, useRequestContext, type RequestCredentials } from './http/plugins/use-request-context.js';
import { useRestRoutes } from './http/plugins/use-rest.js';
import { findRequestContext, type NodeServerContext } from './http/plugins/server-context.js';
import { apiRoutes } from './http/routes.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import type { EventBus } from './modules/events/bus.js';
import type { OnCommitted } from './modules/events/outbox.js';
import { useSharedSubscriptions } from './modules/events/shared-execution.js';
import { AddressConnections, useStreamConnectionLimit } from './http/connection-limits.js';
import { useSubscriptionSSE } from './graphql/sse-result.js';
import { parserCaches, persistedQueryStore } from './graphql/document-caches.js';
import { useQueryCost } from './graphql/use-query-cost.js';
import { useQueryLimits } from './graphql/use-query-limits.js';
import { useDirectiveArguments } from './graphql/use-directive-arguments.js';
import { useNoNul } from './graphql/use-no-nul.js';
import { useIdempotency } from './graphql/use-idempotency.js';
import type { RateLimitStore } from './modules/limits/index.js';
import { restOperationLimits } from './modules/limits/operation-limits.js';
import { useOperationLimits } from './modules/limits/use-operation-limits.js';
import { useRateLimitBudget } from './modules/limits/use-budget.js';
import { createServices, type Services } from './services.js';

const GRAPHQL_PATH = '/graphql';
/** graphql-sse's single-connection mode (reservation PUT, then the stream). */
const GRAPHQL_STREAM_PATH = '/graphql/stream';
const GRAPHQL_PATHS = [GRAPHQL_PATH, GRAPHQL_STREAM_PATH] as const;

export interface AppDeps {
  config: Config;
  db: Database;
  bus: EventBus;
  limits: RateLimitStore;
  log: Logger;
  /** The GraphQL response cache (in-process, or shared through Redis). */
  responseCache: ResponseCache;
  /** More plugins, after the service's own. */
  plugins?: Plugin[];
  /** This instance's metrics (its own registry), served on GET /metrics. */
  metrics: Metrics;
  /** Called once a change's events have committed (the server wakes its event relay). */
  onEventsCommitted?: () => void;
  /** Called when an ADMIN made an endpoint's webhook deliveries due now (the server wakes its webhook worker). */
  onDeliveriesDue?: (endpointId: string) => void;
}

export function createApp({ config, db, bus, limits, log, metrics, responseCache, plugins = [], onEventsCommitted, onDeliveriesDue }: AppDeps) {
  const onCommitted: OnCommitted = async (events) => {
    onEventsCommitted?.();
    await responseCache.invalidate(events);
  };
  const services = createServices({ db: db.prisma, query: db.query.bind(db), config, bus, limits, log, onCommitted, onDeliveriesDue });
  // Automatic persisted queries' documents, also read by useResponseCacheHits for a hash-only GET's If-None-Match.
  const persistedQueries = persistedQueryStore();
  // The documents whose results are never stored, so never looked up (modules/response-cache/cacheable.ts).
  const neverCached = neverCachedDocuments(schema);
  // WebSocket and SSE connections open per client address (CONNECTIONS_PER_ADDRESS).
  const connections = new AddressConnections(config.connectionsPerAddress);
  const contextFor = requestContextFactory(services, log);
  const yoga = createYoga<NodeServerContext, RequestContext>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    // GraphiQL's page (with its own assets) is served by usePages, cached like the other pages.
    graphiql: false,
    landingPage: false,
    // The node server reads and limits every body (BODY_LIMIT_BYTES) before Yoga sees it; Yoga's
    // own limit would stream that already-read body again through a TransformStream.
    maxRequestBodySize: false,
    logging: false,
    // Parsed documents and parse errors, bounded by size (src/graphql/document-caches.ts).
    parserAndValidationCache: parserCaches(),
    // CORS is useCors's: Yoga's would answer every OPTIONS itself.
    cors: false,
    maskedErrors: { maskError: (error) => maskGraphQLError(error, log) },
    // The request's context, for a REST route and a GraphQL operation alike (Yoga copies its
    // properties onto its own). A WebSocket operation has no request: its initial context is
    // derived from its connection's (src/graphql/ws.ts).
    context: (initial) => (initial.request && findRequestContext(initial.request)) || (initial as unknown as RequestContext),
    plugins: [
      useRequestContext({
        log,
        trustProxy: config.trustProxy,
        contextFor,
      }),
      useMetrics({ metrics, token: config.metricsToken, routes: apiRoutes, paths: [...GRAPHQL_PATHS, '/healthz', '/readyz', LANDING_PATH, REFERENCE_PATH, CONSOLE_PATH] }),
      useHealthChecks({ ping: () => db.ping() }),
      useCors(),
      // GET /, /reference, /console, GraphiQL's page and their static files, before the budget: pages are not limited.
      usePages({ graphiql: config.graphiql, rateLimit: config.rateLimit, graphqlPath: GRAPHQL_PATH }),
      // An SSE stream over CONNECTIONS_PER_ADDRESS is a 429 before it costs budget or work.
      useStreamConnectionLimit({ connections, graphqlPaths: GRAPHQL_PATHS, metrics }),
      useRateLimitBudget({ limits: services.limits, graphqlPaths: GRAPHQL_PATHS }),
      // HEAD of a GraphQL query: its GET without the content (GraphiQL's page has its own, above);
      // OPTIONS (not a preflight) and the methods GraphQL does not use: 204 or 405 with Allow, as on REST paths.
      useGraphQLMethods(GRAPHQL_PATH),
      // A plain GET query whose result is cached, and an If-None-Match (304 only for the request's
      // own cached result), are answered here (see useResponseCacheHits).
      useResponseCacheHits({ cache: responseCache.cache, path: GRAPHQL_PATH, persistedDocument: (hash) => persistedQueries.get(hash), neverCached }),
      useInputEncoding({ bodyLimit: config.bodyLimitBytes, graphqlPaths: GRAPHQL_PATHS }),
      // Idempotency-Key on a GraphQL mutation (POST), keyed in the store REST uses.
      useIdempotency({ path: GRAPHQL_PATH, schema }),
      // Public reads that declare `cached` (GET /api/users/{id}) go through the response cache;
      // the routes of limited operations count against their limit (operation-limits.ts).
      useRestRoutes({ routes: apiRoutes, graphqlPaths: GRAPHQL_PATHS, reads: cachedReads(responseCache.cache), guard: restOperationLimits({ config, limits: services.limits }) }),
      // graphql-sse, waiting for a stream's socket before queueing more (src/graphql/sse-backpressure.ts).
      useGraphQLSSEWithBackpressure(GRAPHQL_STREAM_PATH, { reservationTtlMs: config.sseReservationTtlMs, log }),
      // Apollo's automatic persisted queries: a bounded in-memory LRU of documents by sha256 per
      // instance (a miss costs a client one resend of the document, never an error it sees).
      useAPQ({ store: persistedQueries }),
      // The checks that refuse an operation as it is about to run come before the response cache,
      // whose plugin wraps the execution (and warns on the console when a later plugin refuses
      // one), and before the operation limits (a refused operation is not counted).
      useDirectiveArguments(),
      useNoNul(),
      useQueryCost(),
      ...useCachedQueries({ cache: responseCache.cache, path: GRAPHQL_PATH, neverCached }),
      useDeferStream(),
      useBadRequestStatus(),
      useSharedSubscriptions({ perCaller: config.subscriptionsPerCaller }),
      useSubscriptionSSE([GRAPHQL_PATH]),
      // Depth 12 and 50 aliases, refused as validation errors.
      ...useQueryLimits(),
      ...useOperationLimits({ config, limits: services.limits, log }),
      ...plugins,
    ],
  });

  return {
    yoga,
    /** The WebSocket and SSE connections open per client address, counted by the SSE plugin above and the WebSocket upgrade (src/graphql/ws.ts). */
    connections,
    /** The context of an operation on a WebSocket (its connection's upgrade request and credentials). */
    webSocketContext: (req: IncomingMessage, authorization: string | undefined) => {
      const apiKey = req.headers['x-api-key'];
      return contextFor({
        requestId: randomUUID(),
        address: clientAddress(null, { req }, config.trustProxy),
        authorization: authorization ?? null,
        apiKey: typeof apiKey === 'string' ? apiKey : null,
      });
    },
  };
}

/**
 * Builds a request's context: an ordinary object, the caller resolved from its credentials at
 * most once, when asked, and the request's logger made when first asked for (most requests log
 * nothing but their request line). A WebSocket operation's context is made for it from its
 * connection's credentials, so its caller is resolved when it runs (src/graphql/ws.ts).
 */
function requestContextFactory(services: Services, log: Logger) {
  return (credentials: RequestCredentials): RequestContext => {
    const { requestId, authorization, apiKey, request } = credentials;
    let caller: Promise<Caller | null> | undefined;
    let viewer: Caller | null | undefined;
    let child: Logger | undefined;
    const resolveCaller = async () => (viewer = await services.auth.authenticate(authorization ?? undefined, apiKey ?? undefined));
    const ctx: RequestContext = {
      requestId,
      ip: credentials.address,
      services,
      userAgent: request?.headers.get('user-agent') ?? undefined,
      log: () => (child ??= log.child({ reqId: requestId })),
      viewer: () => viewer,
      caller: () => (caller ??= resolveCaller()),
      requireCaller: async () => {
        const found = await ctx.caller();
        if (!found) throw unauthenticated();
        return found;
      },
    };
    return ctx;
  };
}
