// One Yoga server: a plugin added once to createYoga sees every request and every operation,
// whatever the transport: REST, health, OpenAPI, GraphQL over GET and POST, SSE in both of
// graphql-sse's modes (distinct connections on /graphql, single connection on /graphql/stream),
// and graphql-ws over WebSocket. The probe below is such a plugin, added from outside.
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import { getOperationAST, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { forRequests } from '../src/graphql/for-requests.js';
import WebSocket from 'ws';
import { describe, expect } from 'vitest';
import { serverTest } from './support/fixtures.js';
import { NO_RATE_LIMITS } from './support/limits.js';

/** What the probe saw: HTTP requests (method and path) and executed operations (by name). */
const seen = { requests: [] as string[], operations: [] as string[] };

const nameOf = (args: { document: DocumentNode; operationName?: string | null }) => getOperationAST(args.document, args.operationName)?.name?.value ?? '(anonymous)';

// Added last: a plugin earlier in the list may answer a request in its onRequest (health, REST),
// which ends the onRequest chain, but every response still passes every onResponse.
const probe: Plugin = {
  onResponse({ request, response }) {
    seen.requests.push(`${request.method} ${new URL(request.url).pathname}`);
    response.headers.set('x-probe', 'seen');
  },
  onExecute({ args }) {
    seen.operations.push(nameOf(args));
  },
  onSubscribe({ args }) {
    seen.operations.push(nameOf(args));
  },
};

/** What a plugin limited to GraphQL GETs saw: by hook, the method and path, or the operation's name. */
const gatedSeen: string[] = [];
const isGraphQLGet = (request: Request) => request.method === 'GET' && new URL(request.url).pathname === '/graphql';
const gatedProbe = forRequests(isGraphQLGet, {
  onPluginInit({ addPlugin }) {
    // A plugin it adds itself is limited as it is (Yoga's response cache adds its envelop half so).
    addPlugin({ onExecute: ({ args }) => void gatedSeen.push(`added onExecute ${nameOf(args)}`) });
  },
  onRequest: ({ request }) => void gatedSeen.push(`onRequest ${request.method} ${new URL(request.url).pathname}`),
  onParams: ({ request }) => void gatedSeen.push(`onParams ${request.method}`),
  onExecute: ({ args }) => void gatedSeen.push(`onExecute ${nameOf(args)}`),
  onResponse: ({ request }) => void gatedSeen.push(`onResponse ${request.method} ${new URL(request.url).pathname}`),
} satisfies Plugin);

const it = serverTest({ env: NO_RATE_LIMITS, plugins: [probe, gatedProbe] });

/** Runs one subscription until its first event, then stops. */
function firstEvent(subscribe: (sink: { next(v: unknown): void; error(e: unknown): void; complete(): void }) => () => void): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const stop = subscribe({
      next: (value) => {
        stop();
        resolve(value);
      },
      error: reject,
      complete: () => reject(new Error('completed before any event')),
    });
  });
}

