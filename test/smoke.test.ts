import { describe, expect } from 'vitest';
import { serverTestOn } from './support/fixtures.js';
import { DATABASES } from './support/server.js';

const tests = serverTestOn();

describe.each(DATABASES)('service on %s', (kind) => {
  const it = tests[kind];

  it('answers health and readiness', async ({ api }) => {
    expect((await api.get('/healthz')).status).toBe(200);
    expect((await api.get('/readyz')).body).toEqual({ status: 'ready' });
  });

  it('serves the seeded demo user to its token', async ({ api }) => {
    const { token } = await api.loginAs('ada');
    const me = await api.get('/api/v1/user/me', { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: 'ada@example.com', role: 'ADMIN', tier: 'PRO' });
  });
});
