// Sessions as data (GET /api/v1/sessions, DELETE /api/v1/sessions/{id}, GraphQL sessions and
// revokeSession) over real HTTP: what a session records, that revoking one ends its access and
// refresh tokens at once on every instance, and that nobody reaches someone else's.
import { randomBytes } from 'node:crypto';
import { describe, expect } from 'vitest';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { expectError } from './support/assert.js';
import { instancesTest } from './support/fixtures.js';
import { client, type Client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { passRefreshGrace } from './support/refresh-grace.js';
import { sql, startTestServer, type TestServer } from './support/server.js';
import { sleep, waitFor } from './support/wait.js';

// Two instances on one database: `server`, which the tests ask, and `other`.
const it = instancesTest({ env: NO_RATE_LIMITS });

let server: TestServer;
let other: TestServer;
let api: Client;
it.beforeAll(({ a, b }) => {
  [server, other, api] = [a, b, client(a.url)];
});

interface Pair {
  token: string;
  refreshToken: string;
}

/** A fresh account, and a login of it with this User-Agent. */
async function account(): Promise<{ email: string; password: string; login(userAgent: string): Promise<Pair> }> {
  const email = `sessions-${randomBytes(5).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(10).toString('hex')}`;
  expect((await api.post('/api/auth/register', { email, password, name: 'Session Tester' }, { headers: { 'user-agent': 'Registrar/1' } })).status).toBe(201);
  return {
    email,
    password,
    login: async (userAgent) => {
      const reply = await api.post('/api/auth/login', { email, password }, { headers: { 'user-agent': userAgent } });
      expect(reply.status).toBe(200);
      return reply.body as Pair;
    },
  };
}

const sessions = (token: string) => api.get('/api/v1/sessions', { token });
/** The id of the session `token` belongs to. */
const currentId = async (token: string) => ((await sessions(token)).body.items as { id: string; current: boolean }[]).find((s) => s.current)!.id;

const EVENTS = 'subscription { events(types: ["analytics.hit"]) { path } }';

interface Stream {
  /** Resolves once the stream is delivering (a page view made after it opened has arrived). */
  live(): Promise<void>;
  /** Resolves once `path` has arrived. */
  received(path: string): Promise<void>;
  /** Resolves with the errors the stream ended with. */
  ended: Promise<readonly { message: string; extensions?: Record<string, unknown> }[]>;
  close(): void;
}

/**
 * Subscription.events with `credential` over graphql-sse (distinct connections on /graphql, or
 * either mode on /graphql/stream) or graphql-ws.
 */
function stream(transport: 'sse' | 'sse-stream' | 'sse-single' | 'ws', on: TestServer, credential: string): Stream {
  const paths: string[] = [];
  let end!: (errors: readonly { message: string; extensions?: Record<string, unknown> }[]) => void;
  const ended = new Promise<readonly { message: string; extensions?: Record<string, unknown> }[]>((resolve) => (end = resolve));
  const sink = {
    // graphql-sse carries an error that ends the stream as a last result with `errors`.
    next: (r: { data?: { events: { path: string } } | null; errors?: readonly { message: string }[] }) => {
      if (r.data) paths.push(r.data.events.path);
      if (r.errors) end(r.errors);
    },
    error: (error: unknown) => end(Array.isArray(error) ? error : [{ message: String(error) }]),
    complete: () => end([]),
  };
  const authorization = `Bearer ${credential}`;
  let close: () => void;
  if (transport !== 'ws') {
    const url = `${on.url}${transport === 'sse' ? '/graphql' : '/graphql/stream'}`;
    const sse = createSseClient({ url, singleConnection: transport === 'sse-single', headers: { authorization }, retryAttempts: 0 });
    const unsubscribe = sse.subscribe({ query: EVENTS }, sink);
    close = () => {
      unsubscribe();
      sse.dispose();
    };
  } else {
    const ws = createWsClient({ url: `${on.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization }, retryAttempts: 0, lazy: true });
    const unsubscribe = ws.subscribe({ query: EVENTS }, sink);
    close = () => {
      unsubscribe();
      void ws.dispose();
    };
  }
  const received = (path: string) => waitFor(`${path} on the ${transport} stream`, () => paths.includes(path), 20_000).then(() => undefined);
  return {
    received,
    async live() {
      // Page views until one made after subscribing arrives (the stream is registered by then).
      const probe = `/probe/${randomBytes(4).toString('hex')}`;
      for (let i = 0; !paths.some((p) => p.startsWith(probe)); i++) {
        if (i > 100) throw new Error(`the ${transport} stream never went live`);
        expect((await api.post('/api/analytics/views', { path: `${probe}/${i}` })).status).toBe(202);
        await sleep(100);
      }
    },
    ended,
    close: () => close(),
  };
}

describe('GET /api/v1/sessions', () => {
  it("lists the caller's live sessions, newest first, with their user agents, marking the current one and showing no token", async () => {
    const user = await account();
    const laptop = await user.login('Laptop/1.0 (X11)');
    const phone = await user.login('Phone/2.0 (Android)');
    const reply = await sessions(phone.token);
    expect(reply.status).toBe(200);
    const items = reply.body.items as { id: string; userAgent: string | null; current: boolean; createdAt: string; lastUsedAt: string | null }[];
    // Registration started one too.
    expect(items.map((s) => s.userAgent)).toEqual(['Phone/2.0 (Android)', 'Laptop/1.0 (X11)', 'Registrar/1']);
    expect(items.map((s) => s.current)).toEqual([true, false, false]);
    expect(Object.keys(items[0]!).sort()).toEqual(['createdAt', 'current', 'id', 'lastUsedAt', 'userAgent']);
    expect(items[0]!.id).toMatch(/^ses_/);
    expect(Date.parse(items[0]!.createdAt)).not.toBeNaN();
    // One clock: a new session was last used when it began (lastUsedAt came out before createdAt,
    // one stamped by the service, the other by the database).
    for (const item of items) expect(item.lastUsedAt).toBe(item.createdAt);
    const text = JSON.stringify(reply.body);
    for (const secret of [laptop.token, laptop.refreshToken, phone.token, phone.refreshToken]) expect(text).not.toContain(secret);
  });

  it('keeps a user agent printable and at most 512 characters', async () => {
    const user = await account();
    const pair = await user.login(`Long\tAgent/${'x'.repeat(2_000)}`);
    const [current] = (await sessions(pair.token)).body.items as { userAgent: string }[];
    expect(current!.userAgent).toHaveLength(512);
    expect(current!.userAgent.startsWith('LongAgent/xxx')).toBe(true);
  });

  it('needs a token', async () => {
    expectError(await api.get('/api/v1/sessions'), 403, 'Missing or invalid token');
  });

  it('records when a session was last used, at most once a minute', async () => {
    const user = await account();
    const pair = await user.login('Clock/1');
    const id = ((await sessions(pair.token)).body.items as { id: string }[])[0]!.id;
    const stored = async () => (await sql<{ lastUsedAt: Date }>(server, 'SELECT "lastUsedAt" FROM "Session" WHERE id = $1', [id]))[0]!.lastUsedAt.getTime();
    // Used within the minute of its login: no write.
    const atLogin = await stored();
    await api.get('/api/v1/user/me', { token: pair.token });
    expect(await stored()).toBe(atLogin);
    // Two minutes later (as far as the database knows), a use is recorded once.
    await sql(server, `UPDATE "Session" SET "lastUsedAt" = now() - interval '2 minutes' WHERE id = $1`, [id]);
    const before = await stored();
    await api.get('/api/v1/user/me', { token: pair.token });
    const recorded = await stored();
    expect(recorded).toBeGreaterThan(before + 60_000);
    await api.get('/api/v1/user/me', { token: pair.token });
    await client(other.url).get('/api/v1/user/me', { token: pair.token });
    expect(await stored()).toBe(recorded);
    const listed = ((await sessions(pair.token)).body.items as { lastUsedAt: string }[])[0]!.lastUsedAt;
    expect(Date.parse(listed)).toBe(recorded);
  });
});

describe('DELETE /api/v1/sessions/{id}', () => {
  it("ends that session's access and refresh tokens at once, on every instance, and leaves the others", async () => {
    const user = await account();
    const laptop = await user.login('Laptop/1.0');
    const phone = await user.login('Phone/2.0');
    const laptopId = ((await sessions(laptop.token)).body.items as { id: string; current: boolean }[]).find((s) => s.current)!.id;
    const elsewhere = client(other.url);
    expect((await elsewhere.get('/api/v1/user/me', { token: laptop.token })).status).toBe(200);

    const reply = await api.delete(`/api/v1/sessions/${laptopId}`, { token: phone.token });
    expect(reply.status).toBe(204);
    expectError(await api.get('/api/v1/user/me', { token: laptop.token }), 403, 'Missing or invalid token');
    expectError(await elsewhere.get('/api/v1/user/me', { token: laptop.token }), 403, 'Missing or invalid token');
    expectError(await elsewhere.post('/api/auth/refresh', { refreshToken: laptop.refreshToken }), 401, 'Invalid refresh token');
    // The phone's session goes on, and the list no longer shows the laptop's.
    const left = (await sessions(phone.token)).body.items as { id: string }[];
    expect(left.map((s) => s.id)).not.toContain(laptopId);
    expect((await api.post('/api/auth/refresh', { refreshToken: phone.refreshToken })).status).toBe(200);
    // Ending it again: it is no longer a live session.
    expectError(await api.delete(`/api/v1/sessions/${laptopId}`, { token: phone.token }), 404, 'Session not found');
  });

  it('ends the subscriptions its tokens opened, over SSE here and a WebSocket on the other instance, with UNAUTHENTICATED', async () => {
    const user = await account();
    const laptop = await user.login('Laptop/1.0');
    const phone = await user.login('Phone/2.0');
    const laptopId = ((await sessions(laptop.token)).body.items as { id: string; current: boolean }[]).find((s) => s.current)!.id;
    const overSse = stream('sse', server, laptop.token);
    const overWs = stream('ws', other, laptop.token);
    // The phone's stream goes on.
    const phoneStream = stream('sse', server, phone.token);
    await Promise.all([overSse, overWs, phoneStream].map((s) => s.live()));

    expect((await api.delete(`/api/v1/sessions/${laptopId}`, { token: phone.token })).status).toBe(204);
    for (const ended of await Promise.all([overSse.ended, overWs.ended])) {
      expect(ended).toMatchObject([{ message: 'Missing or invalid token', extensions: { code: 'UNAUTHENTICATED' } }]);
    }
    const path = `/after-revoke/${randomBytes(4).toString('hex')}`;
    expect((await api.post('/api/analytics/views', { path })).status).toBe(202);
    await phoneStream.received(path);
    phoneStream.close();
  });

  it("ends the subscriptions its tokens opened on /graphql/stream, in both of graphql-sse's modes, and the service goes on (it stopped)", async () => {
    const user = await account();
    const laptop = await user.login('Laptop/1.0');
    const phone = await user.login('Phone/2.0');
    const streams = [stream('sse-stream', server, laptop.token), stream('sse-single', server, laptop.token)];
    const phoneStream = stream('sse-single', server, phone.token);
    await Promise.all([...streams, phoneStream].map((s) => s.live()));

    expect((await api.delete(`/api/v1/sessions/${await currentId(laptop.token)}`, { token: phone.token })).status).toBe(204);
    for (const ended of await Promise.all(streams.map((s) => s.ended))) {
      expect(ended).toMatchObject([{ message: 'Missing or invalid token', extensions: { code: 'UNAUTHENTICATED' } }]);
    }
    const path = `/after-revoke/${randomBytes(4).toString('hex')}`;
    expect((await api.post('/api/analytics/views', { path })).status).toBe(202);
    await phoneStream.received(path);
    phoneStream.close();
  });

  it('a WebSocket runs nothing more as a revoked session or API key: each operation checks its credential, as a request does', async () => {
    const user = await account();
    const laptop = await user.login('Laptop/1.0');
    const phone = await user.login('Phone/2.0');
    const created = await api.post('/api/v1/api-keys', { name: 'socket' }, { token: phone.token });
    expect(created.status).toBe(201);
    const { id: keyId, key } = created.body as { id: string; key: string };
    // Not lazy: each socket stays connected until disposed, so every operation below runs on the
    // socket opened with the credential (a new connection with a revoked one is refused, 4403).
    const sockets = [laptop.token, key].map((credential) =>
      createWsClient({ url: `${server.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${credential}` }, retryAttempts: 0, lazy: false }),
    );
    /** One operation's last result on the socket. */
    const run = (socket: (typeof sockets)[number], query: string) =>
      new Promise<{ data?: unknown; errors?: unknown }>((resolve, reject) => {
        let last: { data?: unknown; errors?: unknown } = {};
        socket.subscribe({ query }, { next: (result) => (last = result), error: reject, complete: () => resolve(last) });
      });
    for (const socket of sockets) expect(await run(socket, '{ me { email } }')).toEqual({ data: { me: { email: user.email } } });
    // Each socket stays open across the revocation (an open subscription keeps it).
    const holds = sockets.map((socket) => socket.subscribe({ query: EVENTS }, { next: () => undefined, error: () => undefined, complete: () => undefined }));

    expect((await api.delete(`/api/v1/sessions/${await currentId(laptop.token)}`, { token: phone.token })).status).toBe(204);
    expect((await api.delete(`/api/v1/api-keys/${keyId}`, { token: phone.token })).status).toBe(204);
    const refused = { errors: [expect.objectContaining({ message: 'Missing or invalid token', extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) })] };
    for (const socket of sockets) {
      expect(await run(socket, '{ me { email } }')).toMatchObject(refused);
      // It minted a key that outlived the credential.
      expect(await run(socket, 'mutation { createApiKey(name: "after") { key } }')).toMatchObject(refused);
    }
    const keys = (await api.get('/api/v1/api-keys', { token: phone.token })).body.items as { name: string }[];
    expect(keys.map((k) => k.name)).not.toContain('after');
    holds.forEach((unsubscribe) => unsubscribe());
    await Promise.all(sockets.map((socket) => socket.dispose()));
  });

  it("a session's row deleted (its user deleted) ends the streams it opened, as a revocation does (they went on for good)", async () => {
    const user = await account();
    const laptop = await user.login('Laptop/1.0');
    const overSse = stream('sse', server, laptop.token);
    const overWs = stream('ws', other, laptop.token);
    await Promise.all([overSse, overWs].map((s) => s.live()));
    await sql(server, `DELETE FROM "User" WHERE email = $1`, [user.email]);
    // Found by each instance's next check (every 5 s), as a revocation made elsewhere is.
    for (const ended of await Promise.all([overSse.ended, overWs.ended])) {
      expect(ended).toMatchObject([{ message: 'Missing or invalid token', extensions: { code: 'UNAUTHENTICATED' } }]);
    }
  });

  it('an API key revoked ends the subscriptions it opened', async () => {
    const user = await account();
    const { token } = await user.login('Script/1');
    const created = await api.post('/api/v1/api-keys', { name: 'streamer' }, { token });
    expect(created.status).toBe(201);
    const { id, key } = created.body as { id: string; key: string };
    const keyed = stream('ws', other, key);
    await keyed.live();
    expect((await api.delete(`/api/v1/api-keys/${id}`, { token })).status).toBe(204);
    expect(await keyed.ended).toMatchObject([{ message: 'Missing or invalid token', extensions: { code: 'UNAUTHENTICATED' } }]);
  });

  it("answers 404 for someone else's session and leaves it working", async () => {
    const alice = await account();
    const bob = await account();
    const alicePair = await alice.login('Alice/1');
    const bobPair = await bob.login('Bob/1');
    const aliceId = ((await sessions(alicePair.token)).body.items as { id: string }[])[0]!.id;
    expectError(await api.delete(`/api/v1/sessions/${aliceId}`, { token: bobPair.token }), 404, 'Session not found');
    expect((await api.get('/api/v1/user/me', { token: alicePair.token })).status).toBe(200);
  });

  it('answers 404 for ids no session has (NUL, control characters, huge, other kinds), changing nothing', async () => {
    const user = await account();
    const pair = await user.login('Fuzz/1');
    const before = JSON.stringify((await sessions(pair.token)).body);
    for (const id of ['%00', 'ses_%00', 'ses_%0A', encodeURIComponent('ses_' + 'a'.repeat(10_000)), 'key_01abc', 'ses_01%C3%A9', encodeURIComponent('\u{1F600}')]) {
      expectError(await api.delete(`/api/v1/sessions/${id}`, { token: pair.token }), 404, 'Session not found');
    }
    expect(JSON.stringify((await sessions(pair.token)).body)).toBe(before);
    expect((await api.get('/api/v1/user/me', { token: pair.token })).status).toBe(200);
  });
});

describe('GraphQL sessions and revokeSession', () => {
  it('are the same list and the same revocation', async () => {
    const user = await account();
    const first = await user.login('First/1');
    const second = await user.login('Second/1');
    const gql = (token: string, query: string, variables: Record<string, unknown> = {}) => api.post('/graphql', { query, variables }, { token });
    const listed = await gql(second.token, '{ sessions { id userAgent current lastUsedAt createdAt } }');
    expect(listed.body.errors).toBeUndefined();
    expect(listed.body.data.sessions).toEqual((await sessions(second.token)).body.items);
    const firstId = (listed.body.data.sessions as { id: string; userAgent: string }[]).find((s) => s.userAgent === 'First/1')!.id;
    const revoked = await gql(second.token, 'mutation ($id: ID!) { revokeSession(id: $id) }', { id: firstId });
    expect(revoked.body).toEqual({ data: { revokeSession: true } });
    expectError(await api.get('/api/v1/user/me', { token: first.token }), 403, 'Missing or invalid token');
    const again = await gql(second.token, 'mutation ($id: ID!) { revokeSession(id: $id) }', { id: firstId });
    expect(again.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('housekeeping of sign-in records', () => {
  const refresh = async (refreshToken: string): Promise<Pair> => {
    const reply = await api.post('/api/auth/refresh', { refreshToken });
    expect(reply.status).toBe(200);
    return reply.body as Pair;
  };
  const tokenRows = async (sessionId: string) =>
    (await sql<{ tokenHash: string }>(server, 'SELECT "tokenHash" FROM "RefreshToken" WHERE "sessionId" = $1 ORDER BY "createdAt"', [sessionId])).length;

  it('deletes expired refresh tokens, sessions ended longer ago than an access token lives and keys revoked over a day ago, and keeps what can still be used', async () => {
    const user = await account();
    // A live session refreshed twice: its first token expired, its second is used, its third current.
    const first = await user.login('Kept/1');
    const keptId = await currentId(first.token);
    const second = await refresh(first.refreshToken);
    const third = await refresh(second.refreshToken);
    await sql(server, `UPDATE "RefreshToken" SET "expiresAt" = now() - interval '1 minute' WHERE "sessionId" = $1 AND "usedAt" = (SELECT min("usedAt") FROM "RefreshToken" WHERE "sessionId" = $1)`, [keptId]);
    // Sessions that ended two days ago (the access token lifetime is one day), and an hour ago.
    const ended: Record<string, string> = {};
    for (const name of ['revokedLongAgo', 'revokedLately', 'expiredLongAgo', 'expiredLately']) ended[name] = await currentId((await user.login(`${name}/1`)).token);
    for (const name of ['revokedLongAgo', 'revokedLately']) expect((await api.delete(`/api/v1/sessions/${ended[name]}`, { token: third.token })).status).toBe(204);
    await sql(server, `UPDATE "Session" SET "revokedAt" = now() - interval '2 days' WHERE id = $1`, [ended.revokedLongAgo]);
    for (const [name, ago] of [['expiredLongAgo', '2 days'], ['expiredLately', '1 hour']] as const) {
      await sql(server, `UPDATE "Session" SET "expiresAt" = now() - $2::interval WHERE id = $1`, [ended[name], ago]);
      await sql(server, `UPDATE "RefreshToken" SET "expiresAt" = now() - $2::interval WHERE "sessionId" = $1`, [ended[name], ago]);
    }
    // API keys revoked two days ago and lately.
    const keys: Record<string, string> = {};
    for (const name of ['keyRevokedLongAgo', 'keyRevokedLately']) {
      keys[name] = ((await api.post('/api/v1/api-keys', { name }, { token: third.token })).body as { id: string }).id;
      expect((await api.delete(`/api/v1/api-keys/${keys[name]}`, { token: third.token })).status).toBe(204);
    }
    await sql(server, `UPDATE "ApiKey" SET "revokedAt" = now() - interval '2 days' WHERE id = $1`, [keys.keyRevokedLongAgo]);
    const listed = JSON.stringify((await sessions(third.token)).body);

    // Housekeeping runs as an instance starts (then every ten minutes).
    const housekeeper = await startTestServer({ kind: 'postgres', env: NO_RATE_LIMITS, reuse: { dataDir: server.config.dataDir, databaseUrl: server.databaseUrl! } });
    try {
      await waitFor('the ended sessions and the expired tokens deleted', async () => {
        const left = await sql<{ id: string }>(server, 'SELECT id FROM "Session" WHERE id = ANY($1)', [Object.values(ended)]);
        const keysLeft = await sql(server, 'SELECT id FROM "ApiKey" WHERE id = ANY($1)', [Object.values(keys)]);
        return left.length === 2 && keysLeft.length === 1 && (await tokenRows(keptId)) === 2 && (await tokenRows(ended.expiredLately!)) === 0;
      });
    } finally {
      await housekeeper.stop();
    }
    const left = await sql<{ id: string }>(server, 'SELECT id FROM "Session" WHERE id = ANY($1) ORDER BY id', [Object.values(ended)]);
    expect(left.map((s) => s.id)).toEqual([ended.revokedLately, ended.expiredLately].sort());
    expect(await tokenRows(ended.revokedLately!)).toBe(1);
    expect(await tokenRows(ended.revokedLongAgo!)).toBe(0);
    expect(await sql(server, 'SELECT id FROM "ApiKey" WHERE id = ANY($1)', [Object.values(keys)])).toEqual([{ id: keys.keyRevokedLately }]);

    // What the user sees is unchanged: the live sessions, the current tokens.
    expect(JSON.stringify((await sessions(third.token)).body)).toBe(listed);
    expect((await api.get('/api/v1/user/me', { token: third.token })).status).toBe(200);
    // The used token was kept: presenting it again past the reuse grace (its first exchange moved
    // back rather than waited out) is still reuse, and ends the session.
    await passRefreshGrace(server, second.refreshToken);
    expectError(await api.post('/api/auth/refresh', { refreshToken: second.refreshToken }), 401, 'Invalid refresh token');
    expectError(await api.get('/api/v1/user/me', { token: third.token }), 403, 'Missing or invalid token');
  });

  it('a logout with an expired refresh token ends nothing, as with an unknown one', async () => {
    const user = await account();
    const pair = await user.login('Stale/1');
    const id = await currentId(pair.token);
    await sql(server, `UPDATE "RefreshToken" SET "expiresAt" = now() - interval '1 second' WHERE "sessionId" = $1`, [id]);
    expect((await api.post('/api/auth/logout', { refreshToken: pair.refreshToken })).status).toBe(204);
    expect((await api.get('/api/v1/user/me', { token: pair.token })).status).toBe(200);
    expectError(await api.post('/api/auth/refresh', { refreshToken: pair.refreshToken }), 401, 'Invalid refresh token');
    // Reuse detection ignores an expired token too: the session goes on.
    expect((await api.get('/api/v1/user/me', { token: pair.token })).status).toBe(200);
  });
});

describe('at most 100 live sessions a user', () => {
  it('a login past 100 ends the least recently used session, whose tokens stop working; the list stays at 100', async () => {
    const user = await account();
    // Registration started one; this login is the least recently used one, as far as the database knows.
    const stale = await user.login('LeastUsed/1');
    const staleId = await currentId(stale.token);
    const age = () => sql(server, `UPDATE "Session" SET "lastUsedAt" = now() - interval '10 days' WHERE id = $1`, [staleId]);
    await age();
    // 98 more, used lately: 100 live in all.
    await sql(
      server,
      `INSERT INTO "Session" (id, "userId", "expiresAt", "userAgent", "lastUsedAt")
       SELECT 'ses_filler' || g || substr(md5(random()::text), 1, 8), u.id, now() + interval '1 day', 'Filler/' || g, now() - interval '1 hour'
         FROM "User" u, generate_series(1, 98) g WHERE u.email = $1`,
      [user.email],
    );
    expect((await api.get('/api/v1/user/me', { token: stale.token })).status).toBe(200);
    // That request recorded a use (ten days had passed): ten days again.
    await age();

    const fresh = await user.login('Fresh/1');
    const listed = (await sessions(fresh.token)).body.items as { userAgent: string }[];
    expect(listed).toHaveLength(100);
    expect(listed[0]!.userAgent).toBe('Fresh/1');
    expect(listed.map((s) => s.userAgent)).not.toContain('LeastUsed/1');
    expectError(await api.get('/api/v1/user/me', { token: stale.token }), 403, 'Missing or invalid token');
    expectError(await api.post('/api/auth/refresh', { refreshToken: stale.refreshToken }), 401, 'Invalid refresh token');
    // The registration's session, used more lately than the stale one, goes on.
    expect(listed.map((s) => s.userAgent)).toContain('Registrar/1');
    const [ended] = await sql<{ revokedReason: string }>(server, `SELECT "revokedReason" FROM "Session" WHERE id = $1`, [staleId]);
    expect(ended!.revokedReason).toBe('more than 100 live sessions');
  });
});
