// Authentication over real HTTP against the real server and a real PostgreSQL database:
// login, the login throttle, register, refresh rotation with reuse detection, logout, every kind
// of bad token, the GraphQL mutations, and that no credential ever reaches the logs.
import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, decodeJwt } from 'jose';
import pg from 'pg';
import { beforeAll, describe, expect } from 'vitest';
import { serverTest } from './support/fixtures.js';
import type { Client, Reply } from './support/http.js';
import { sql as sqlOn, type TestServer } from './support/server.js';
import { expectError } from './support/assert.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { passRefreshGrace } from './support/refresh-grace.js';

const JWT_SECRET = 'auth-test-secret-0123456789-abcdefghijklmnop';
const MISSING_OR_INVALID = { error: true, code: 403, message: 'Missing or invalid token' };
const INVALID_CREDENTIALS = { error: true, code: 401, message: 'Invalid email or password' };
const INVALID_REFRESH = { error: true, code: 401, message: 'Invalid refresh token' };

interface TokenPair {
  token: string;
  expiresIn: number;
  refreshToken: string;
  refreshExpiresIn: number;
}
interface Me {
  id: string;
  name: string;
  email: string;
  joined: string;
  role: string;
  tier: string;
}
interface Account {
  email: string;
  password: string;
  user: Me;
  pair: TokenPair;
}

const it = serverTest({
  kind: 'postgres',
  // A known secret lets tests sign their own (expired, forged) tokens. The general rate limit is
  // raised so that the many unauthenticated requests of this file never trip it.
  env: { JWT_SECRET, ...NO_RATE_LIMITS },
});

// The fixture's server and client, for the helpers below.
let server: TestServer;
let api: Client;
it.beforeAll(({ server: started, api: itsClient }) => {
  [server, api] = [started, itsClient];
});

const sql = <R extends pg.QueryResultRow>(text: string, params: unknown[] = []) => sqlOn<R>(server, text, params);
/** Every credential used in this file; none may appear in the logs. */
const secrets = new Set<string>([JWT_SECRET]);

const unique = (label: string) => `${label}-${randomBytes(5).toString('hex')}@example.com`;
const strongPassword = () => {
  const p = `pw-${randomBytes(12).toString('hex')}`;
  secrets.add(p);
  return p;
};
const remember = <T extends { token: string; refreshToken: string }>(pair: T): T => {
  secrets.add(pair.token);
  secrets.add(pair.refreshToken);
  return pair;
};

/** Registers a throwaway account over REST (so tests never disturb each other or the demo users). */
async function register(label: string): Promise<Account> {
  const email = unique(label);
  const password = strongPassword();
  const reply = await api.post('/api/auth/register', { email, password, name: `Test ${label}` });
  expect(reply.status, reply.text).toBe(201);
  const { user, ...pair } = reply.body as TokenPair & { user: Me };
  return { email, password, user, pair: remember(pair) };
}

async function login(email: string, password: string): Promise<TokenPair> {
  return remember(await api.login(email, password));
}

/** Exactly `{"error":true,"code":403,"message":"Missing or invalid token"}`, byte for byte. */
function expectInvalidToken(reply: Reply): void {
  expect(reply.status, reply.text).toBe(403);
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
  expect(reply.body).toEqual(MISSING_OR_INVALID);
  expect(reply.text).toBe(JSON.stringify(MISSING_OR_INVALID));
}

/** A 400 that names `field` in its message (and in details.field). */
function expectBadField(reply: Reply, field: string): void {
  expectError(reply, 400);
  expect(reply.body.message).toMatch(new RegExp(`^${field.replace('.', '\\.')}\\b`));
  expect(reply.body.details).toEqual({ field });
}

