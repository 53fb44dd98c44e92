// GET /metrics (Prometheus text format) and what feeds it from the request path: every HTTP
// request by route template and status with its latency, rate-limit refusals, the GraphQL
// operations (@graphql-yoga/plugin-prometheus on this app's own registry) and the subscriptions
// open. It sits before the rate-limit budget: scraping is never limited nor counted against anyone.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createCounter, createHistogram, usePrometheus, type FillLabelsFnParams } from '@graphql-yoga/plugin-prometheus';
import { getOperationAST, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { AppError, forbidden, methodNotAllowed } from '../../errors.js';
import { isWebSocketContext } from '../../graphql/ws.js';
import type { Metrics } from '../../metrics.js';
import { errorResponse } from '../errors.js';
import type { RouteDefinition } from '../route.js';
import { Router } from '../router.js';
import { requestContextOf, requestRecordOf } from './server-context.js';

export const METRICS_PATH = '/metrics';
/** The route label of every path that is none of the service's routes (one series, not one per path). */
export const UNMATCHED_ROUTE = 'unmatched';
/**
 * Operation names come from clients: past this many distinct ones, new names are counted as
 * `(other)`, so a client inventing names cannot grow the registry (and the scrape) without bound.
 */
const MAX_OPERATION_NAMES = 500;
/**
 * A longer name is counted as `(too long)`. A name is kept in some fifteen series and written in
 * every scrape: long names from anonymous clients could make a scrape too big for JavaScript to
 * hold as one string, and every scrape would fail.
 */
const MAX_OPERATION_NAME_LENGTH = 100;
const ALLOW = ['GET', 'HEAD'];

export interface MetricsOptions {
  metrics: Metrics;
  /** METRICS_TOKEN: when set, /metrics asks for `Authorization: Bearer <token>` (403 otherwise). */
  token: string | undefined;
  /** The REST routes: a request is labelled with its route's template, never with its raw path. */
  routes: readonly RouteDefinition[];
  /** Other paths the service answers (GraphQL, health), labelled as themselves. */
  paths: readonly string[];
}

export function useMetrics({ metrics, token, routes, paths }: MetricsOptions): Plugin {
  const routeOf = routeLabeller(routes, [...paths, METRICS_PATH]);
  const authorized = token === undefined ? () => true : bearerCheck(token);
  let graphqlEndpoint = '/graphql';
  const operations = graphqlOperationMetrics(metrics);
  return {
    onYogaInit({ yoga }) {
      // WebSocket operations have no URL of their own: they run on the GraphQL endpoint.
      graphqlEndpoint = yoga.graphqlEndpoint;
    },
    onPluginInit({ addPlugin, registerContextErrorHandler }) {
      addPlugin(operations.plugin);
      // Over WebSocket the budget refuses an operation while its context is built: there is no
      // HTTP response to see, so count it here. (Over HTTP the 429 response is counted below.)
      registerContextErrorHandler(({ context, error }) => {
        if (error instanceof AppError && error.code === 'RATE_LIMITED' && isWebSocketContext(context)) {
          metrics.rateLimitRefusal(graphqlEndpoint, 'websocket');
        }
      });
    },
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (url.pathname !== METRICS_PATH) return;
      const ctx = requestContextOf(request);
      const head = request.method === 'HEAD';
      if (request.method !== 'GET' && !head) {
        return endResponse(errorResponse(fetchAPI.Response, methodNotAllowed(request.method, METRICS_PATH, ALLOW), ctx.log()));
      }
      if (!authorized(request.headers.get('authorization'))) return endResponse(errorResponse(fetchAPI.Response, forbidden(), ctx.log(), head));
      return metrics.registry.metrics().then(
        (text) => {
          endResponse(
            new fetchAPI.Response(head ? null : text, {
              headers: { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' },
            }),
          );
        },
        // Left to the server adapter, a failure would answer its stack trace.
        (error: unknown) => endResponse(errorResponse(fetchAPI.Response, error, ctx.log(), head)),
      );
    },
    onSubscribe({ args }) {
      const operation = operations.subscription(args);
      return {
        onSubscribeResult({ result, setResult }) {
          // An error instead of a stream (bad input, no token) never opened anything.
          if (!isAsyncIterable(result)) return operation.ended(result as ExecutionResult);
          setResult(
            countedWhileOpen(result as AsyncIterable<ExecutionResult>, {
              opened: metrics.subscriptionOpened,
              result: operation.result,
              closed: () => {
                metrics.subscriptionClosed();
                operation.ended();
              },
            }),
          );
        },
        onSubscribeError: () => operation.failed(),
      };
    },
    onResponse({ request, response }) {
      const record = requestRecordOf(request);
      if (!record) return;
      const route = routeOf(record.path);
      metrics.httpRequest({ method: record.method, route, status: response.status }, (performance.now() - record.started) / 1000);
      // The budget's refusals and the per-operation limits' (login, register, page views) alike.
      if (response.status === 429) metrics.rateLimitRefusal(route, 'http');
    },
  };
}

/**
 * The route label of a path: one of `paths` as is, else the template of the REST route it
 * matches, matched by the router itself (a path matching a template with the wrong method keeps
 * the template: a 405), else `unmatched`.
 */
function routeLabeller(routes: readonly RouteDefinition[], paths: readonly string[]): (pathname: string) => string {
  const exact = new Set(paths);
  const router = new Router().add(...routes);
  return (pathname) => (exact.has(pathname) ? pathname : (router.templateOf(pathname) ?? UNMATCHED_ROUTE));
}

/** Compares the presented Bearer token with `token` in constant time (digests of equal length). */
function bearerCheck(token: string): (authorization: string | null) => boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  const expected = digest(token);
  return (authorization) => {
    const presented = authorization ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization)?.[1] : undefined;
    return presented !== undefined && timingSafeEqual(digest(presented), expected);
  };
}

