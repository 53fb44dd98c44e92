// Refresh races: the same refresh token presented again within REFRESH_REUSE_GRACE_MS of its first
// exchange (two tabs, a retry after a lost response) gets a fresh pair of the same session and
// revokes nothing, on whichever instance it lands; past the grace it is reuse and ends the session.
// Two instances on one PostgreSQL database. "The grace has passed" is made true by moving the
// recorded first use back by more than the grace, rather than by waiting for it.
import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { expectError } from './support/assert.js';
import { client, type Client, type Reply } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { passRefreshGrace } from './support/refresh-grace.js';
import { instancesForSuite, sql } from './support/server.js';

interface Pair {
  token: string;
  refreshToken: string;
}

const suite = instancesForSuite({ kind: 'postgres', env: NO_RATE_LIMITS });
const apis = (): [Client, Client] => [client(suite.a.url), client(suite.b.url)];
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const REFRESH = 'mutation ($t: String!) { refreshToken(refreshToken: $t) { token expiresIn refreshToken refreshExpiresIn } }';

/** A new account, signed in: its user id and first pair. */
async function signIn(): Promise<{ userId: string; pair: Pair; email: string; password: string }> {
  const [a] = apis();
  const email = `refresh-race-${randomBytes(5).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(10).toString('hex')}`;
  const reply = await a.post('/api/auth/register', { email, password, name: 'Racer' });
  expect(reply.status, reply.text).toBe(201);
  return { userId: reply.body.user.id, pair: { token: reply.body.token, refreshToken: reply.body.refreshToken }, email, password };
}

/** A refresh over REST or GraphQL, as a status and the pair it returned (if any). */
async function refresh(api: Client, refreshToken: string, via: 'rest' | 'graphql' = 'rest'): Promise<{ status: number; pair?: Pair; reply: Reply }> {
  if (via === 'rest') {
    const reply = await api.post('/api/auth/refresh', { refreshToken });
    return { status: reply.status, pair: reply.status === 200 ? reply.body : undefined, reply };
  }
  const reply = await api.graphql(REFRESH, { t: refreshToken });
  const pair = reply.body.data?.refreshToken ?? undefined;
  return { status: pair ? 200 : 401, pair, reply };
}

async function expectWorks(token: string, userId: string): Promise<void> {
  for (const api of apis()) {
    const me = await api.get('/api/v1/user/me', { token });
    expect(me.status, me.text).toBe(200);
    expect(me.body.id).toBe(userId);
  }
}

/** Every token of `pairs` refused: access tokens on one instance, their refresh tokens on the other. */
async function expectDead(pairs: Pair[]): Promise<void> {
  const [a, b] = apis();
  for (const [i, p] of pairs.entries()) {
    expectError(await (i % 2 ? a : b).get('/api/v1/user/me', { token: p.token }), 403, 'Missing or invalid token');
    expectError(await (i % 2 ? b : a).post('/api/auth/refresh', { refreshToken: p.refreshToken }), 401, 'Invalid refresh token');
  }
}

