// The service's Prometheus metrics: one prom-client Registry per app instance, never the global one
// (tests run many servers in one process, which would mix their numbers or fail to register a name
// twice). The HTTP side is filled by src/http/plugins/use-metrics.ts; the workers get plain
// callbacks, so the relay and the dispatcher stay free of prom-client.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Outcome } from './modules/webhooks/dispatch/attempt.js';

/** Seconds. Most answers take milliseconds; the tail is a slow database or a long SSE setup. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The dispatcher's outcomes as label values. A Record, so a new outcome fails to compile here. */
const WEBHOOK_OUTCOMES: Record<Outcome, string> = {
  SUCCEEDED: 'succeeded',
  RETRY: 'retry',
  FAILED: 'failed',
  GONE: 'gone',
  RELEASED: 'released',
};

/**
 * Why a connection was refused, or closed before it served anything: one more from an address
 * than CONNECTIONS_PER_ADDRESS, one more than MAX_CONNECTIONS while every socket was busy, a
 * WebSocket's connection_init without valid credentials, or none within the wait.
 */
export const CONNECTION_REFUSAL_REASONS = ['per_address', 'max_connections', 'websocket_credentials', 'websocket_init_timeout'] as const;
export type ConnectionRefusalReason = (typeof CONNECTION_REFUSAL_REASONS)[number];

export function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  const httpLabels = ['method', 'route', 'status'] as const;
  const httpRequests = new Counter({
    name: 'learnstream_http_requests_total',
    help: 'HTTP requests answered, by method, route (the REST template, not the raw path) and status',
    labelNames: httpLabels,
    registers,
  });
  const httpDuration = new Histogram({
    name: 'learnstream_http_request_duration_seconds',
    help: 'Time from the request to its response headers, by method, route and status (a stream is timed to its start)',
    labelNames: httpLabels,
    buckets: HTTP_BUCKETS,
    registers,
  });
  const rateLimitRefusals = new Counter({
    name: 'learnstream_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit: HTTP 429 responses by route, and WebSocket operations refused by the budget',
    labelNames: ['route', 'transport'] as const,
    registers,
  });
  const eventsPositioned = new Counter({
    name: 'learnstream_events_positioned_total',
    help: 'Committed events the relay gave their commit-order position (and fanned out)',
    registers,
  });
  const webhookAttempts = new Counter({
    name: 'learnstream_webhook_attempts_total',
    help: 'Webhook delivery attempts made by this instance, by outcome (succeeded, retry, failed, gone, released)',
    labelNames: ['outcome'] as const,
    registers,
  });
  // Every outcome from zero, so rate() and alerts work before the first failure ever happens.
  for (const outcome of Object.values(WEBHOOK_OUTCOMES)) webhookAttempts.inc({ outcome }, 0);
  const connectionsRefused = new Counter({
    name: 'learnstream_connections_refused_total',
    help: 'Connections refused or closed before they served anything, by reason (per_address, max_connections, websocket_credentials, websocket_init_timeout)',
    labelNames: ['reason'] as const,
    registers,
  });
  for (const reason of CONNECTION_REFUSAL_REASONS) connectionsRefused.inc({ reason }, 0);
  const subscriptionsOpen = new Gauge({
    name: 'learnstream_subscriptions_open',
    help: 'GraphQL subscriptions currently open on this instance (SSE, graphql-sse and WebSocket)',
    registers,
  });

  // Arrow functions throughout: they are handed over as bare callbacks.
  return {
    registry,
    httpRequest: (labels: { method: string; route: string; status: number }, seconds: number): void => {
      const values = { method: labels.method, route: labels.route, status: String(labels.status) };
      httpRequests.inc(values);
      httpDuration.observe(values, seconds);
    },
    rateLimitRefusal: (route: string, transport: 'http' | 'websocket'): void => rateLimitRefusals.inc({ route, transport }),
    /** A connection refused by CONNECTIONS_PER_ADDRESS or MAX_CONNECTIONS, or a WebSocket closed before its connection_init was accepted. */
    connectionRefused: (reason: ConnectionRefusalReason): void => connectionsRefused.inc({ reason }),
    subscriptionOpened: (): void => subscriptionsOpen.inc(),
    subscriptionClosed: (): void => subscriptionsOpen.dec(),
    /** For the relay. */
    eventsPositioned: (count: number): void => eventsPositioned.inc(count),
    /** For the webhook dispatcher. */
    webhookAttempt: (outcome: Outcome): void => webhookAttempts.inc({ outcome: WEBHOOK_OUTCOMES[outcome] }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
