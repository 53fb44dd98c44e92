// Builds the service: one node:http server that serves the REST routes, health checks and
// GraphQL (Yoga) on /graphql, over one set of services. No listen here: main.ts and tests do that.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import type { GraphQLError } from 'graphql';
import { createYoga } from 'graphql-yoga';
import type { Config } from './config.js';
import type { Caller, RequestContext } from './context.js';
import type { Database } from './db/client.js';
import { AppError, unauthenticated } from './errors.js';
import { maskGraphQLError } from './graphql/errors.js';
import { createGraphQLHttpHandler, createOperationCache, formatGraphQLError, MAX_ALIASES, MAX_DEPTH } from './graphql/http.js';
import { createGraphQLSseHandler } from './graphql/sse.js';
import { attachGraphQLWebSocket } from './graphql/ws.js';
import { schema } from './graphql/schema.js';
import { sendError } from './http/errors.js';
import { openApiDocument } from './http/openapi.js';
import { Router } from './http/router.js';
import { apiRoutes } from './http/routes.js';
import type { Logger } from './logger.js';
import type { EventBus } from './modules/events/bus.js';
import type { RateLimitStore } from './modules/limits/index.js';
import { RATE_LIMITED_MESSAGE } from './modules/limits/service.js';
import { createServices } from './services.js';

export interface App {
  server: Server;
  close(): Promise<void>;
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export function createApp({ config, db, bus, limits, log }: { config: Config; db: Database; bus: EventBus; limits: RateLimitStore; log: Logger }): App {
  const services = createServices({ db: db.prisma, query: db.query.bind(db), config, bus, limits, log });
  const router = new Router(config.bodyLimitBytes).add(...apiRoutes);
  const openapi = JSON.stringify(openApiDocument(router.routes));

  const yoga = createYoga<RequestContext>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: config.graphiql,
    landingPage: false,
    logging: false,
    maskedErrors: { maskError: (error) => maskGraphQLError(error, log) },
    plugins: [
      maxDepthPlugin(MAX_DEPTH),
      maxAliasesPlugin(MAX_ALIASES),
    ],
  });

  const operations = createOperationCache();
  const handleGraphQL = createGraphQLHttpHandler({ log, bodyLimit: config.bodyLimitBytes, operations });
  const handleSse = createGraphQLSseHandler({ log, operations });

  function contextFor(req: IncomingMessage, requestId: string, authorization = req.headers.authorization, apiKey = req.headers['x-api-key']): RequestContext {
    const reqLog = log.child({ reqId: requestId });
    let resolved: Promise<Caller | null> | undefined;
    const caller = () => (resolved ??= services.auth.authenticate(authorization, typeof apiKey === 'string' ? apiKey : undefined));
    return {
      requestId,
      log: reqLog,
      ip: clientAddress(req, config.trustProxy),
      services,
      caller,
      requireCaller: async () => {
        const c = await caller();
        if (!c) throw unauthenticated();
        return c;
      },
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    const incomingId = req.headers['x-request-id'];
    const requestId = typeof incomingId === 'string' && REQUEST_ID.test(incomingId) ? incomingId : randomUUID();
    res.setHeader('x-request-id', requestId);
    const ctx = contextFor(req, requestId);
    res.on('finish', () => {
      ctx.log.info(
        { method: req.method, path: req.url?.split('?')[0], status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 },
        'request',
      );
    });

    const url = new URL(req.url ?? '/', 'http://localhost');
    try {
      if (url.pathname === '/healthz') return sendJson(res, 200, { status: 'ok' });
      if (url.pathname === '/readyz') {
        try {
          await db.ping();
          return sendJson(res, 200, { status: 'ready' });
        } catch (error) {
          ctx.log.warn({ err: error }, 'readiness check failed');
          return sendJson(res, 503, { status: 'unavailable' });
        }
      }
      // Everything else draws on the caller's budget, once per request, before any work.
      const admission = await services.limits.admit(await ctx.caller(), ctx.ip);
      if (admission) {
        for (const [name, value] of Object.entries(admission.headers)) res.setHeader(name, value);
        if (!admission.allowed) {
          req.resume();
          const refused = new AppError('RATE_LIMITED', RATE_LIMITED_MESSAGE);
          if (url.pathname === '/graphql') return sendGraphQLError(req, res, formatGraphQLError(refused, ctx.log));
          throw refused;
        }
      }
      if (url.pathname === '/api/openapi.json' && (req.method === 'GET' || req.method === 'HEAD')) {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'access-control-allow-origin': '*' });
        return void res.end(req.method === 'HEAD' ? undefined : openapi);
      }
      if (url.pathname === '/graphql') {
        if (Number(req.headers['content-length'] ?? 0) > config.bodyLimitBytes) {
          req.resume();
          throw new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than ${config.bodyLimitBytes} bytes`);
        }
        // Yoga serves GraphiQL to browsers; event streams and plain JSON go the lean ways.
        const accept = req.headers.accept ?? '';
        if (accept.includes('text/event-stream')) return await handleSse(req, res, ctx);
        if (accept.includes('text/html')) return await yoga.handle(req, res, ctx);
        return await handleGraphQL(req, res, ctx);
      }
      res.setHeader('access-control-allow-origin', '*');
      if (await router.handle(req, res, url, ctx)) return;
      req.resume();
      throw new AppError('NOT_FOUND', `Route ${req.method} ${url.pathname} not found`);
    } catch (error) {
      sendError(res, error, ctx.log, req.method === 'HEAD');
    }
  }

  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => void handle(req, res));
  const websocket = attachGraphQLWebSocket({
    server,
    log,
    operations,
    contextFor: (req, authorization) => contextFor(req, randomUUID(), authorization),
    // Each operation on a socket is a GraphQL request: it draws on the caller's budget once.
    admit: async (ctx) => (await services.limits.admit(await ctx.caller(), ctx.ip))?.allowed ?? true,
  });
  return {
    server,
    close: async () => {
      await websocket.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await yoga.dispose();
    },
  };
}

function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers['x-forwarded-for'];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress ?? 'unknown';
}

/** A GraphQL error response with the status its error asks for (429 for RATE_LIMITED). */
function sendGraphQLError(req: IncomingMessage, res: ServerResponse, error: GraphQLError): void {
  const json = JSON.stringify({ errors: [error.toJSON()] });
  // GraphQL over HTTP: the newer media type when the client accepts it.
  const accept = req.headers.accept ?? '';
  const type = accept.includes('application/graphql-response+json') ? 'application/graphql-response+json' : 'application/json';
  res.writeHead(Number(error.extensions.status ?? 500), { 'content-type': `${type}; charset=utf-8`, 'content-length': Buffer.byteLength(json) });
  res.end(req.method === 'HEAD' ? undefined : json);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}