describe('a plugin limited to some requests (forRequests)', () => {
  it('sees those and nothing of the others: not POST, not REST, not a WebSocket operation', async ({ server, api, ada: token }) => {
    gatedSeen.length = 0;
    await api.graphql('query GatedPost { docs { slug } }');
    await api.get('/api/content/docs');
    const ws = createWsClient({ url: `${server.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
    try {
      const result = await new Promise((resolve, reject) => ws.subscribe({ query: 'query GatedWs { docs { slug } }' }, { next: resolve, error: reject, complete: () => undefined }));
      expect(result).toMatchObject({ data: { docs: expect.any(Array) } });
    } finally {
      await ws.dispose();
    }
    expect(gatedSeen).toEqual([]);
    const get = await api.get(`/graphql?query=${encodeURIComponent('query GatedGet { docs { slug } }')}`);
    expect(get.status).toBe(200);
    expect(gatedSeen).toEqual(['onRequest GET /graphql', 'onParams GET', 'onExecute GatedGet', 'added onExecute GatedGet', 'onResponse GET /graphql']);
  });
});

describe('a plugin added once to createYoga', () => {
  it('sees REST, health, OpenAPI and GraphQL over GET and POST, and its response header reaches every client', async ({ api }) => {
    for (const [path, status] of [['/api/content/docs', 200], ['/healthz', 200], ['/readyz', 200], ['/api/openapi.json', 200], ['/api/nope', 404]] as const) {
      const reply = await api.get(path);
      expect(reply.status, path).toBe(status);
      expect(reply.headers.get('x-probe'), path).toBe('seen');
    }
    const get = await api.get(`/graphql?query=${encodeURIComponent('query ProbeGet { docs { slug } }')}`);
    expect(get.headers.get('x-probe')).toBe('seen');
    const post = await api.graphql('query ProbePost { docs { slug } }');
    expect(post.headers.get('x-probe')).toBe('seen');
    expect(seen.requests).toEqual(expect.arrayContaining(['GET /api/content/docs', 'GET /healthz', 'GET /readyz', 'GET /api/openapi.json', 'GET /api/nope', 'GET /graphql', 'POST /graphql']));
    expect(seen.operations).toEqual(expect.arrayContaining(['ProbeGet', 'ProbePost']));
  });

  it('sees subscriptions over SSE in both graphql-sse modes and over WebSocket, each of which delivers', async ({ server, api, ada: token }) => {
    const query = (name: string) => `subscription ${name} { events(types: ["lesson.published"]) { id event lessonId } }`;
    const sseDistinct = createSseClient({ url: `${server.url}/graphql`, headers: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
    const sseSingle = createSseClient({ url: `${server.url}/graphql/stream`, singleConnection: true, headers: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
    const ws = createWsClient({ url: `${server.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
    try {
      const received = [
        firstEvent((sink) => sseDistinct.subscribe({ query: query('ProbeSseDistinct') }, sink)),
        firstEvent((sink) => sseSingle.subscribe({ query: query('ProbeSseSingle') }, sink)),
        firstEvent((sink) => ws.subscribe({ query: query('ProbeWs') }, sink)),
      ];
      // Every subscription is registered before the event is caused.
      await expect.poll(() => seen.operations.filter((o) => o.startsWith('ProbeSse') || o === 'ProbeWs').length, { timeout: 10_000 }).toBe(3);
      const lesson = await api.post('/api/v1/lessons', { title: 'Seen everywhere', body: 'One server.' }, { token });
      expect((await api.post(`/api/v1/lessons/publish?id=${lesson.body.id}`, undefined, { token })).status).toBe(200);
      for (const value of await Promise.all(received)) {
        expect(value).toEqual({ data: { events: { id: expect.stringMatching(/^evt_/), event: 'lesson.published', lessonId: lesson.body.id } } });
      }
      // The single-connection mode reserved its stream with a PUT on /graphql/stream.
      expect(seen.requests).toEqual(expect.arrayContaining(['PUT /graphql/stream', 'GET /graphql/stream', 'POST /graphql/stream', 'POST /graphql']));
    } finally {
      sseDistinct.dispose();
      sseSingle.dispose();
      await ws.dispose();
    }
  });
});

describe('CORS, for browsers on other origins', () => {
  it('answers preflights for REST and GraphQL at once, without drawing on the budget; responses expose the limit headers', async ({ api }) => {
    const before = Number((await api.get('/api/content/docs')).headers.get('x-ratelimit-remaining'));
    for (const path of ['/graphql', '/graphql/stream', '/api/v1/user/me', '/api/auth/login']) {
      const preflight = await api.request('OPTIONS', path, {
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      });
      expect(preflight.status, path).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(preflight.headers.get('access-control-allow-methods'), path).toContain('POST');
      expect(preflight.headers.get('access-control-allow-headers'), path).toContain('authorization');
      expect(preflight.headers.get('ratelimit'), path).toBeNull();
    }
    const after = await api.graphql('{ docs { slug } }', undefined, { headers: { origin: 'https://app.example' } });
    // Only the docs read and this query counted: the four preflights did not.
    expect(Number(after.headers.get('x-ratelimit-remaining'))).toBe(before - 1);
    expect(after.headers.get('access-control-allow-origin')).toBe('*');
    expect(after.headers.get('access-control-expose-headers')?.split(/,\s*/)).toEqual(expect.arrayContaining(['ratelimit', 'ratelimit-policy', 'retry-after', 'x-request-id', 'etag']));
    // An OPTIONS that is no preflight still gets the route's Allow.
    expect((await api.request('OPTIONS', '/api/content/docs')).headers.get('allow')).toContain('GET');
  });
});