function expectTokenPair(body: unknown, ttl = 86_400): TokenPair {
  expect(Object.keys(body as object).sort()).toEqual(['expiresIn', 'refreshExpiresIn', 'refreshToken', 'token']);
  const pair = body as TokenPair;
  expect(typeof pair.token).toBe('string');
  expect(typeof pair.refreshToken).toBe('string');
  expect(pair.refreshToken.length).toBeGreaterThanOrEqual(32);
  expect(pair.expiresIn).toBe(ttl);
  expect(pair.refreshExpiresIn).toBe(2_592_000);
  const claims = decodeJwt(pair.token);
  expect(claims.exp! - claims.iat!).toBe(pair.expiresIn);
  expect(typeof claims.sub).toBe('string');
  expect(typeof claims.sid).toBe('string');
  return pair;
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Signs an HS256 token with any claims, with the server's secret unless told otherwise. */
async function sign(claims: Record<string, unknown>, options: { secret?: string; iat?: number; exp?: number | null } = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt(options.iat ?? now);
  if (options.exp !== null) jwt.setExpirationTime(options.exp ?? now + 3600);
  return jwt.sign(new TextEncoder().encode(options.secret ?? JWT_SECRET));
}

const me = (token?: string, headers?: Record<string, string>) => api.get('/api/v1/user/me', { token, headers });
const lessons = (token?: string, headers?: Record<string, string>) => api.get('/api/v1/lessons', { token, headers });

describe('POST /api/auth/login', () => {
  it('answers 200 with a token pair whose expiresIn is exp - iat (24 h by default)', async () => {
    const reply = await api.post('/api/auth/login', { email: 'ada@example.com', password: 'lovelace-1815' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    const pair = remember(expectTokenPair(reply.body));
    const claims = decodeJwt(pair.token);
    expect(claims.exp! - claims.iat!).toBe(86_400);
    expect(decodeJwt(pair.token)).not.toHaveProperty('password');
    // /api/auth/* needs no token: a stale or broken one does not stand in the way of signing in.
    const stale = await api.post('/api/auth/login', { email: 'ada@example.com', password: 'lovelace-1815' }, { token: 'stale.broken.token' });
    expect(stale.status).toBe(200);
    remember(stale.body);

    const who = await me(pair.token);
    expect(who.status).toBe(200);
    expect(who.body).toMatchObject({ id: claims.sub, email: 'ada@example.com', role: 'ADMIN', tier: 'PRO' });
  });

  it('matches the e-mail case-insensitively', async () => {
    const pair = await login('ADA@Example.com', 'lovelace-1815');
    expect((await me(pair.token)).body.email).toBe('ada@example.com');

    const account = await register('MixedCase');
    const upper = await login(account.email.toUpperCase(), account.password);
    expect((await me(upper.token)).body.id).toBe(account.user.id);
  });

  it('answers a wrong password and an unknown e-mail with the identical 401', async () => {
    const account = await register('wrongpw');
    const wrong = await api.post('/api/auth/login', { email: account.email, password: 'not-the-password' });
    const unknown = await api.post('/api/auth/login', { email: unique('nobody'), password: account.password });
    for (const reply of [wrong, unknown]) {
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual(INVALID_CREDENTIALS);
      expect(reply.text).toBe(JSON.stringify(INVALID_CREDENTIALS));
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      expect(reply.headers.get('retry-after')).toBeNull();
    }
    const names = (r: Reply) => [...r.headers.keys()].filter((h) => !['date', 'x-request-id'].includes(h)).sort();
    expect(names(wrong)).toEqual(names(unknown));
    // A right password that differs only in case is wrong.
    expectError(await api.post('/api/auth/login', { email: account.email, password: account.password.toUpperCase() }), 401, 'Invalid email or password');
  });

  it('answers malformed requests with a 400 that names the field', async () => {
    const post = (body: unknown, headers?: Record<string, string>) => api.post('/api/auth/login', body, { headers });
    expectBadField(await api.request('POST', '/api/auth/login'), 'email');
    expectBadField(await post('{"email": "ada@example.com", "password": '), 'body');
    expectBadField(await post('not json at all'), 'body');
    expectBadField(await post({ password: 'lovelace-1815' }), 'email');
    expectBadField(await post({ email: 'ada@example.com' }), 'password');
    expectBadField(await post({ email: 'ada@example.com', password: 1815 }), 'password');
    expectBadField(await post({ email: 42, password: 'lovelace-1815' }), 'email');
    expectBadField(await post({ email: 'not-an-email', password: 'lovelace-1815' }), 'email');
    expectBadField(await post({ email: 'ada@example.com', password: '' }), 'password');
    expectBadField(await post({ email: 'ada@example.com', password: 'lovelace-1815', remember: true }), 'remember');
    expect((await post({ email: 'ada@example.com', password: 'lovelace-1815', remember: true })).body.message).toBe('remember: unknown field');
    expect((await post({ password: 'x' })).body.message).toBe('email: is required');
  });

  it('answers a JSON body that is not an object with a 400 that names the body', async () => {
    for (const body of ['null', '[]', '"ada@example.com"', '42']) {
      expectBadField(await api.post('/api/auth/login', body), 'body');
    }
  });

  it('does not count a 400 as a failed attempt', async () => {
    const account = await register('malformed');
    for (let i = 0; i < 12; i++) {
      const reply = await api.post('/api/auth/login', i % 2
        ? { email: account.email, password: account.password, extra: i }
        : { email: account.email, password: 'x'.repeat(257) });
      expect(reply.status).toBe(400);
    }
    const failures = await sql<{ n: string }>('SELECT count(*) AS n FROM "LoginFailure" WHERE email = $1', [account.email]);
    expect(Number(failures[0]!.n)).toBe(0);
    expectTokenPair(remember((await api.post('/api/auth/login', { email: account.email, password: account.password })).body));
  });
});

describe('login throttle', () => {
  it('refuses even the right password with 429 and Retry-After after 10 failures in 15 minutes', async () => {
    const victim = await register('throttled');
    const bystander = await register('bystander');

    for (let i = 0; i < 10; i++) {
      const reply = await api.post('/api/auth/login', { email: victim.email, password: `wrong-${i}-password` });
      expect(reply.status, `attempt ${i + 1}`).toBe(401);
      expect(reply.body).toEqual(INVALID_CREDENTIALS);
    }

    const refused = await api.post('/api/auth/login', { email: victim.email, password: victim.password });
    expectError(refused, 429, 'Too many failed login attempts');
    const retryAfter = refused.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeLessThanOrEqual(900);

    // Any case of the e-mail is the same account, and a wrong password is refused the same way.
    expectError(await api.post('/api/auth/login', { email: victim.email.toUpperCase(), password: victim.password }), 429, 'Too many failed login attempts');
    const wrongAgain = await api.post('/api/auth/login', { email: victim.email, password: 'still-wrong' });
    expectError(wrongAgain, 429, 'Too many failed login attempts');
    expect(Number(wrongAgain.headers.get('retry-after'))).toBeGreaterThan(0);

    // GraphQL is throttled too: HTTP 429 with Retry-After and a RATE_LIMITED error.
    const gql = await api.graphql('mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }', { e: victim.email, p: victim.password });
    expect(gql.status).toBe(429);
    expect(Number(gql.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(gql.headers.get('retry-after'))).toBeLessThanOrEqual(900);
    expect(gql.body.errors[0]).toMatchObject({ message: 'Too many failed login attempts', extensions: { code: 'RATE_LIMITED' } });

    // The account's existing sessions and other accounts are unaffected.
    expect((await me(victim.pair.token)).status).toBe(200);
    expectTokenPair(remember((await api.post('/api/auth/login', { email: bystander.email, password: bystander.password })).body));
  });

  it('throttles an unknown e-mail the same way (no account enumeration)', async () => {
    const email = unique('ghost');
    for (let i = 0; i < 10; i++) {
      expect((await api.post('/api/auth/login', { email, password: 'whatever-1' })).status).toBe(401);
    }
    const refused = await api.post('/api/auth/login', { email, password: 'whatever-1' });
    expectError(refused, 429, 'Too many failed login attempts');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('cannot be outrun by concurrent guesses: at most 10 are checked', async () => {
    const account = await register('burst');
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) => api.post('/api/auth/login', { email: account.email, password: `burst-guess-${i}` })),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    for (const r of replies.filter((x) => x.status === 429)) {
      expect(r.body).toMatchObject({ error: true, code: 429, message: 'Too many failed login attempts' });
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Refused attempts are not failures of their own, but the 10 real ones still lock the e-mail.
    const failures = await sql<{ n: string }>('SELECT count(*) AS n FROM "LoginFailure" WHERE email = $1', [account.email]);
    expect(Number(failures[0]!.n)).toBe(statuses.filter((s) => s === 401).length);
  });

  it('forgets failures once they are older than 15 minutes, whatever e-mail they were for (each stayed in the database forever)', async () => {
    const tried = unique('tried-once');
    for (let i = 0; i < 3; i++) expect((await api.post('/api/auth/login', { email: tried, password: 'wrong-password' })).status).toBe(401);
    const count = async () => Number((await sql<{ n: string }>('SELECT count(*) AS n FROM "LoginFailure" WHERE email = $1', [tried]))[0]!.n);
    expect(await count()).toBe(3);
    await sql(`UPDATE "LoginFailure" SET at = at - interval '16 minutes' WHERE email = $1`, [tried]);
    // Someone else's attempt, right or wrong, clears them.
    expect((await api.post('/api/auth/login', { email: unique('someone-else'), password: 'wrong-password' })).status).toBe(401);
    expect(await count()).toBe(0);
  });

  it('frees the window once the failures are older than 15 minutes', async () => {
    const account = await register('aged');
    for (let i = 0; i < 10; i++) {
      expect((await api.post('/api/auth/login', { email: account.email, password: 'wrong-password' })).status).toBe(401);
    }
    expect((await api.post('/api/auth/login', { email: account.email, password: account.password })).status).toBe(429);
    // Age the recorded failures past the window instead of waiting 15 minutes.
    await sql(`UPDATE "LoginFailure" SET at = at - interval '16 minutes' WHERE email = $1`, [account.email]);
    expectTokenPair(remember((await api.post('/api/auth/login', { email: account.email, password: account.password })).body));
  });
});

describe('POST /api/auth/register', () => {
  it('answers 201 with the new MEMBER/FREE user in the /me shape and a working token pair', async () => {
    const email = unique('Newcomer');
    const password = strongPassword();
    const reply = await api.post('/api/auth/register', { email, password, name: '  Newcomer  ' });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(reply.body).sort()).toEqual(['expiresIn', 'refreshExpiresIn', 'refreshToken', 'token', 'user']);
    const { user, ...pair } = reply.body as TokenPair & { user: Me };
    remember(pair);
    expectTokenPair(pair);
    expect(Object.keys(user).sort()).toEqual(['email', 'id', 'joined', 'name', 'role', 'tier']);
    expect(user).toMatchObject({ name: 'Newcomer', email: email.toLowerCase(), role: 'MEMBER', tier: 'FREE' });
    expect(user.joined).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(decodeJwt(pair.token).sub).toBe(user.id);

    const who = await me(pair.token);
    expect(who.status).toBe(200);
    expect(who.body).toEqual(user);
    expect((await lessons(pair.token)).status).toBe(200);
    // The public view shows only id, name, joined.
    expect((await api.get(`/api/users/${user.id}`)).body).toEqual({ id: user.id, name: user.name, joined: user.joined });
    // And the account can log in with any case of its e-mail.
    expect((await me((await login(email.toUpperCase(), password)).token)).body.id).toBe(user.id);
  });

  it('stores only an argon2id hash of the password', async () => {
    const account = await register('hashed');
    const rows = await sql<{ passwordHash: string }>('SELECT "passwordHash" FROM "User" WHERE id = $1', [account.user.id]);
    expect(rows).toHaveLength(1);
    const hash = rows[0]!.passwordHash;
    expect(hash.startsWith('$argon2id$')).toBe(true);
    expect(hash).not.toContain(account.password);
    // Salted: the same password gives a different hash for another account.
    const email = unique('hashed-twin');
    expect((await api.post('/api/auth/register', { email, password: account.password, name: 'Twin' })).status).toBe(201);
    const twin = await sql<{ passwordHash: string }>('SELECT "passwordHash" FROM "User" WHERE email = $1', [email]);
    expect(twin[0]!.passwordHash).not.toBe(hash);
  });

  it('answers 409 for an e-mail already taken, in any case', async () => {
    const account = await register('taken');
    for (const email of [account.email, account.email.toUpperCase(), 'Ada@Example.COM']) {
      const reply = await api.post('/api/auth/register', { email, password: 'another-password', name: 'Imposter' });
      expectError(reply, 409);
      expect(reply.body.message.length).toBeGreaterThan(0);
    }
    // The original account is untouched.
    expect((await me((await login(account.email, account.password)).token)).body).toEqual(account.user);
  });

  it('creates one account when the same e-mail registers concurrently, in different cases', async () => {
    const email = unique('twins');
    const variants = [email, email.toUpperCase(), email, email.replace(/^t/, 'T'), email];
    const replies = await Promise.all(variants.map((e) => api.post('/api/auth/register', { email: e, password: 'twin-password', name: 'Twin' })));
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const r of replies.filter((x) => x.status === 409)) expectError(r, 409);
    remember(replies.find((r) => r.status === 201)!.body);
    expect(await sql('SELECT id FROM "User" WHERE lower(email) = $1', [email.toLowerCase()])).toHaveLength(1);
  });

  it('accepts passwords of 8 and 256 characters and refuses 7 and 257 with a 400 naming the password', async () => {
    const post = (password: string) => api.post('/api/auth/register', { email: unique('pwlen'), password, name: 'Length' });
    expectBadField(await post('1234567'), 'password');
    expectBadField(await post('p'.repeat(257)), 'password');
    expectBadField(await post(''), 'password');
    for (const password of ['12345678', 'q'.repeat(256)]) {
      const reply = await post(password);
      expect(reply.status, reply.text).toBe(201);
      remember(reply.body);
      const email = reply.body.user.email as string;
      expect((await api.post('/api/auth/login', { email, password })).status).toBe(200);
    }
    // Signing in and refreshing say the same of a value too long (they gave Zod's own wording).
    expectError(await api.post('/api/auth/login', { email: 'ada@example.com', password: 'p'.repeat(257) }), 400, 'password: must be at most 256 characters', 'password');
    expectError(await api.post('/api/auth/refresh', { refreshToken: 'r'.repeat(513) }), 400, 'refreshToken: must be at most 512 characters', 'refreshToken');
    expectError(await api.post('/api/auth/logout', { refreshToken: 'r'.repeat(513) }), 400, 'refreshToken: must be at most 512 characters', 'refreshToken');
  });

  it('answers malformed requests with a 400 that names the field', async () => {
    const post = (body: unknown) => api.post('/api/auth/register', body);
    const ok = { email: unique('bad-input'), password: 'long-enough-pw', name: 'Bad Input' };
    expectBadField(await post({ ...ok, email: 'not-an-email' }), 'email');
    expectBadField(await post({ ...ok, email: 'two@@example.com' }), 'email');
    expectBadField(await post({ ...ok, email: 7 }), 'email');
    expectBadField(await post({ password: ok.password, name: ok.name }), 'email');
    expectBadField(await post({ email: ok.email, name: ok.name }), 'password');
    expectBadField(await post({ email: ok.email, password: ok.password }), 'name');
    expectBadField(await post({ ...ok, name: '   ' }), 'name');
    expectBadField(await post({ ...ok, name: 12 }), 'name');
    expectBadField(await post({ ...ok, role: 'ADMIN' }), 'role');
    expectBadField(await post({ ...ok, tier: 'ENTERPRISE' }), 'tier');
    expectBadField(await post('{oops'), 'body');
    expectBadField(await api.request('POST', '/api/auth/register'), 'email');
    // None of these created the account.
    expect(await sql('SELECT id FROM "User" WHERE email = $1', [ok.email])).toHaveLength(0);
  });
});

describe('POST /api/auth/refresh', () => {
  it('rotates: a new pair, and reusing the old refresh token past the grace revokes the family', async () => {
    const account = await register('rotate');
    const first = account.pair;

    const reply = await api.post('/api/auth/refresh', { refreshToken: first.refreshToken });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    const second = remember(expectTokenPair(reply.body));
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.token).not.toBe(first.token);
    expect(decodeJwt(second.token).sub).toBe(account.user.id);
    expect(decodeJwt(second.token).sid).toBe(decodeJwt(first.token).sid);
    expect((await me(second.token)).body).toEqual(account.user);

    const third = remember(expectTokenPair((await api.post('/api/auth/refresh', { refreshToken: second.refreshToken })).body));
    expect((await me(third.token)).status).toBe(200);
    expect((await me(first.token)).status).toBe(200); // access tokens of a live session keep working

    // Another session of the same user, which reuse in the first family must not touch.
    const other = await login(account.email, account.password);

    // Past the grace after its first exchange, the used token is refused and, being reuse, revokes
    // the whole family at once.
    await passRefreshGrace(server, first.refreshToken);
    const reuse = await api.post('/api/auth/refresh', { refreshToken: first.refreshToken });
    expectError(reuse, 401, 'Invalid refresh token');
    expect(reuse.body).toEqual(INVALID_REFRESH);
    expectError(await api.post('/api/auth/refresh', { refreshToken: third.refreshToken }), 401, 'Invalid refresh token');
    for (const token of [first.token, second.token, third.token]) {
      expectInvalidToken(await me(token));
      expectInvalidToken(await lessons(token));
    }

    expect((await me(other.token)).status).toBe(200);
    expect((await api.post('/api/auth/refresh', { refreshToken: other.refreshToken })).status).toBe(200);
  });

  it('answers 401 for an unknown, revoked or expired refresh token and 400 for a malformed request', async () => {
    expectError(await api.post('/api/auth/refresh', { refreshToken: 'rt_unknown-token' }), 401, 'Invalid refresh token');
    expectError(await api.post('/api/auth/refresh', { refreshToken: randomBytes(40).toString('base64url') }), 401, 'Invalid refresh token');
    // An access token is not a refresh token.
    const account = await register('refresh-kinds');
    expectError(await api.post('/api/auth/refresh', { refreshToken: account.pair.token }), 401, 'Invalid refresh token');

    // Expired: move its expiry into the past instead of waiting 30 days.
    const pair = await login(account.email, account.password);
    await sql(`UPDATE "RefreshToken" SET "expiresAt" = now() - interval '1 second' WHERE "tokenHash" = $1`, [sha256(pair.refreshToken)]);
    expectError(await api.post('/api/auth/refresh', { refreshToken: pair.refreshToken }), 401, 'Invalid refresh token');

    expectBadField(await api.post('/api/auth/refresh', {}), 'refreshToken');
    expectBadField(await api.post('/api/auth/refresh', { refreshToken: '' }), 'refreshToken');
    expectBadField(await api.post('/api/auth/refresh', { refreshToken: 42 }), 'refreshToken');
    expectBadField(await api.post('/api/auth/refresh', { refreshToken: account.pair.refreshToken, extra: 1 }), 'extra');
    expectBadField(await api.post('/api/auth/refresh', 'nope'), 'body');
    // The malformed request did not consume the (valid) refresh token.
    expect((await api.post('/api/auth/refresh', { refreshToken: account.pair.refreshToken })).status).toBe(200);
  });

  it('gives every one of concurrent exchanges of the same token a working pair of its session (within the grace)', async () => {
    const account = await register('race');
    for (let round = 0; round < 3; round++) {
      const pair = await login(account.email, account.password);
      const replies = await Promise.all(
        Array.from({ length: 4 }, () => api.post('/api/auth/refresh', { refreshToken: pair.refreshToken })),
      );
      for (const r of replies) {
        expect(r.status, r.text).toBe(200);
        const next = remember(expectTokenPair(r.body));
        expect(decodeJwt(next.token).sid).toBe(decodeJwt(pair.token).sid);
        expect((await me(next.token)).body).toEqual(account.user);
        expect((await api.post('/api/auth/refresh', { refreshToken: next.refreshToken })).status).toBe(200);
      }
      expect(new Set(replies.map((r) => r.body.refreshToken)).size).toBe(replies.length);
      expect((await me(pair.token)).status).toBe(200);
    }
  });
});

describe('POST /api/auth/logout', () => {
  it('answers 204 and revokes the session: its access token at once, its refresh token too', async () => {
    const account = await register('logout');
    const other = await login(account.email, account.password);
    const session = account.pair;
    expect((await me(session.token)).status).toBe(200);

    const reply = await api.post('/api/auth/logout', { refreshToken: session.refreshToken });
    expect(reply.status).toBe(204);
    expect(reply.text).toBe('');
    expect(reply.headers.get('content-type')).toBeNull();

    expectInvalidToken(await me(session.token));
    expectInvalidToken(await lessons(session.token));
    expectError(await api.post('/api/auth/refresh', { refreshToken: session.refreshToken }), 401, 'Invalid refresh token');

    // Idempotent, and no way to probe which tokens exist.
    expect((await api.post('/api/auth/logout', { refreshToken: session.refreshToken })).status).toBe(204);
    const unknown = await api.post('/api/auth/logout', { refreshToken: 'rt_never-issued' });
    expect(unknown.status).toBe(204);
    expect(unknown.text).toBe('');

    // The user's other session is untouched.
    expect((await me(other.token)).body).toEqual(account.user);
    const rotated = await api.post('/api/auth/refresh', { refreshToken: other.refreshToken });
    expect(rotated.status).toBe(200);
    remember(rotated.body);
  });

  it('ends the whole family when given an already rotated refresh token', async () => {
    const account = await register('logout-old');
    const next = remember((await api.post('/api/auth/refresh', { refreshToken: account.pair.refreshToken })).body as TokenPair);
    expect((await api.post('/api/auth/logout', { refreshToken: account.pair.refreshToken })).status).toBe(204);
    expectInvalidToken(await me(next.token));
    expectError(await api.post('/api/auth/refresh', { refreshToken: next.refreshToken }), 401, 'Invalid refresh token');
  });

  it('answers a malformed request with a 400 naming the field', async () => {
    expectBadField(await api.post('/api/auth/logout', {}), 'refreshToken');
    expectBadField(await api.post('/api/auth/logout', { refreshToken: 1 }), 'refreshToken');
    expectBadField(await api.post('/api/auth/logout', { refreshToken: 'x', all: true }), 'all');
    expectBadField(await api.post('/api/auth/logout', '{'), 'body');
  });
});

describe('bad tokens on protected routes', () => {
  let account: Account;
  let claims: { sub: string; sid: string };
  beforeAll(async () => {
    account = await register('tokens');
    const decoded = decodeJwt(account.pair.token);
    claims = { sub: decoded.sub!, sid: decoded.sid as string };
  });

  it('accepts a valid token, with the scheme in any case', async () => {
    expect((await me(account.pair.token)).status).toBe(200);
    expect((await lessons(account.pair.token)).status).toBe(200);
    expect((await me(undefined, { authorization: `bearer ${account.pair.token}` })).status).toBe(200);
    // A token the test signs with the server's secret and a real session is accepted: so the
    // refusals below are about the one thing each changes.
    expect((await me(await sign(claims))).body.id).toBe(account.user.id);
  });

  const cases: [string, () => Promise<Record<string, string>>][] = [
    ['no Authorization header', async () => ({})],
    ['Bearer with nothing', async () => ({ authorization: 'Bearer' })],
    ['Bearer and spaces', async () => ({ authorization: 'Bearer    ' })],
    ['Basic credentials', async () => ({ authorization: `Basic ${Buffer.from('ada@example.com:lovelace-1815').toString('base64')}` })],
    ['the bare token without a scheme', async () => ({ authorization: account.pair.token })],
    ['garbage', async () => ({ authorization: 'Bearer garbage' })],
    ['three garbage segments', async () => ({ authorization: 'Bearer aaa.bbb.ccc' })],
    ['a valid token followed by more text', async () => ({ authorization: `Bearer ${account.pair.token} extra` })],
    ['a token with a flipped signature', async () => {
      const [h, p, s] = account.pair.token.split('.');
      const flipped = (s!.startsWith('A') ? 'B' : 'A') + s!.slice(1);
      return { authorization: `Bearer ${h}.${p}.${flipped}` };
    }],
    ['a token with a tampered payload', async () => {
      const [h, , s] = account.pair.token.split('.');
      const payload = { ...decodeJwt(account.pair.token), sub: 'usr_someone_else' };
      return { authorization: `Bearer ${h}.${b64url(payload)}.${s}` };
    }],
    ['a JWT signed with another secret', async () => ({ authorization: `Bearer ${await sign(claims, { secret: 'another-secret-that-is-32-chars-long!!' })}` })],
    ['an alg:none token', async () => {
      const now = Math.floor(Date.now() / 1000);
      const token = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ ...claims, iat: now, exp: now + 3600 })}.`;
      return { authorization: `Bearer ${token}` };
    }],
    ['an expired token', async () => {
      const now = Math.floor(Date.now() / 1000);
      return { authorization: `Bearer ${await sign(claims, { iat: now - 7200, exp: now - 3600 })}` };
    }],
    ['a token without exp', async () => ({ authorization: `Bearer ${await sign(claims, { exp: null })}` })],
    ['a token without a session claim', async () => ({ authorization: `Bearer ${await sign({ sub: claims.sub })}` })],
    ['a token naming an unknown session', async () => ({ authorization: `Bearer ${await sign({ sub: claims.sub, sid: 'ses_does_not_exist' })}` })],
    ['a token whose session belongs to another user', async () => {
      const ada = decodeJwt((await login('ada@example.com', 'lovelace-1815')).token);
      return { authorization: `Bearer ${await sign({ sub: ada.sub, sid: claims.sid })}` };
    }],
  ];

  it.each(cases)('refuses %s with exactly 403 Missing or invalid token', async (_, headers) => {
    const h = await headers();
    expectInvalidToken(await me(undefined, h));
    expectInvalidToken(await lessons(undefined, h));
    expectInvalidToken(await api.get('/api/v1/lessons?id=does-not-matter', { headers: h }));
  });

  it('refuses a token whose session was revoked by logout', async () => {
    const pair = await login(account.email, account.password);
    expect((await me(pair.token)).status).toBe(200);
    expect((await api.post('/api/auth/logout', { refreshToken: pair.refreshToken })).status).toBe(204);
    expectInvalidToken(await me(pair.token));
    expectInvalidToken(await lessons(pair.token));
    // Re-signing the revoked session's claims does not bring it back.
    expectInvalidToken(await me(await sign({ sub: claims.sub, sid: decodeJwt(pair.token).sid })));
  });

  it('refuses the tokens of a deleted user', async () => {
    const doomed = await register('deleted');
    const second = await login(doomed.email, doomed.password);
    expect((await me(doomed.pair.token)).status).toBe(200);
    await sql('DELETE FROM "User" WHERE id = $1', [doomed.user.id]);
    for (const token of [doomed.pair.token, second.token]) {
      expectInvalidToken(await me(token));
      expectInvalidToken(await lessons(token));
    }
    expectError(await api.post('/api/auth/refresh', { refreshToken: second.refreshToken }), 401, 'Invalid refresh token');
    expectError(await api.post('/api/auth/login', { email: doomed.email, password: doomed.password }), 401, 'Invalid email or password');
  });
});

describe('GraphQL authentication', () => {
  const LOGIN = 'mutation($email: String!, $password: String!) { login(email: $email, password: $password) { token expiresIn refreshToken refreshExpiresIn } }';
  const REGISTER = 'mutation($email: String!, $password: String!, $name: String!) { register(email: $email, password: $password, name: $name) { user { id name email joined role tier } token expiresIn refreshToken refreshExpiresIn } }';
  const REFRESH = 'mutation($t: String!) { refreshToken(refreshToken: $t) { token expiresIn refreshToken refreshExpiresIn } }';
  const LOGOUT = 'mutation($t: String!) { logout(refreshToken: $t) }';
  const ME = '{ me { id email role tier } }';

  /** One GraphQL error, the HTTP status a field error gets (200), and data null. */
  function expectGqlError(reply: Reply, code: string, message: string | RegExp, status = 200): void {
    expect(reply.status, reply.text).toBe(status);
    expect(reply.body.data ?? null).toBeNull();
    expect(reply.body.errors).toHaveLength(1);
    const error = reply.body.errors[0];
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
    expect(error.extensions.code).toBe(code);
  }

  it('register, login, refreshToken and logout behave as over REST', async () => {
    const email = unique('Gql');
    const password = strongPassword();
    const reg = await api.graphql(REGISTER, { email, password, name: 'Graph Q.' });
    expect(reg.status, reg.text).toBe(200);
    expect(reg.body.errors).toBeUndefined();
    const { user, ...regPair } = reg.body.data.register;
    remember(expectTokenPair(regPair));
    expect(user).toMatchObject({ name: 'Graph Q.', email: email.toLowerCase(), role: 'MEMBER', tier: 'FREE' });
    expect((await me(regPair.token)).body).toEqual({ ...user, joined: user.joined });

    const logged = await api.graphql(LOGIN, { email: email.toUpperCase(), password });
    expect(logged.body.errors).toBeUndefined();
    const pair = remember(expectTokenPair(logged.body.data.login));

    const meReply = await api.graphql(ME, undefined, { token: pair.token });
    expect(meReply.body).toEqual({ data: { me: { id: user.id, email: email.toLowerCase(), role: 'MEMBER', tier: 'FREE' } } });

    const refreshed = await api.graphql(REFRESH, { t: pair.refreshToken });
    expect(refreshed.body.errors).toBeUndefined();
    const next = remember(expectTokenPair(refreshed.body.data.refreshToken));
    expect(next.refreshToken).not.toBe(pair.refreshToken);

    const out = await api.graphql(LOGOUT, { t: next.refreshToken });
    expect(out.body).toEqual({ data: { logout: true } });
    expectInvalidToken(await me(next.token));
    expectGqlError(await api.graphql(ME, undefined, { token: next.token }), 'UNAUTHENTICATED', 'Missing or invalid token');
    expectGqlError(await api.graphql(REFRESH, { t: next.refreshToken }), 'INVALID_CREDENTIALS', 'Invalid refresh token');
    // Logout of an unknown or revoked token is still true.
    expect((await api.graphql(LOGOUT, { t: next.refreshToken })).body).toEqual({ data: { logout: true } });
    expect((await api.graphql(LOGOUT, { t: 'rt_unknown' })).body).toEqual({ data: { logout: true } });
    // The registration session is a separate one and still works.
    expect((await me(regPair.token)).status).toBe(200);
  });

  it('gives the same errors with extensions.code', async () => {
    const account = await register('gql-errors');
    expectGqlError(await api.graphql(LOGIN, { email: account.email, password: 'wrong-password' }), 'INVALID_CREDENTIALS', 'Invalid email or password');
    expectGqlError(await api.graphql(LOGIN, { email: unique('gql-nobody'), password: 'wrong-password' }), 'INVALID_CREDENTIALS', 'Invalid email or password');
    expectGqlError(await api.graphql(LOGIN, { email: 'not-an-email', password: 'whatever' }), 'BAD_USER_INPUT', /^email\b/);

    expectGqlError(await api.graphql(REGISTER, { email: account.email.toUpperCase(), password: 'long-enough', name: 'Dup' }), 'CONFLICT', /./);
    expectGqlError(await api.graphql(REGISTER, { email: unique('gql-short'), password: 'short', name: 'Short' }), 'BAD_USER_INPUT', /^password\b/);
    expectGqlError(await api.graphql(REGISTER, { email: 'nope', password: 'long-enough', name: 'Bad' }), 'BAD_USER_INPUT', /^email\b/);
    expectGqlError(await api.graphql(REGISTER, { email: unique('gql-noname'), password: 'long-enough', name: ' ' }), 'BAD_USER_INPUT', /^name\b/);

    expectGqlError(await api.graphql(REFRESH, { t: 'rt_unknown' }), 'INVALID_CREDENTIALS', 'Invalid refresh token');
    const used = account.pair.refreshToken;
    expect((await api.graphql(REFRESH, { t: used })).body.errors).toBeUndefined();
    await passRefreshGrace(server, used);
    expectGqlError(await api.graphql(REFRESH, { t: used }), 'INVALID_CREDENTIALS', 'Invalid refresh token');
    expectInvalidToken(await me(account.pair.token)); // reuse revoked the family
  });

  it('answers me without a valid token with UNAUTHENTICATED', async () => {
    expectGqlError(await api.graphql(ME), 'UNAUTHENTICATED', 'Missing or invalid token');
    expectGqlError(await api.graphql(ME, undefined, { token: 'garbage' }), 'UNAUTHENTICATED', 'Missing or invalid token');
    const now = Math.floor(Date.now() / 1000);
    const { sub, sid } = decodeJwt((await register('gql-expired')).pair.token);
    const expired = await sign({ sub, sid }, { iat: now - 100, exp: now - 10 });
    expectGqlError(await api.graphql(ME, undefined, { token: expired }), 'UNAUTHENTICATED', 'Missing or invalid token');
  });
});

describe('logs', () => {
  it('never contain a password, an access token or a refresh token', async () => {
    // One more full round over both surfaces, so the check covers every path just before it.
    const account = await register('logs');
    const pair = await login(account.email, account.password);
    remember((await api.post('/api/auth/refresh', { refreshToken: pair.refreshToken })).body);
    await api.post('/api/auth/login', { email: account.email, password: `${account.password}-wrong` });
    secrets.add(`${account.password}-wrong`);
    await api.graphql('mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }', { e: account.email, p: account.password });

    const text = server.logText();
    expect(text.length).toBeGreaterThan(0);
    expect(text).toContain('"request"'); // requests are logged, just not their credentials
    expect(secrets.size).toBeGreaterThan(20);
    for (const secret of secrets) {
      expect(text.includes(secret), `a secret reached the logs: ${secret.slice(0, 12)}…`).toBe(false);
    }
    for (const demo of ['lovelace-1815']) expect(text).not.toContain(demo);
  });
});
