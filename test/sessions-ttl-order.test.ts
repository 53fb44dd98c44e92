// A session lives as long as the access token it last issued, when that outlives the refresh
// token (ACCESS_TOKEN_TTL above REFRESH_TOKEN_TTL): while that token opens routes, its session is
// listed and can be ended. The passing of the refresh token's lifetime is simulated by moving the
// stored expiries back (the access token's own `exp` is an hour away either way).
import { randomBytes } from 'node:crypto';
import { describe, expect } from 'vitest';
import { expectError } from './support/assert.js';
import { serverTest } from './support/fixtures.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { sql } from './support/server.js';

const it = serverTest({ kind: 'postgres', env: { ...NO_RATE_LIMITS, ACCESS_TOKEN_TTL: '3600', REFRESH_TOKEN_TTL: '60' } });

describe('ACCESS_TOKEN_TTL longer than REFRESH_TOKEN_TTL', () => {
  it('a session whose refresh token expired while its access token works is listed and can be ended', async ({ server, api }) => {
    const email = `ttl-${randomBytes(5).toString('hex')}@example.com`;
    const registered = await api.post('/api/auth/register', { email, password: 'long-enough-1', name: 'TTL' });
    expect(registered.status).toBe(201);
    const { token, expiresIn, refreshToken, refreshExpiresIn } = registered.body as { token: string; expiresIn: number; refreshToken: string; refreshExpiresIn: number };
    expect([expiresIn, refreshExpiresIn]).toEqual([3600, 60]);
    const [id] = ((await api.get('/api/v1/sessions', { token })).body.items as { id: string }[]).map((s) => s.id);

    // 61 seconds later, as far as the stored rows know: the refresh token has expired.
    await sql(server, `UPDATE "RefreshToken" SET "expiresAt" = "expiresAt" - interval '61 seconds', "createdAt" = "createdAt" - interval '61 seconds'`);
    await sql(server, `UPDATE "Session" SET "expiresAt" = "expiresAt" - interval '61 seconds', "createdAt" = "createdAt" - interval '61 seconds' WHERE id = $1`, [id]);
    expectError(await api.post('/api/auth/refresh', { refreshToken }), 401, 'Invalid refresh token');

    // The access token still works, for the lifetime its expiresIn gave it...
    expect((await api.get('/api/v1/user/me', { token })).status).toBe(200);
    // ...so its session is a live one: listed as the current one, and its owner can end it.
    const listed = await api.get('/api/v1/sessions', { token });
    expect(listed.body.items, listed.text).toMatchObject([{ id, current: true }]);
    expect((await api.delete(`/api/v1/sessions/${id}`, { token })).status).toBe(204);
    expectError(await api.get('/api/v1/user/me', { token }), 403, 'Missing or invalid token');
  });
});