describe('refresh races on two instances sharing PostgreSQL', () => {
  it('concurrent refreshes of one token (REST and GraphQL, split across both) all get a working pair of the same session', async () => {
    const { userId, pair: first, email, password } = await signIn();
    const [a, b] = apis();
    const sid = decodeJwt(first.token).sid;
    const other = await a.login(email, password); // another session, which nothing here may touch

    const calls = [
      refresh(a, first.refreshToken), refresh(b, first.refreshToken), refresh(a, first.refreshToken), refresh(b, first.refreshToken),
      refresh(a, first.refreshToken, 'graphql'), refresh(b, first.refreshToken, 'graphql'), refresh(a, first.refreshToken), refresh(b, first.refreshToken),
    ];
    const results = await Promise.all(calls);
    for (const r of results) expect(r.status, r.reply.text).toBe(200);
    const pairs = results.map((r) => r.pair!);
    // Every presentation issued a pair of its own, all in the original session.
    expect(new Set(pairs.map((p) => p.refreshToken)).size).toBe(pairs.length);
    expect(new Set(pairs.map((p) => p.token)).size).toBe(pairs.length);
    for (const p of pairs) {
      expect(decodeJwt(p.token).sid).toBe(sid);
      await expectWorks(p.token, userId);
    }
    await expectWorks(first.token, userId);

    // Every new refresh token can be exchanged in turn (alternating instances).
    const next: Pair[] = [];
    for (const [i, p] of pairs.entries()) {
      const r = await refresh(i % 2 ? b : a, p.refreshToken);
      expect(r.status, r.reply.text).toBe(200);
      await expectWorks(r.pair!.token, userId);
      next.push(r.pair!);
    }

    // Past the grace, the original token again is reuse: 401, and every token of the family ends.
    await passRefreshGrace(suite.a, first.refreshToken);
    expectError(await b.post('/api/auth/refresh', { refreshToken: first.refreshToken }), 401, 'Invalid refresh token');
    await expectDead([first, ...pairs, ...next]);
    await expectWorks(other.token, userId);
    expect((await refresh(a, other.refreshToken)).status).toBe(200);
  });

  it('a retry after a lost response (sequential, within the grace) gets a working pair; after it, the same retry ends the session', async () => {
    const { userId, pair: first } = await signIn();
    const [a, b] = apis();
    const lost = await refresh(a, first.refreshToken);
    expect(lost.status).toBe(200);
    // The client never saw `lost` and retries with the token it has, on another instance.
    const retried = await refresh(b, first.refreshToken);
    expect(retried.status, retried.reply.text).toBe(200);
    // Once more over GraphQL, still within the grace.
    const again = await refresh(a, first.refreshToken, 'graphql');
    expect(again.status, again.reply.text).toBe(200);
    expect(retried.pair!.refreshToken).not.toBe(lost.pair!.refreshToken);
    expect(decodeJwt(retried.pair!.token).sid).toBe(decodeJwt(first.token).sid);
    await expectWorks(retried.pair!.token, userId);
    await expectWorks(lost.pair!.token, userId);
    await expectWorks(again.pair!.token, userId);

    // The retried pair goes on rotating as usual.
    const rotated = await refresh(a, retried.pair!.refreshToken);
    expect(rotated.status).toBe(200);
    await expectWorks(rotated.pair!.token, userId);

    // Past the grace, over GraphQL: INVALID_CREDENTIALS, and the family ends.
    await passRefreshGrace(suite.a, first.refreshToken);
    const reused = await refresh(b, first.refreshToken, 'graphql');
    expect(reused.reply.body.data?.refreshToken ?? null).toBeNull();
    expect(reused.reply.body.errors[0]).toMatchObject({ message: 'Invalid refresh token', extensions: { code: 'INVALID_CREDENTIALS' } });
    await expectDead([first, lost.pair!, retried.pair!, again.pair!, rotated.pair!]);
  });

  it('reuse of a rotated-away token past its grace ends the session even when presented on both instances at once', async () => {
    const { pair: first } = await signIn();
    const [a, b] = apis();
    const second = (await refresh(a, first.refreshToken)).pair!;
    await passRefreshGrace(suite.a, first.refreshToken);
    const replies = await Promise.all([a, b, a, b].map((api) => api.post('/api/auth/refresh', { refreshToken: first.refreshToken })));
    for (const r of replies) expectError(r, 401, 'Invalid refresh token');
    await expectDead([first, second]);
  });

  it('the grace never revives a token of an ended session, nor an expired or unknown one', async () => {
    const [a, b] = apis();
    // Logged out within the grace: the original token is refused, and nothing of the session works.
    const { pair: first } = await signIn();
    const second = (await refresh(a, first.refreshToken)).pair!;
    expect((await b.post('/api/auth/logout', { refreshToken: second.refreshToken })).status).toBe(204);
    expectError(await a.post('/api/auth/refresh', { refreshToken: first.refreshToken }), 401, 'Invalid refresh token');
    expectError(await b.post('/api/auth/refresh', { refreshToken: first.refreshToken }), 401, 'Invalid refresh token');
    await expectDead([first, second]);

    // Revoked through the sessions API within the grace: the same.
    const { pair: third } = await signIn();
    const fourth = (await refresh(b, third.refreshToken)).pair!;
    const listed = (await b.get('/api/v1/sessions', { token: fourth.token })).body.items as { id: string; current: boolean }[];
    const current = listed.find((s) => s.current)!.id;
    expect((await a.delete(`/api/v1/sessions/${current}`, { token: fourth.token })).status).toBe(204);
    expectError(await b.post('/api/auth/refresh', { refreshToken: third.refreshToken }), 401, 'Invalid refresh token');
    await expectDead([third, fourth]);

    // Expired after its first use: refused within the grace, and (not being reuse) ends nothing.
    const { pair: fifth } = await signIn();
    const sixth = (await refresh(a, fifth.refreshToken)).pair!;
    await sql(suite.a, `UPDATE "RefreshToken" SET "expiresAt" = now() - interval '1 second' WHERE "tokenHash" = $1`, [sha256(fifth.refreshToken)]);
    expectError(await b.post('/api/auth/refresh', { refreshToken: fifth.refreshToken }), 401, 'Invalid refresh token');
    expect((await a.get('/api/v1/user/me', { token: sixth.token })).status).toBe(200);
    expect((await refresh(b, sixth.refreshToken)).status).toBe(200);

    // Unknown, and near-misses of a real one.
    for (const token of ['rt_unknown', `${first.refreshToken}x`, first.refreshToken.slice(0, -1), first.token]) {
      expectError(await a.post('/api/auth/refresh', { refreshToken: token }), 401, 'Invalid refresh token');
    }
  });
});
