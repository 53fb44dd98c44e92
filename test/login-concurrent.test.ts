// Concurrent logins of one account over real HTTP. The failed-login throttle records each
// attempt before its password is checked (so concurrent guesses cannot all slip under the limit),
// and must count only real failures against the e-mail: an attempt still being checked is not a
// failure, and the right password, sent by many clients at once, is no guess at all.
import { describe, expect } from 'vitest';
import { serverTestOn } from './support/fixtures.js';
import type { Client } from './support/http.js';
import { DATABASES, sql, type TestServer } from './support/server.js';
import { NO_RATE_LIMITS } from './support/limits.js';

const tests = serverTestOn({ env: NO_RATE_LIMITS });

describe.each(DATABASES)('concurrent logins on %s', (kind) => {
  const it = tests[kind];
  let n = 0;

  const register = async (api: Client, tag: string) => {
    const email = `${tag}-${kind}-${++n}-${Date.now()}@example.com`;
    const password = `right-password-${n}`;
    const reply = await api.post('/api/auth/register', { email, password, name: tag });
    expect(reply.status, reply.text).toBe(201);
    return { email, password };
  };
  /** The failures recorded for the e-mail (read on PostgreSQL; the embedded database is the server's own). */
  const expectFailures = async (server: TestServer, email: string, expected: number) => {
    if (kind !== 'postgres') return;
    const [row] = await sql<{ n: string }>(server, 'SELECT count(*) AS n FROM "LoginFailure" WHERE email = $1', [email]);
    expect(Number(row!.n)).toBe(expected);
  };

  it('signs in every one of 25 concurrent logins with the right password (none is a failed attempt)', async ({ server, api }) => {
    const account = await register(api, 'burst-right');
    const replies = await Promise.all(Array.from({ length: 25 }, () => api.post('/api/auth/login', account)));
    expect(replies.filter((r) => r.status !== 200).map((r) => `${r.status} ${r.text}`)).toEqual([]);
    await expectFailures(server, account.email, 0);
  });

  it('still checks at most 10 of concurrent wrong guesses, and then refuses even the right password', async ({ server, api }) => {
    const account = await register(api, 'burst-wrong');
    const replies = await Promise.all(
      Array.from({ length: 25 }, (_, i) => api.post('/api/auth/login', { email: account.email, password: `wrong-guess-${i}` })),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    await expectFailures(server, account.email, statuses.filter((s) => s === 401).length);
    // Make it exactly ten failures, then the right password is refused.
    for (let i = statuses.filter((s) => s === 401).length; i < 10; i++) {
      expect((await api.post('/api/auth/login', { email: account.email, password: `wrong-again-${i}` })).status).toBe(401);
    }
    const refused = await api.post('/api/auth/login', account);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: true, code: 429, message: 'Too many failed login attempts' });
  });

  it('lets the right password through among concurrent wrong ones while fewer than 10 fail', async ({ api }) => {
    const account = await register(api, 'mixed');
    const replies = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => api.post('/api/auth/login', { email: account.email, password: `wrong-mixed-${i}` })),
      ...Array.from({ length: 15 }, () => api.post('/api/auth/login', account)),
    ]);
    expect(replies.slice(0, 5).map((r) => r.status).filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(replies.slice(5).filter((r) => r.status !== 200).map((r) => `${r.status} ${r.text}`)).toEqual([]);
  });
});