/**
 * GraphQL operations by type and name (count, execution time, errors) from
 * @graphql-yoga/plugin-prometheus under its own names. Its other metrics are off: the per-phase ones
 * cost time on every request, and its HTTP histogram labels the raw URL (unbounded). Error paths are
 * no label (they hold client-chosen aliases). Subscriptions are counted by useMetrics's own stream
 * wrapper: the plugin's would add two more wrappers that every event passes once per subscriber.
 */
function graphqlOperationMetrics({ registry }: Metrics) {
  const names = new Set<string>();
  const operationName = (name: string | undefined) => {
    if (name === undefined) return '(unknown)';
    if (name.length > MAX_OPERATION_NAME_LENGTH) return '(too long)';
    if (names.has(name)) return name;
    if (names.size >= MAX_OPERATION_NAMES) return '(other)';
    names.add(name);
    return name;
  };
  // A document that does not parse has neither type nor name.
  const operation = (params: FillLabelsFnParams) => ({
    operationType: params.operationType ?? '(unknown)',
    operationName: operationName(params.operationName),
  });
  const requests = createCounter<'execute' | 'subscribe', 'operationType' | 'operationName'>({
    registry,
    counter: {
      name: 'graphql_envelop_request',
      help: 'GraphQL operations executed, by type and name (a subscription is counted when it ends)',
      labelNames: ['operationType', 'operationName'],
    },
    fillLabelsFn: operation,
    phases: ['execute'],
  });
  const errors = createCounter<'parse' | 'validate' | 'context' | 'execute' | 'subscribe', 'operationType' | 'operationName' | 'phase'>({
    registry,
    counter: {
      name: 'graphql_envelop_error_result',
      help: 'GraphQL errors, by operation type and name and the phase they came from',
      labelNames: ['operationType', 'operationName', 'phase'],
    },
    fillLabelsFn: (params: FillLabelsFnParams) => ({ ...operation(params), phase: params.errorPhase ?? 'execute' }),
    phases: ['parse', 'validate', 'context', 'execute'],
  });
  const plugin: Plugin = usePrometheus({
    registry,
    // Ours answers /metrics, behind METRICS_TOKEN; the plugin's endpoint would be open.
    endpoint: false,
    metrics: {
      graphql_envelop_request: requests,
      graphql_envelop_request_duration: createHistogram({
        registry,
        histogram: {
          name: 'graphql_envelop_request_duration',
          help: 'Time spent executing GraphQL queries and mutations, by type and name, in seconds',
          labelNames: ['operationType', 'operationName'],
        },
        fillLabelsFn: operation,
        // Not subscriptions: their "duration" is how long a client stayed, not how fast we were.
        phases: ['execute'],
      }),
      graphql_envelop_error_result: errors,
      graphql_envelop_request_time_summary: false,
      graphql_envelop_phase_parse: false,
      graphql_envelop_phase_validate: false,
      graphql_envelop_phase_context: false,
      graphql_envelop_phase_execute: false,
      graphql_envelop_phase_subscribe: false,
      graphql_envelop_execute_resolver: false,
      graphql_envelop_deprecated_field: false,
      graphql_envelop_schema_change: false,
      graphql_yoga_http_duration: false,
    },
  });
  return {
    plugin,
    /** One subscription's counting, labelled as the plugin labels operations. */
    subscription(args: ExecutionArgs) {
      const definition = getOperationAST(args.document, args.operationName);
      const requested = (args.contextValue as { params?: { operationName?: string | null } } | undefined)?.params?.operationName;
      const labels = operation({ operationType: definition?.operation, operationName: requested || definition?.name?.value || 'Anonymous' } as FillLabelsFnParams);
      const counted = (result: ExecutionResult) => {
        if (result.errors?.length) errors.counter.labels({ ...labels, phase: 'execute' }).inc(result.errors.length);
      };
      return {
        /** A result it sent: its errors are counted. */
        result: counted,
        /** It ended (or answered once instead of streaming): counted as one operation. */
        ended(result?: ExecutionResult) {
          if (result) counted(result);
          requests.counter.labels(labels).inc();
        },
        /** Its subscribe step threw. */
        failed() {
          errors.counter.labels({ ...labels, phase: 'execute' }).inc();
        },
      };
    },
  };
}

/**
 * The same stream, with `opened` called now, `result` with each result it yields, and `closed`
 * exactly once when it ends, however it ends: exhausted, returned (the client left), thrown
 * into, or failing.
 */
function countedWhileOpen<T>(
  source: AsyncIterable<T>,
  { opened, result, closed }: { opened: () => void; result: (value: T) => void; closed: () => void },
): AsyncIterableIterator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    closed();
  };
  opened();
  const counted: AsyncIterableIterator<T> = {
    async next() {
      try {
        const next = await iterator.next();
        if (next.done) close();
        else result(next.value);
        return next;
      } catch (error) {
        close();
        throw error;
      }
    },
    // Straight to the source, even while a next() is pending (a departed client is let go at once).
    async return(value?: unknown) {
      close();
      return (await iterator.return?.(value)) ?? { done: true, value: undefined };
    },
    async throw(error?: unknown) {
      close();
      if (iterator.throw) return iterator.throw(error);
      throw error;
    },
    [Symbol.asyncIterator]: () => counted,
  };
  return counted;
}
