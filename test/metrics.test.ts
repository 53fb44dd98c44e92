// GET /metrics over real HTTP against a real server: Prometheus text that parses; HTTP requests by
// route template and status with a latency histogram; GraphQL operations by name; rate-limit
// refusals (and /metrics itself never limited); events positioned, webhook attempts by outcome and
// open subscriptions, caused through the API; METRICS_TOKEN. Nothing is mocked.
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { describe, expect } from 'vitest';
import { serverTest } from './support/fixtures.js';
import type { Client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { parseMetrics, scrape, total, type Sample } from './support/metrics.js';
import { startReceiver } from './support/receiver.js';
import type { TestServer } from './support/server.js';
import { waitFor } from './support/wait.js';

const has = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.some((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

const RATE_LIMIT_HEADERS = ['ratelimit', 'ratelimit-policy', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'];


const EVENTS = 'subscription { events { id event } }';
const METRICS_TOKEN = 'metrics-scrape-token-0123456789';

const unlimited = serverTest({ env: { ...NO_RATE_LIMITS, WEBHOOK_RETRY_SCHEDULE: '100ms,100ms', WEBHOOK_TIMEOUT_MS: '2000' } });
// TRUST_PROXY: the WebSocket's caller signs in from an address whose budget is not spent.
const limited = serverTest({ env: { RATE_LIMIT_FREE: '2', TRUST_PROXY: 'true' } });
const guarded = serverTest({ env: { ...NO_RATE_LIMITS, METRICS_TOKEN } });

describe('GET /metrics', () => {
  const it = unlimited;
  let server: TestServer;
  let api: Client;
  let ada: string;
  const cleanups: (() => Promise<unknown>)[] = [];

  it.beforeAll(({ server: started, api: itsClient, ada: token }) => {
    [server, api, ada] = [started, itsClient, token];
  });
  it.afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  it('answers Prometheus text (0.0.4) that parses, never limited and without limit headers', async () => {
    const reply = await api.get('/metrics');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(reply.text).toMatch(/^# HELP /);
    const samples = parseMetrics(reply.text);
    expect(samples.length).toBeGreaterThan(0);
    for (const name of RATE_LIMIT_HEADERS) expect(reply.headers.get(name), name).toBeNull();
    // Every family this service defines is there from the start.
    for (const family of ['learnstream_webhook_attempts_total', 'learnstream_subscriptions_open', 'learnstream_events_positioned_total']) {
      expect(has(samples, family), family).toBe(true);
    }
    expect(total(samples, 'learnstream_webhook_attempts_total', { outcome: 'succeeded' })).toBe(0);
  });

  it('HEAD answers without a body; another method is 405 with Allow', async () => {
    const head = await api.request('HEAD', '/metrics');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const post = await api.post('/metrics', {});
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(post.body).toMatchObject({ error: true, code: 405 });
  });

  it('counts HTTP requests by route template (never the raw path) and status, with a latency histogram', async () => {
    const me = await api.get('/api/v1/user/me', { token: ada });
    const id = me.body.id as string;
    expect((await api.get(`/api/users/${id}`)).status).toBe(200);
    expect((await api.get('/api/users/usr_nobody')).status).toBe(404);
    expect((await api.get(`/no/such/path/${id}`)).status).toBe(404);
    expect((await api.get('/healthz')).status).toBe(200);

    const reply = await api.get('/metrics');
    expect(reply.text).not.toContain(id);
    expect(reply.text).not.toContain('usr_nobody');
    const samples = parseMetrics(reply.text);
    const route = { method: 'GET', route: '/api/users/{id}' };
    expect(total(samples, 'learnstream_http_requests_total', { ...route, status: '200' })).toBe(1);
    expect(total(samples, 'learnstream_http_requests_total', { ...route, status: '404' })).toBe(1);
    expect(total(samples, 'learnstream_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(total(samples, 'learnstream_http_requests_total', { method: 'GET', route: '/healthz', status: '200' })).toBe(1);
    expect(total(samples, 'learnstream_http_requests_total', { method: 'GET', route: '/api/v1/user/me', status: '200' })).toBeGreaterThanOrEqual(1);

    // The histogram: cumulative buckets ending in +Inf, whose count is the number of requests.
    const buckets = samples.filter((s) => s.name === 'learnstream_http_request_duration_seconds_bucket' && s.labels.route === '/api/users/{id}' && s.labels.status === '200');
    expect(buckets.length).toBeGreaterThan(5);
    expect(buckets.at(-1)!.labels.le).toBe('+Inf');
    expect(buckets.at(-1)!.value).toBe(1);
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value);
    expect(total(samples, 'learnstream_http_request_duration_seconds_count', { ...route, status: '200' })).toBe(1);
    expect(total(samples, 'learnstream_http_request_duration_seconds_sum', { ...route, status: '200' })).toBeGreaterThan(0);
  });

  it('counts GraphQL operations by type and name, with their duration and errors', async () => {
    const ok = await api.graphql('query MetricsProbe { docs { slug } }');
    expect(ok.status, ok.text).toBe(200);
    const failing = await api.graphql('query MetricsMissing { lesson(id: "les_nope") { id } }', undefined, { token: ada });
    expect(failing.body.errors).toBeDefined();

    const samples = await scrape(api);
    expect(total(samples, 'graphql_envelop_request', { operationType: 'query', operationName: 'MetricsProbe' })).toBe(1);
    expect(total(samples, 'graphql_envelop_request_duration_count', { operationType: 'query', operationName: 'MetricsProbe' })).toBe(1);
    expect(has(samples, 'graphql_envelop_request_duration_bucket', { operationName: 'MetricsProbe', le: '+Inf' })).toBe(true);
    expect(total(samples, 'graphql_envelop_error_result', { operationName: 'MetricsMissing' })).toBeGreaterThanOrEqual(1);
    expect(total(samples, 'learnstream_http_requests_total', { method: 'POST', route: '/graphql', status: '200' })).toBeGreaterThanOrEqual(1);
  });

  it('counts an operation name over 100 characters as "(too long)", so names cannot swell the scrape', async () => {
    const longest = `Q${'x'.repeat(99)}`;
    const tooLong = `Q${'y'.repeat(100_000)}`;
    for (const name of [longest, tooLong]) expect((await api.graphql(`query ${name} { docs { slug } }`)).status).toBe(200);
    const reply = await api.get('/metrics');
    expect(reply.status).toBe(200);
    expect(reply.text).not.toContain('yyyyyyyyyy');
    const samples = parseMetrics(reply.text);
    expect(total(samples, 'graphql_envelop_request', { operationType: 'query', operationName: longest })).toBe(1);
    expect(total(samples, 'graphql_envelop_request', { operationType: 'query', operationName: '(too long)' })).toBe(1);
  });

  it('counts events positioned and webhook attempts by outcome', async () => {
    const good = await startReceiver(() => 200);
    const bad = await startReceiver(() => 500);
    cleanups.push(() => good.close(), () => bad.close());
    for (const rx of [good, bad]) {
      const created = await api.post('/api/v1/webhooks', { url: rx.url, events: ['lesson.published'] }, { token: ada });
      expect(created.status, created.text).toBe(201);
      cleanups.push(() => api.delete(`/api/v1/webhooks/${created.body.id as string}`, { token: ada }));
    }
    const before = await scrape(api);

    const lesson = await api.post('/api/v1/lessons', { title: 'Metrics', body: 'Counted.' }, { token: ada });
    expect(lesson.status, lesson.text).toBe(201);
    const published = await api.post(`/api/v1/lessons/publish?id=${lesson.body.id as string}`, undefined, { token: ada });
    expect(published.status, published.text).toBe(200);

    const after = await waitFor('the attempts to be counted', async () => {
      const samples = await scrape(api);
      const retried = total(samples, 'learnstream_webhook_attempts_total', { outcome: 'retry' });
      return total(samples, 'learnstream_webhook_attempts_total', { outcome: 'succeeded' }) >= 1 && retried >= 1 && samples;
    });
    expect(total(after, 'learnstream_events_positioned_total')).toBeGreaterThan(total(before, 'learnstream_events_positioned_total'));
    expect(good.hits.length).toBeGreaterThanOrEqual(1);
    expect(bad.hits.length).toBeGreaterThanOrEqual(1);
  });

  it('gauges the open subscriptions, over SSE and WebSocket, down again when they close', async () => {
    const open = async () => total(await scrape(api), 'learnstream_subscriptions_open');
    const base = await open();
    const noop = { next: () => {}, error: () => {}, complete: () => {} };

    const wsClient = createWsClient({
      url: `${server.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${ada}` },
      retryAttempts: 0,
      lazy: true,
    });
    const stopWs = wsClient.subscribe({ query: EVENTS }, noop);
    await waitFor('the WebSocket subscription', async () => (await open()) === base + 1);

    const sseClient = createSseClient({ url: `${server.url}/graphql`, singleConnection: false, headers: { authorization: `Bearer ${ada}` }, retryAttempts: 0 });
    const stopSse = sseClient.subscribe({ query: EVENTS }, noop);
    await waitFor('the SSE subscription', async () => (await open()) === base + 2);

    stopWs();
    await wsClient.dispose();
    await waitFor('the WebSocket subscription to close', async () => (await open()) === base + 1);
    stopSse();
    sseClient.dispose();
    await waitFor('the SSE subscription to close', async () => (await open()) === base);

    // A subscription refused before it opens (no token) never counts.
    const refused = await api.request('GET', `/graphql?query=${encodeURIComponent(EVENTS)}`, { headers: { accept: 'text/event-stream' } });
    expect(refused.text).toContain('errors');
    expect(await open()).toBe(base);
  });

  it('counts a subscription as an operation once, when it ends, over SSE and WebSocket; a refused one with its error', async () => {
    const NAMED = 'subscription MetricsStream { events { id } }';
    const labels = { operationType: 'subscription', operationName: 'MetricsStream' };
    const counts = async () => {
      const samples = await scrape(api);
      return { operations: total(samples, 'graphql_envelop_request', labels), errors: total(samples, 'graphql_envelop_error_result', labels), open: total(samples, 'learnstream_subscriptions_open') };
    };
    const before = await counts();
    const noop = { next: () => {}, error: () => {}, complete: () => {} };
    const wsClient = createWsClient({ url: `${server.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${ada}` }, retryAttempts: 0, lazy: true });
    const sseClient = createSseClient({ url: `${server.url}/graphql`, singleConnection: false, headers: { authorization: `Bearer ${ada}` }, retryAttempts: 0 });
    const stops = [wsClient.subscribe({ query: NAMED }, noop), sseClient.subscribe({ query: NAMED }, noop)];
    await waitFor('both subscriptions open', async () => (await counts()).open === before.open + 2);
    // Open, not counted yet: an operation is counted when it ends.
    expect((await counts()).operations).toBe(before.operations);
    for (const stop of stops) stop();
    await wsClient.dispose();
    sseClient.dispose();
    await waitFor('both counted', async () => (await counts()).operations === before.operations + 2);
    expect((await counts()).errors).toBe(before.errors);

    const refused = await api.request('GET', `/graphql?query=${encodeURIComponent(NAMED)}`, { headers: { accept: 'text/event-stream' } });
    expect(refused.text).toContain('errors');
    expect(await counts()).toEqual({ operations: before.operations + 3, errors: before.errors + 1, open: before.open });
  });
});

describe('GET /metrics with rate limits', () => {
  const it = limited;

  it('counts the refusals, and is itself never limited nor carries limit headers', async ({ api }) => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await api.get('/api/users/usr_anyone')).status);
    expect(statuses).toEqual([404, 404, 429]);

    for (let i = 0; i < 5; i++) {
      const reply = await api.get('/metrics');
      expect(reply.status).toBe(200);
      for (const name of RATE_LIMIT_HEADERS) expect(reply.headers.get(name), name).toBeNull();
    }
    const samples = await scrape(api);
    expect(total(samples, 'learnstream_rate_limit_refusals_total', { route: '/api/users/{id}', transport: 'http' })).toBe(1);
    expect(total(samples, 'learnstream_http_requests_total', { route: '/api/users/{id}', status: '429' })).toBe(1);
    expect(total(samples, 'learnstream_http_requests_total', { route: '/metrics', status: '200' })).toBeGreaterThanOrEqual(5);
    // Still refused afterwards: scraping did not touch anyone's budget, and refusals add up.
    expect((await api.get('/api/users/usr_anyone')).status).toBe(429);
    expect(total(await scrape(api), 'learnstream_rate_limit_refusals_total')).toBe(2);
  });

  it('counts a WebSocket operation the budget refuses (it has no HTTP response)', async ({ server, api }) => {
    // A WebSocket's operations draw on its caller's budget (2): the third is refused.
    const login = await api.post('/api/auth/login', { email: 'grace@example.com', password: 'hopper-1906' }, { headers: { 'x-forwarded-for': '198.51.100.77' } });
    expect(login.status).toBe(200);
    const wsClient = createWsClient({
      url: `${server.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${(login.body as { token: string }).token}` },
      retryAttempts: 0,
      lazy: true,
    });
    try {
      const outcomes: unknown[] = [];
      for (let i = 0; i < 3; i++) {
        outcomes.push(
          await new Promise<unknown>((resolve) => {
            let last: unknown;
            wsClient.subscribe({ query: '{ docs { slug } }' }, { next: (value) => (last = value), error: resolve, complete: () => resolve(last) });
          }),
        );
      }
      expect(outcomes.slice(0, 2)).toEqual([expect.objectContaining({ data: expect.anything() }), expect.objectContaining({ data: expect.anything() })]);
      expect(JSON.stringify(outcomes[2])).toContain('RATE_LIMITED');
    } finally {
      await wsClient.dispose();
    }
    expect(total(await scrape(api), 'learnstream_rate_limit_refusals_total', { route: '/graphql', transport: 'websocket' })).toBe(1);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  const it = guarded;
  const TOKEN = METRICS_TOKEN;

  it('is 403 in the contract shape without the token or with a wrong one, 200 with it', async ({ server, api }) => {
    const forbidden = { error: true, code: 403, message: 'Forbidden' };
    const wrong: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
      { authorization: TOKEN },
      { authorization: `Basic ${TOKEN}` },
    ];
    for (const headers of wrong) {
      const reply = await api.get('/metrics', { headers });
      expect(reply.status, JSON.stringify(headers)).toBe(403);
      expect(reply.body).toEqual(forbidden);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    }
    const ok = await api.get('/metrics', { token: TOKEN });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(parseMetrics(ok.text).length).toBeGreaterThan(0);
    // The scheme is case-insensitive, as in every other Bearer check.
    expect((await api.get('/metrics', { headers: { authorization: `bearer ${TOKEN}` } })).status).toBe(200);
    // The refusals were counted, under /metrics, and the token was never written anywhere.
    const samples = await scrape(api, TOKEN);
    expect(total(samples, 'learnstream_http_requests_total', { route: '/metrics', status: '403' })).toBe(5);
    expect(server.logText()).not.toContain(TOKEN.slice(0, 16));
  });

  it('other routes do not ask for it', async ({ api }) => {
    expect((await api.get('/healthz')).status).toBe(200);
  });
});
