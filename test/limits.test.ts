// The rate limits as a client sees them, over real HTTP (one process, in-process counters; the
// cross-instance Redis case is limits-redis.test.ts, the store's exact arithmetic with a fake
// clock is limits-store.test.ts). TRUST_PROXY lets each test use its own client address through
// X-Forwarded-For, so every test starts from a full budget.
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { serverTest } from './support/fixtures.js';
import { client, type Client, type Reply } from './support/http.js';
import { startTestServer, type TestServer } from './support/server.js';

const LIMIT_HEADERS = ['ratelimit-policy', 'ratelimit', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
const RATE_LIMITED = { error: true, code: 429, message: 'Rate limit exceeded' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let addressCounter = 0;
/** A client address no other test uses. */
const freshAddress = () => ({ 'x-forwarded-for': `198.51.100.${++addressCounter}` });
const remainingOf = (r: Reply) => Number(r.headers.get('x-ratelimit-remaining'));

/**
 * A graphql-ws client of the server at `url` whose upgrade request comes from the address `headers`
 * forward, signed in with `token` (a WebSocket must be: its operations then draw on the caller's budget).
 */
function wsClientFrom(url: string, headers: Record<string, string>, token: string) {
  class ForwardedWebSocket extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  }
  return createWsClient({ url: `${url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: ForwardedWebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
}

/** Signs grace in from an address of its own (a login counts against its address, not against grace). */
async function graceFrom(api: Client, headers: Record<string, string>): Promise<string> {
  const reply = await api.post('/api/auth/login', { email: 'grace@example.com', password: 'hopper-1906' }, { headers });
  expect(reply.status).toBe(200);
  return (reply.body as { token: string }).token;
}

function expectRefused(reply: Reply) {
  expect(reply.status).toBe(429);
  expect(reply.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  expect(reply.headers.get('x-ratelimit-remaining')).toBe('0');
}

const withDefaults = serverTest({ env: { TRUST_PROXY: 'true' } });
const withSmallWindow = serverTest({ env: { TRUST_PROXY: 'true', RATE_LIMIT_FREE: '3', RATE_LIMIT_WINDOW_S: '3' } });
const withOperationLimits = serverTest({
  env: { TRUST_PROXY: 'true', RATE_LIMIT_LOGIN: '3/1m', RATE_LIMIT_REGISTER: '2/1h', RATE_LIMIT_PAGE_VIEWS: '3/1m' },
});

describe('the tier budget, with the default limits', () => {
  const it = withDefaults;
  let api: Client;
  const tokens = { ada: '', grace: '', alan: '' };

  it.beforeAll(({ api: itsClient, ada, grace, alan }) => {
    api = itsClient;
    Object.assign(tokens, { ada, grace, alan });
  });

  it('lets an address make 100 requests a minute, counting down, and refuses the 101st with 429', async () => {
    const headers = freshAddress();
    const startedAt = Date.now();
    const before = Math.floor(startedAt / 1000);
    for (let i = 1; i <= 100; i++) {
      const reply = await api.get('/api/content/docs', { headers });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('ratelimit-policy')).toBe('"free";q=100;w=60');
      expect(reply.headers.get('x-ratelimit-limit')).toBe('100');
      expect(reply.headers.get('x-ratelimit-remaining')).toBe(String(100 - i));
      // reset: seconds until the oldest request (the first of this loop) leaves the window.
      const policy = /^"free";r=(\d+);t=(\d+)$/.exec(reply.headers.get('ratelimit') ?? '');
      expect(policy?.[1]).toBe(String(100 - i));
      expect(Number(policy?.[2])).toBeLessThanOrEqual(60);
      expect(Number(policy?.[2])).toBeGreaterThanOrEqual(60 - Math.ceil((Date.now() - startedAt) / 1000));
      const reset = Number(reply.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(before + 59);
      expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
    }
    const refused = await api.get('/api/content/docs', { headers });
    expectRefused(refused);
    expect(refused.body).toEqual(RATE_LIMITED);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit')).toMatch(/^"free";r=0;t=\d+$/);
    expect(refused.headers.get('retry-after')).toBe(refused.headers.get('ratelimit')!.split('t=')[1]);

    // Every route is limited, whatever it would have answered, and a bad token counts against
    // the address; GraphQL gets the same 429 with a RATE_LIMITED error.
    expect((await api.get('/api/no-such-route', { headers })).status).toBe(429);
    expect((await api.get('/api/openapi.json', { headers })).status).toBe(429);
    expect((await api.get('/api/v1/user/me', { headers, token: 'not-a-token' })).body).toEqual(RATE_LIMITED);
    const gql = await api.graphql('{ docs { slug } }', undefined, { headers });
    expectRefused(gql);
    expect(gql.body.errors).toEqual([{ message: 'Rate limit exceeded', extensions: { code: 'RATE_LIMITED', status: 429 } }]);
    expect(gql.body.data).toBeUndefined();

    // Health checks never are, and carry no limit headers.
    for (const path of ['/healthz', '/readyz']) {
      const health = await api.get(path, { headers });
      expect(health.status).toBe(200);
      for (const name of LIMIT_HEADERS) expect(health.headers.get(name)).toBeNull();
    }
  });

  it('counts an authenticated user on their own budget, shared by their token and API keys, REST and GraphQL', async () => {
    const headers = freshAddress();
    const created = await api.post('/api/v1/api-keys', { name: 'budget' }, { token: tokens.grace, headers });
    expect(created.status).toBe(201);
    const start = remainingOf(created);
    expect(created.headers.get('ratelimit-policy')).toBe('"free";q=100;w=60');

    const viaToken = await api.get('/api/v1/user/me', { token: tokens.grace, headers });
    const viaBearerKey = await api.get('/api/v1/user/me', { token: created.body.key, headers });
    const viaHeaderKey = await api.get('/api/v1/user/me', { headers: { ...headers, 'x-api-key': created.body.key } });
    // A GraphQL request counts once, however many fields it asks for.
    const viaGraphQL = await api.graphql('{ me { id } docs { slug } a: me { email } }', undefined, { token: tokens.grace, headers });
    expect(viaGraphQL.body.errors).toBeUndefined();
    expect([viaToken, viaBearerKey, viaHeaderKey, viaGraphQL].map(remainingOf)).toEqual([start - 1, start - 2, start - 3, start - 4]);

    // The address's own (anonymous) budget was not touched by any of it.
    expect(remainingOf(await api.get('/api/content/docs', { headers }))).toBe(99);
  });

  it('gives a Pro user 600 a minute', async () => {
    const reply = await api.get('/api/v1/user/me', { token: tokens.ada, headers: freshAddress() });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('ratelimit-policy')).toBe('"pro";q=600;w=60');
    expect(reply.headers.get('x-ratelimit-limit')).toBe('600');
    expect(reply.headers.get('ratelimit')).toMatch(/^"pro";r=\d+;t=\d+$/);
  });

  it('does not limit an Enterprise user, and sends no limit headers', async () => {
    const headers = freshAddress();
    const replies = [];
    for (let i = 0; i < 120; i++) replies.push(await api.get('/api/v1/user/me', { token: tokens.alan, headers }));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    for (const name of LIMIT_HEADERS) expect(replies.at(-1)!.headers.get(name)).toBeNull();
    const gql = await api.graphql('{ me { tier } }', undefined, { token: tokens.alan, headers });
    expect(gql.body.data.me.tier).toBe('ENTERPRISE');
    expect(gql.headers.get('ratelimit')).toBeNull();
  });
});

describe('the rolling window (RATE_LIMIT_FREE=3, RATE_LIMIT_WINDOW_S=3)', () => {
  const it = withSmallWindow;
  let server: TestServer;
  let api: Client;

  it.beforeAll(({ server: started, api: itsClient }) => {
    [server, api] = [started, itsClient];
  });

  it('frees one slot when the oldest request leaves the window, not the whole budget at a boundary; refusals cost nothing', async () => {
    const headers = freshAddress();
    const first = await api.get('/api/content/docs', { headers });
    const firstDone = Date.now();
    expect(first.headers.get('ratelimit-policy')).toBe('"free";q=3;w=3');
    await sleep(1500);
    expect(remainingOf(await api.get('/api/content/docs', { headers }))).toBe(1);
    expect(remainingOf(await api.get('/api/content/docs', { headers }))).toBe(0);
    // Refused requests while waiting: they must not push the freeing of a slot back.
    for (let i = 0; i < 5; i++) {
      const refused = await api.get('/api/content/docs', { headers });
      expectRefused(refused);
      // The first request frees its slot about 1.5 s from now.
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(2);
    }
    await sleep(Math.max(0, firstDone + 3000 + 100 - Date.now()));
    // Exactly one slot came back (a fixed window would have restored all three).
    const freed = await api.get('/api/content/docs', { headers });
    expect(freed.status).toBe(200);
    expect(freed.headers.get('x-ratelimit-remaining')).toBe('0');
    expectRefused(await api.get('/api/content/docs', { headers }));
  });

  it('counts against the address the proxy wrote last in X-Forwarded-For, whatever the client wrote before it (else any client could pick a fresh budget)', async () => {
    const proxySaw = freshAddress()['x-forwarded-for'];
    const remaining = [];
    for (let i = 0; i < 3; i++) {
      const chosen = `203.0.113.${100 + i}, 192.0.2.${i}`;
      remaining.push(remainingOf(await api.get('/api/content/docs', { headers: { 'x-forwarded-for': `${chosen}, ${proxySaw}` } })));
    }
    expect(remaining).toEqual([2, 1, 0]);
    expectRefused(await api.get('/api/content/docs', { headers: { 'x-forwarded-for': `198.51.100.250, ${proxySaw}` } }));
  });

  it('ignores X-Forwarded-For without TRUST_PROXY: the socket address is the client', async () => {
    const plain = await startTestServer({ env: { RATE_LIMIT_FREE: '3' } });
    try {
      const other = client(plain.url);
      const remaining = [];
      for (let i = 0; i < 4; i++) remaining.push((await other.get('/api/content/docs', { headers: freshAddress() })).status);
      expect(remaining).toEqual([200, 200, 200, 429]);
    } finally {
      await plain.stop();
    }
  });

  it('refuses an event stream over the limit with HTTP 429 before it opens', async () => {
    const headers = freshAddress();
    for (let i = 0; i < 3; i++) await api.get('/api/content/docs', { headers });
    const res = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { ...headers, accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'subscription { events { id } }' }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect((await res.json()).errors[0].extensions.code).toBe('RATE_LIMITED');
  });

  it('counts each operation on a WebSocket against its caller and refuses the one over the limit with RATE_LIMITED', async () => {
    const headers = freshAddress();
    const token = await graceFrom(api, freshAddress());
    const ws = wsClientFrom(server.url, headers, token);
    try {
      const results: unknown[] = [];
      for (let i = 0; i < 4; i++) {
        results.push(
          await new Promise((resolve) => {
            let last: unknown;
            ws.subscribe({ query: '{ docs { slug } }' }, {
              next: (value) => (last = value),
              error: (error) => resolve({ error }),
              complete: () => resolve(last),
            });
          }),
        );
      }
      expect(results.slice(0, 3).every((r) => Array.isArray((r as { data: { docs: unknown[] } }).data.docs))).toBe(true);
      const refused = results[3] as { error: { message: string; extensions: { code: string } }[] };
      expect(refused.error[0]).toMatchObject({ message: 'Rate limit exceeded', extensions: { code: 'RATE_LIMITED' } });
    } finally {
      await ws.dispose();
    }
  });
});

describe('operation limits per address (login 3/1m, register 2/1h, page views 3/1m)', () => {
  const it = withOperationLimits;
  let server: TestServer;
  let api: Client;
  const LOGIN = 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }';

  it.beforeAll(({ server: started, api: itsClient }) => {
    [server, api] = [started, itsClient];
  });

  it('allows 3 logins a minute from one address over REST and GraphQL together, then 429 with a numeric Retry-After', async () => {
    const headers = freshAddress();
    const wrong = { email: 'grace@example.com', password: 'not-her-password' };
    expect((await api.post('/api/auth/login', wrong, { headers })).status).toBe(401);
    expect((await api.graphql(LOGIN, { e: wrong.email, p: wrong.password }, { headers })).body.errors[0].extensions.code).toBe('INVALID_CREDENTIALS');
    expect((await api.post('/api/auth/login', { email: 'grace@example.com', password: 'hopper-1906' }, { headers })).status).toBe(200);

    const rest = await api.post('/api/auth/login', { email: 'grace@example.com', password: 'hopper-1906' }, { headers });
    expect(rest.status).toBe(429);
    expect(rest.body).toEqual(RATE_LIMITED);
    const retryAfter = Number(rest.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);

    const gql = await api.graphql(LOGIN, { e: 'grace@example.com', p: 'hopper-1906' }, { headers });
    expect(gql.status).toBe(429);
    expect(gql.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(gql.body.errors[0]).toMatchObject({ message: 'Rate limit exceeded', path: ['login'], extensions: { code: 'RATE_LIMITED', status: 429 } });
    expect(gql.body.data).toBeNull();

    // Another address is not affected.
    expect((await api.post('/api/auth/login', { email: 'grace@example.com', password: 'hopper-1906' }, { headers: freshAddress() })).status).toBe(200);
  });

  it('gives back the budget a request refused by an operation limit took, over REST and GraphQL', async () => {
    const headers = freshAddress();
    const nobody = { email: `nobody-${Date.now()}@example.com`, password: 'not-a-password' };
    const counted = [
      await api.post('/api/auth/login', nobody, { headers }),
      await api.graphql(LOGIN, { e: nobody.email, p: nobody.password }, { headers }),
      await api.post('/api/auth/login', nobody, { headers }),
    ];
    expect(counted.map(remainingOf)).toEqual([99, 98, 97]);

    // Refused by the login limit: each 429 shows the budget as it is after it (untouched).
    const refused = [
      await api.post('/api/auth/login', nobody, { headers }),
      await api.graphql(LOGIN, { e: nobody.email, p: nobody.password }, { headers }),
      await api.post('/api/auth/login', nobody, { headers }),
      await api.graphql(LOGIN, { e: nobody.email, p: nobody.password }, { headers }),
    ];
    expect(refused.map((r) => r.status)).toEqual([429, 429, 429, 429]);
    expect(refused.map((r) => r.headers.get('ratelimit'))).toEqual(Array(4).fill(expect.stringMatching(/^"free";r=97;t=\d+$/)));
    expect(refused.map(remainingOf)).toEqual([97, 97, 97, 97]);

    // The next request, of any route, counts as if the refused ones had not been sent.
    const next = await api.get('/api/content/docs', { headers });
    expect(next.headers.get('ratelimit')).toMatch(/^"free";r=96;t=\d+$/);
    expect((await api.graphql('{ docs { slug } }', undefined, { headers })).headers.get('x-ratelimit-remaining')).toBe('95');
  });

  it('gives back the budget a login refused by the failed-login throttle took (429 Too many failed login attempts)', async () => {
    const victim = `throttled-${Date.now()}@example.com`;
    // Ten failures for one e-mail, from addresses of their own (each within the login limit).
    let from = freshAddress();
    for (let i = 0; i < 10; i++) {
      if (i > 0 && i % 3 === 0) from = freshAddress();
      expect((await api.post('/api/auth/login', { email: victim, password: 'wrong-password' }, { headers: from })).status).toBe(401);
    }
    const headers = freshAddress();
    const refused = [
      await api.post('/api/auth/login', { email: victim, password: 'wrong-password' }, { headers }),
      await api.graphql(LOGIN, { e: victim, p: 'wrong-password' }, { headers }),
    ];
    expect(refused.map((r) => r.status)).toEqual([429, 429]);
    expect(refused[0]!.body).toMatchObject({ code: 429, message: 'Too many failed login attempts' });
    // Nothing counted: the first request this address has made that counts is the next one.
    expect(refused.map(remainingOf)).toEqual([100, 100]);
    expect(remainingOf(await api.get('/api/content/docs', { headers }))).toBe(99);
  });

  it('gives back the budget a WebSocket operation refused by an operation limit took', async () => {
    const headers = freshAddress();
    const token = await graceFrom(api, freshAddress());
    const ws = wsClientFrom(server.url, headers, token);
    try {
      const codes: unknown[] = [];
      for (let i = 0; i < 5; i++) {
        codes.push(
          await new Promise((resolve) => {
            let code: unknown;
            ws.subscribe({ query: LOGIN, variables: { e: `nobody-ws-${Date.now()}@example.com`, p: 'not-a-password' } }, {
              next: (value) => (code = value.errors?.[0]?.extensions?.code),
              error: (error) => resolve(error),
              complete: () => resolve(code),
            });
          }),
        );
      }
      expect(codes).toEqual(['INVALID_CREDENTIALS', 'INVALID_CREDENTIALS', 'INVALID_CREDENTIALS', 'RATE_LIMITED', 'RATE_LIMITED']);
    } finally {
      await ws.dispose();
    }
    // Three operations counted against grace, the two refused ones given back.
    expect(remainingOf(await api.get('/api/content/docs', { token }))).toBe(96);
  });

  it('does not count malformed login requests (400)', async () => {
    const headers = freshAddress();
    for (let i = 0; i < 5; i++) expect((await api.post('/api/auth/login', { email: 'grace@example.com' }, { headers })).status).toBe(400);
    expect((await api.post('/api/auth/login', { email: 'grace@example.com', password: 'hopper-1906' }, { headers })).status).toBe(200);
  });

  it('allows 2 registrations an hour per address; the refused one creates nothing', async () => {
    const headers = freshAddress();
    const stamp = Date.now();
    const account = (n: number) => ({ email: `limited-${stamp}-${n}@example.com`, password: 'long-enough-1', name: `Limited ${n}` });
    expect((await api.post('/api/auth/register', account(1), { headers })).status).toBe(201);
    const second = await api.graphql(
      'mutation($e: String!, $p: String!, $n: String!) { register(email: $e, password: $p, name: $n) { user { id } } }',
      { e: account(2).email, p: account(2).password, n: account(2).name },
      { headers },
    );
    expect(second.body.errors).toBeUndefined();
    const third = await api.post('/api/auth/register', account(3), { headers });
    expect(third.status).toBe(429);
    expect(third.body).toEqual(RATE_LIMITED);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(3000);
    // Not created: logging in as that account fails.
    expect((await api.post('/api/auth/login', { email: account(3).email, password: account(3).password }, { headers: freshAddress() })).status).toBe(401);
  });

  it('allows 3 page views a minute per address (GraphQL aliases count one each); refused ones are not recorded', async () => {
    const headers = freshAddress();
    const path = `/limited/${Date.now()}`;
    const two = await api.graphql(`mutation { a: recordPageView(path: "${path}") b: recordPageView(path: "${path}") }`, undefined, { headers });
    expect(two.body.data).toEqual({ a: true, b: true });
    expect((await api.post('/api/analytics/views', { path }, { headers })).status).toBe(202);
    const refused = await api.post('/api/analytics/views', { path }, { headers });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(RATE_LIMITED);
    const gql = await api.graphql(`mutation { recordPageView(path: "${path}") }`, undefined, { headers });
    expect(gql.status).toBe(429);
    expect(gql.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    const total = await api.get(`/api/analytics/views?path=${encodeURIComponent(path)}`, { headers: freshAddress() });
    expect(total.body).toEqual({ total: 3 });
  });
});

describe('when the shared counters are unreachable', () => {
  it('lets requests through without limit headers, promptly, and says so in the log', async () => {
    // Nothing listens on port 1: every hit fails at once (no offline queue).
    const server = await startTestServer({ env: { REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_FREE: '1' } });
    try {
      const api = client(server.url);
      const replies = [await api.get('/api/content/docs'), await api.get('/api/content/docs')];
      expect(replies.map((r) => r.status)).toEqual([200, 200]);
      for (const name of LIMIT_HEADERS) expect(replies[1]!.headers.get(name)).toBeNull();
      expect(server.logs.some((l) => l.msg === 'rate-limit store failed: letting requests through unlimited')).toBe(true);
      // The event bus's connections report the outage in the log too (not as unhandled errors).
      expect(server.logs.some((l) => String(l.msg).startsWith('event bus: Redis unreachable'))).toBe(true);
    } finally {
      await server.stop();
    }
  });
});
