// Builds the service: one graphql-yoga server that every HTTP request passes through (REST,
// GraphQL over GET/POST and SSE, health, OpenAPI) and whose envelop pipeline every WebSocket
// operation executes in. The plugin list below, in order, is the whole request path.
// No listen here: server.ts and the tests do that.
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { useGraphQLSSE } from '@graphql-yoga/plugin-graphql-sse';
import { createYoga } from 'graphql-yoga';
import type { Config } from './config.js';
import type { Caller, RequestContext } from './context.js';
import type { Database } from './db/client.js';
import { unauthenticated } from './errors.js';
import { maskGraphQLError } from './graphql/errors.js';
import { schema } from './graphql/schema.js';
import { useBodyLimit } from './http/plugins/use-body-limit.js';
import { useHealthChecks } from './http/plugins/use-health.js';
import { clientAddress, useRequestContext } from './http/plugins/use-request-context.js';
import { useRestRoutes } from './http/plugins/use-rest.js';
import { findRequestContext, type NodeServerContext } from './http/plugins/server-context.js';
import { apiRoutes } from './http/routes.js';
import type { Logger } from './logger.js';
import type { EventBus } from './modules/events/bus.js';
import { useSharedSubscriptions } from './modules/events/shared-execution.js';
import type { RateLimitStore } from './modules/limits/index.js';
import { useRateLimitBudget } from './modules/limits/use-budget.js';
import { createServices, type Services } from './services.js';

/** The contract's query limits: depth 12 (introspection exempt), 50 aliases. */
const MAX_DEPTH = { n: 12, ignoreIntrospection: true, flattenFragments: true } as const;
const MAX_ALIASES = { n: 50 } as const;

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
}

export function createApp({ config, db, bus, limits, log }: AppDeps) {
  const services = createServices({ db: db.prisma, query: db.query.bind(db), config, bus, limits, log });
  const contextFor = requestContextFactory(services, log);
  const isGraphiQLPage = (request: Request, url: URL) =>
    config.graphiql && url.pathname === GRAPHQL_PATH && request.method === 'GET' && (request.headers.get('accept') ?? '').includes('text/html');

  const yoga = createYoga<NodeServerContext, RequestContext>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    graphiql: config.graphiql,
    landingPage: false,
    logging: false,
    // CORS is the request-context plugin's: Yoga's would answer every OPTIONS itself.
    cors: false,
    maskedErrors: { maskError: (error) => maskGraphQLError(error, log) },
    // The same context object for a request's REST route and GraphQL operation. A WebSocket
    // operation has no request: its initial context is its connection's (src/graphql/ws.ts).
    context: (initial) => (initial.request && findRequestContext(initial.request)) || (initial as unknown as RequestContext),
    plugins: [
      useRequestContext({
        trustProxy: config.trustProxy,
        contextFor: ({ requestId, address, authorization, apiKey }) => contextFor(requestId, address, authorization, apiKey),
      }),
      useHealthChecks({ ping: () => db.ping() }),
      useRateLimitBudget({ limits: services.limits, graphqlPaths: GRAPHQL_PATHS, exempt: isGraphiQLPage }),
      useBodyLimit(config.bodyLimitBytes),
      useRestRoutes({ routes: apiRoutes, graphqlPaths: GRAPHQL_PATHS }),
      useGraphQLSSE({ endpoint: GRAPHQL_STREAM_PATH }),
      useSharedSubscriptions(),
      maxDepthPlugin(MAX_DEPTH),
      maxAliasesPlugin(MAX_ALIASES),
    ],
  });

  return {
    yoga,
    /** The context of a WebSocket connection (its upgrade request and credentials). */
    webSocketContext: (req: IncomingMessage, authorization: string | undefined) => {
      const apiKey = req.headers['x-api-key'];
      return contextFor(randomUUID(), clientAddress(null, { req }, config.trustProxy), authorization ?? null, typeof apiKey === 'string' ? apiKey : null);
    },
  };
}

export type App = ReturnType<typeof createApp>;

/** Builds a request's context: the caller is resolved from its credentials at most once, when asked. */
function requestContextFactory(services: Services, log: Logger) {
  return (requestId: string, ip: string, authorization: string | null, apiKey: string | null): RequestContext => {
    let resolved: Promise<Caller | null> | undefined;
    const caller = () => (resolved ??= services.auth.authenticate(authorization ?? undefined, apiKey ?? undefined));
    return {
      requestId,
      log: log.child({ reqId: requestId }),
      ip,
      services,
      caller,
      requireCaller: async () => {
        const c = await caller();
        if (!c) throw unauthenticated();
        return c;
      },
    };
  };
}
