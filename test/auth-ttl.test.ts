// Token lifetimes are configurable, and `expiresIn` always states the lifetime of the token
// returned (exp - iat), on every path that issues one.
import { decodeJwt } from 'jose';
import { afterEach, describe, expect, vi } from 'vitest';
import { serverTest } from './support/fixtures.js';

const configured = serverTest({ kind: 'postgres', env: { ACCESS_TOKEN_TTL: '3600', REFRESH_TOKEN_TTL: '7200' } });
const shortLived = serverTest({ kind: 'postgres', env: { ACCESS_TOKEN_TTL: '60' } });

describe('ACCESS_TOKEN_TTL=3600, REFRESH_TOKEN_TTL=7200', () => {
  const it = configured;

  const lifetime = (token: string) => {
    const { exp, iat } = decodeJwt(token);
    return exp! - iat!;
  };

  it('login answers expiresIn 3600 = exp - iat, and refreshExpiresIn 7200', async ({ api }) => {
    const reply = await api.post('/api/auth/login', { email: 'grace@example.com', password: 'hopper-1906' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.expiresIn).toBe(3600);
    expect(lifetime(reply.body.token)).toBe(3600);
    expect(reply.body.refreshExpiresIn).toBe(7200);
    expect((await api.get('/api/v1/user/me', { token: reply.body.token })).status).toBe(200);
  });

  it('refresh, register and the GraphQL mutations issue the same lifetime', async ({ api }) => {
    const { refreshToken } = await api.login('grace@example.com', 'hopper-1906');
    const refreshed = await api.post('/api/auth/refresh', { refreshToken });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshed.body).toMatchObject({ expiresIn: 3600, refreshExpiresIn: 7200 });
    expect(lifetime(refreshed.body.token)).toBe(3600);

    const registered = await api.post('/api/auth/register', { email: 'ttl-user@example.com', password: 'ttl-password', name: 'TTL' });
    expect(registered.status, registered.text).toBe(201);
    expect(registered.body).toMatchObject({ expiresIn: 3600, refreshExpiresIn: 7200 });
    expect(lifetime(registered.body.token)).toBe(3600);

    const gql = await api.graphql('mutation { login(email: "ttl-user@example.com", password: "ttl-password") { token expiresIn refreshToken refreshExpiresIn } }');
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.login).toMatchObject({ expiresIn: 3600, refreshExpiresIn: 7200 });
    expect(lifetime(gql.body.data.login.token)).toBe(3600);

    const gqlRefresh = await api.graphql('mutation($t: String!) { refreshToken(refreshToken: $t) { token expiresIn } }', { t: gql.body.data.login.refreshToken });
    expect(gqlRefresh.body.data.refreshToken.expiresIn).toBe(3600);
    expect(lifetime(gqlRefresh.body.data.refreshToken.token)).toBe(3600);
  });
});

describe('a token that expires while in use', () => {
  const it = shortLived;
  afterEach(() => vi.useRealTimers());

  it('works until its exp, then gets 403 although it was accepted (and remembered) before', async ({ api }) => {
    const { token } = await api.login('grace@example.com', 'hopper-1906');
    const { exp } = decodeJwt(token);
    expect((await api.get('/api/v1/user/me', { token })).status).toBe(200);
    // The server runs in this process: moving Date moves its clock.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime((exp! - 1) * 1000);
    expect((await api.get('/api/v1/user/me', { token })).status).toBe(200);
    vi.setSystemTime((exp! + 1) * 1000);
    const expired = await api.get('/api/v1/user/me', { token });
    expect(expired.status).toBe(403);
    expect(expired.body).toEqual({ error: true, code: 403, message: 'Missing or invalid token' });
  });
});
