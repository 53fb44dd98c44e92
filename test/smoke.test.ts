import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Client } from './support/http.js';
import { DATABASES, startTestServer, type TestServer } from './support/server.js';

describe.each(DATABASES)('service on %s', (kind) => {
  let server: TestServer;
  let api: Client;
  beforeAll(async () => {
    server = await startTestServer({ kind });
    api = client(server.url);
  });
  afterAll(() => server?.stop());

  it('answers health and readiness', async () => {
    expect((await api.get('/healthz')).status).toBe(200);
    expect((await api.get('/readyz')).body).toEqual({ status: 'ready' });
  });

  it('serves the seeded demo user to its token', async () => {
    const { token } = await api.loginAs('ada');
    const me = await api.get('/api/v1/user/me', { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: 'ada@example.com', role: 'ADMIN', tier: 'PRO' });
  });
});
