// A subscription opened with an access token ends when that token expires, as every other use of
// the token does (CONTRACT.md: a token "expired" is `Missing or invalid token`). It used to stream
// on for as long as its session lived: days or weeks after the token stopped opening anything else,
// and even past the session's own expiry, until the housekeeping deleted the session. Over SSE
// (distinct connections and /graphql/stream) and graphql-ws alike, the stream ends with the
// contract's UNAUTHENTICATED, and a stream opened by an API key (which does not expire) goes on.
//
// ACCESS_TOKEN_TTL is at least 60 s, so the short-lived token is signed here with the test
// server's key, for a real session, as the service itself signs them.
import { randomBytes } from 'node:crypto';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import { SignJWT, decodeJwt } from 'jose';
import { describe, expect } from 'vitest';
import WebSocket from 'ws';
import { serverTest } from './support/fixtures.js';
import type { Client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import type { TestServer } from './support/server.js';
import { sleep, waitFor } from './support/wait.js';

const JWT_SECRET = `token-expiry-${randomBytes(24).toString('hex')}`;
const EVENTS = 'subscription { events(types: ["analytics.hit"]) { path } }';

type Errors = readonly { message: string; extensions?: Record<string, unknown> }[];

const it = serverTest({ kind: 'postgres', env: { ...NO_RATE_LIMITS, JWT_SECRET } });

// For the helpers below: the fixture's server and its client.
let server: TestServer;
let api: Client;
it.beforeAll(({ server: started, api: itsClient }) => {
  [server, api] = [started, itsClient];
});

/** An access token of ada's session that expires in `seconds`, signed as the service signs them. */
async function shortLivedToken(seconds: number): Promise<string> {
  const { sid, sub } = decodeJwt((await api.loginAs('ada')).token) as { sid: string; sub: string };
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sid })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(sub)
    .setIssuedAt(now)
    .setExpirationTime(now + seconds)
    .sign(new TextEncoder().encode(JWT_SECRET));
}

function stream(transport: 'sse' | 'sse-single' | 'ws', credential: string) {
  const paths: string[] = [];
  let end!: (errors: Errors) => void;
  const ended = new Promise<Errors>((resolve) => (end = resolve));
  const sink = {
    next: (r: { data?: { events: { path: string } } | null; errors?: Errors }) => {
      if (r.data) paths.push(r.data.events.path);
      if (r.errors) end(r.errors);
    },
    error: (error: unknown) => end(Array.isArray(error) ? error : [{ message: String(error) }]),
    complete: () => end([]),
  };
  const authorization = `Bearer ${credential}`;
  let close: () => void;
  if (transport === 'ws') {
    const ws = createWsClient({ url: `${server.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization }, retryAttempts: 0, lazy: true });
    const unsubscribe = ws.subscribe({ query: EVENTS }, sink);
    close = () => {
      unsubscribe();
      void ws.dispose();
    };
  } else {
    const url = `${server.url}${transport === 'sse' ? '/graphql' : '/graphql/stream'}`;
    const sse = createSseClient({ url, singleConnection: transport === 'sse-single', headers: { authorization }, retryAttempts: 0 });
    const unsubscribe = sse.subscribe({ query: EVENTS }, sink);
    close = () => {
      unsubscribe();
      sse.dispose();
    };
  }
  return {
    paths,
    ended,
    close,
    /** Resolves once a page view made after subscribing has arrived. */
    async live(): Promise<void> {
      const probe = `/probe/${randomBytes(4).toString('hex')}`;
      for (let i = 0; !paths.some((p) => p.startsWith(probe)); i++) {
        if (i > 100) throw new Error(`the ${transport} stream never went live`);
        expect((await api.post('/api/analytics/views', { path: `${probe}/${i}` })).status).toBe(202);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

describe('a subscription outliving its access token', () => {
  it('ends with UNAUTHENTICATED once the token expires, over SSE, /graphql/stream and a WebSocket; an API key stream goes on', async () => {
    const token = await shortLivedToken(4);
    const created = await api.post('/api/v1/api-keys', { name: 'expiry' }, { token: (await api.loginAs('ada')).token });
    expect(created.status).toBe(201);
    const streams = (['sse', 'sse-single', 'ws'] as const).map((t) => stream(t, token));
    const byKey = stream('sse', created.body.key as string);
    await Promise.all([...streams, byKey].map((s) => s.live()));

    // The token expires; every other use of it is refused at once.
    await waitFor('the token to expire', async () => (await api.get('/api/v1/user/me', { token })).status === 403, 10_000);
    // Within the credential watch's interval (5 s), not at the session's end.
    const outcome = await Promise.race([Promise.all(streams.map((s) => s.ended)), sleep(20_000).then(() => 'still streaming' as const)]);
    expect(outcome).not.toBe('still streaming');
    for (const ended of outcome as Errors[]) {
      expect(ended).toMatchObject([{ message: 'Missing or invalid token', extensions: { code: 'UNAUTHENTICATED' } }]);
    }
    const path = `/after-expiry/${randomBytes(4).toString('hex')}`;
    expect((await api.post('/api/analytics/views', { path })).status).toBe(202);
    await waitFor('the page view on the API key stream', () => byKey.paths.includes(path), 10_000);
    for (const s of streams) expect(s.paths).not.toContain(path);
    for (const s of [...streams, byKey]) s.close();
  });
});
