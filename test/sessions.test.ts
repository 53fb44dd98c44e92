// Sessions as data (GET /api/v1/sessions, DELETE /api/v1/sessions/{id}, GraphQL sessions and
// revokeSession) over real HTTP: what a session records, that revoking one ends its access and
// refresh tokens at once on every instance, and that nobody reaches someone else's.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './support/assert.js';
import { client, type Client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { sql, startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
let other: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startTestServer({ kind: 'postgres', env: NO_RATE_LIMITS });
  // A second instance on the same database.
  other = await startTestServer({ kind: 'postgres', env: NO_RATE_LIMITS, reuse: { dataDir: server.config.dataDir, databaseUrl: server.databaseUrl! } });
  api = client(server.url);
});
afterAll(async () => {
  await other?.stop();
  await server?.stop();
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
