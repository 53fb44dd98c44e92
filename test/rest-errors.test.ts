// The error contract over real HTTP: every error is exactly {error: true, code, message} (plus an
// optional `details` object) with the HTTP status equal to `code`, for unknown routes, wrong
// methods, oversized and malformed bodies, unexpected failures (500) and an unreachable
// database (503).
import { request as httpRequest } from 'node:http';
import pg from 'pg';
import { describe, expect } from 'vitest';
import { serverTest } from './support/fixtures.js';
import type { Client } from './support/http.js';
import { PG_ADMIN_URL, type TestServer } from './support/server.js';
import { expectError } from './support/assert.js';
import { NO_RATE_LIMITS } from './support/limits.js';

// Rate limits are not what these tests are about: keep them out of the way.
const withSmallBodies = serverTest({ env: { ...NO_RATE_LIMITS, BODY_LIMIT_BYTES: '2048' } });
const failing = serverTest({ env: NO_RATE_LIMITS });
const unreachable = serverTest({ env: NO_RATE_LIMITS });

/**
 * Sends a body with `transfer-encoding: chunked` (no Content-Length): `first` at once, then
 * `rest` only after the response has started (or at once when `waitForReply` is false).
 */
function sendChunked(
  url: string,
  path: string,
  first: string[],
  rest: string[] = [],
  waitForReply = false,
): Promise<{ status: number; headers: Record<string, unknown>; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    const finish = () => {
      for (const chunk of rest) req.write(chunk);
      req.end();
    };
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined }),
      );
      res.on('error', reject);
      if (waitForReply) finish();
    });
    req.on('error', reject);
    // Fail fast (rather than at the test timeout) when no reply comes.
    req.setTimeout(15_000, () => req.destroy(new Error('no reply to the chunked request')));
    for (const chunk of first) req.write(chunk);
    if (!waitForReply) finish();
  });
}

async function withAdmin<T>(fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

const databaseName = (server: TestServer) => new URL(server.databaseUrl!).pathname.slice(1);

describe('routing errors', () => {
  const it = withSmallBodies;
  let server: TestServer;
  let api: Client;
  let token: string;
  it.beforeAll(({ server: started, api: itsClient, grace }) => {
    [server, api, token] = [started, itsClient, grace];
  });

  it('answers an unknown route with a 404 error body, with or without a token', async () => {
    for (const path of ['/api/nope', '/api/v1/nope', '/api/v2/lessons', '/nothing-here', '/api/users/u1/extra']) {
      expectError(await api.get(path), 404, /not found/);
      expectError(await api.get(path, { token }), 404, /not found/);
      expectError(await api.post(path, { a: 1 }, { token }), 404, /not found/);
    }
  });

  it('answers a known path with the wrong method with 405 and an Allow header', async () => {
    const cases: [string, string, string[]][] = [
      ['PUT', '/api/v1/lessons', ['GET', 'POST', 'PATCH']],
      ['DELETE', '/api/v1/lessons', ['GET', 'POST', 'PATCH']],
      ['GET', '/api/v1/lessons/publish', ['POST']],
      ['DELETE', '/api/v1/user/me', ['GET', 'PATCH']],
      ['POST', '/api/users/someone', ['GET']],
      ['PATCH', '/api/content/docs', ['GET']],
      ['DELETE', '/api/analytics/views', ['GET', 'POST']],
      ['POST', '/api/openapi.json', ['GET']],
      // The probes refuse other methods, as /metrics does.
      ['POST', '/healthz', ['GET', 'HEAD']],
      ['DELETE', '/readyz', ['GET', 'HEAD']],
    ];
    for (const [method, path, methods] of cases) {
      for (const withToken of [false, true]) {
        const reply = await api.request(method, path, withToken ? { token } : {});
        expectError(reply, 405, new RegExp(`${method}`));
        const allow = reply.headers.get('allow')!.split(/,\s*/);
        for (const m of methods) expect(allow).toContain(m);
        expect(allow).not.toContain(method);
        expect(reply.body.details).toEqual({ allow });
      }
    }
  });

  it('answers OPTIONS on a known path with its methods', async () => {
    const reply = await api.request('OPTIONS', '/api/analytics/views');
    expect(reply.status).toBe(204);
    expect(reply.headers.get('allow')!.split(/,\s*/).sort()).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST']);
  });

  it('answers a body that is not JSON with 400 naming the body', async () => {
    for (const raw of ['{"path":', 'not json', '{"path": "/a",}', "{'path': '/a'}"]) {
      const reply = await api.post('/api/analytics/views', raw);
      expectError(reply, 400, /^body: /);
      expect(reply.body.details).toEqual({ field: 'body' });
    }
  });

  it('answers a JSON body that is not an object with 400 naming the body', async () => {
    for (const raw of ['null', '[]', '"a string"', '42', 'true']) {
      expectError(await api.post('/api/analytics/views', raw), 400, 'body: must be a JSON object', 'body');
      expectError(await api.patch('/api/v1/user/me', raw, { token }), 400, 'body: must be a JSON object', 'body');
    }
  });

  it('names the type a field must have in the words of every other message (not Zod\'s "Invalid input: expected string, received number")', async () => {
    expectError(await api.patch('/api/v1/user/me', { name: 12 }, { token }), 400, 'name: must be a string', 'name');
    expectError(await api.post('/api/v1/api-keys', { name: null }, { token }), 400, 'name: must be a string', 'name');
    expectError(await api.post('/api/analytics/views', { path: ['/a'] }), 400, 'path: must be a string', 'path');
    // A missing field is still "is required".
    expectError(await api.post('/api/analytics/views', {}), 400, 'path: is required', 'path');
  });

  it('accepts a body of exactly BODY_LIMIT_BYTES and refuses one byte more with 413 (Content-Length)', async () => {
    const overhead = JSON.stringify({ path: '/' }).length - 1;
    const atLimit = JSON.stringify({ path: '/' + 'a'.repeat(2048 - overhead - 1) });
    expect(Buffer.byteLength(atLimit)).toBe(2048);
    expect((await api.post('/api/analytics/views', atLimit)).status).toBe(202);

    const over = JSON.stringify({ path: '/' + 'a'.repeat(2048 - overhead) });
    expect(Buffer.byteLength(over)).toBe(2049);
    const reply = await api.post('/api/analytics/views', over);
    expectError(reply, 413);
    expect(reply.body.details).toEqual({ limit: 2048 });

    expectError(await api.patch('/api/v1/user/me', { name: 'x'.repeat(10_000) }, { token }), 413);

    // On /graphql the same refusal is a GraphQL response, not the REST error body.
    const graphql = await api.post('/graphql', { query: `{ user(id: "${'x'.repeat(3_000)}") { id } }` });
    expect(graphql.status).toBe(413);
    expect(graphql.body).toEqual({
      errors: [{ message: 'Request body is larger than 2048 bytes', extensions: { code: 'PAYLOAD_TOO_LARGE', status: 413, details: { limit: 2048 } } }],
    });
  });

  it('refuses an oversized chunked body (no Content-Length) with 413', async () => {
    const body = Array.from({ length: 10 }, () => 'b'.repeat(500));
    const expected = { error: true, code: 413, message: expect.any(String) as string, details: { limit: 2048 } };
    // The whole body sent at once...
    const all = await sendChunked(server.url, '/api/analytics/views', [`{"path":"/`, ...body, `"}`]);
    expect(all.status).toBe(413);
    expect(all.headers['content-type']).toMatch(/^application\/json/);
    expect(all.body).toEqual(expected);
    // ...and a client that keeps streaming only after the server has answered: the 413 arrives
    // while the body is still open, and the rest is drained rather than resetting the connection.
    const streaming = await sendChunked(server.url, '/api/analytics/views', [`{"path":"/`, ...body], [...body, `"}`], true);
    expect(streaming.status).toBe(413);
    expect(streaming.body).toEqual(expected);

    // A small chunked body is read normally, and the server still answers afterwards.
    const small = await sendChunked(server.url, '/api/analytics/views', ['{"pa', 'th":"/chunked"}']);
    expect(small.status).toBe(202);
    expect((await api.get('/api/analytics/views?path=/chunked')).body).toEqual({ total: 1 });
  });

  it('answers a malformed percent-encoding in a path parameter with 404, not 500', async () => {
    expectError(await api.get('/api/users/%E0%A4%A'), 404, /not found/);
  });
});

describe('an unexpected failure (500)', () => {
  const it = failing;

  it('answers a generic 500 and logs the detail', async ({ server, api }) => {
    expect((await api.get('/api/content/docs')).status).toBe(200);
    const db = new pg.Client({ connectionString: server.databaseUrl });
    await db.connect();
    await db.query('DROP TABLE "DocPage"');
    await db.end();

    const reply = await api.get('/api/content/docs');
    expectError(reply, 500, 'Internal server error');
    expect(reply.body).toEqual({ error: true, code: 500, message: 'Internal server error' });
    expect(reply.text).not.toMatch(/DocPage|SELECT|relation|table|prisma|P20\d\d/i);
    expect(server.logText()).toContain('DocPage');
    const logged = server.logs.find((l) => l.msg === 'unexpected error' && JSON.stringify(l.err).includes('DocPage'));
    expect(logged).toBeDefined();
    // The request id ties the log line to the response.
    expect(logged!.reqId).toBe(reply.headers.get('x-request-id'));

    // Other routes are unaffected.
    expect((await api.get('/api/analytics/views')).status).toBe(200);
  });
});

describe('an unreachable database (503)', () => {
  const it = unreachable;
  // Let the server's stop reach its database again, whatever the test left.
  it.afterAll(({ server }) => withAdmin((admin) => admin.query(`ALTER DATABASE ${databaseName(server)} ALLOW_CONNECTIONS true`)));

  it('answers 503 while the database refuses connections, and recovers', async ({ server, api }) => {
    const { token } = await api.loginAs('ada');
    const name = databaseName(server);
    expect((await api.get('/readyz')).status).toBe(200);
    expectError(await api.get('/api/users/x'), 404);

    await withAdmin(async (admin) => {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [name]);
    });

    const user = await api.get('/api/users/x');
    expectError(user, 503);
    expect(user.text).not.toMatch(/learnstream_test|55000|accepting connections/);
    expect(Number(user.headers.get('retry-after'))).toBeGreaterThan(0);
    expectError(await api.get('/api/v1/user/me', { token }), 503);
    expectError(await api.get('/api/content/docs'), 503);
    expectError(await api.post('/api/analytics/views', { path: '/down' }), 503);
    const ready = await api.get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: 'unavailable' });
    expect(server.logs.some((l) => l.msg === 'database unavailable')).toBe(true);
    // Liveness does not depend on the database.
    expect((await api.get('/healthz')).status).toBe(200);

    await withAdmin((admin) => admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`));
    const recovered = await api.get('/readyz');
    expect(recovered.status).toBe(200);
    expect(recovered.body).toEqual({ status: 'ready' });
    expectError(await api.get('/api/users/x'), 404);
    expect((await api.get('/api/v1/user/me', { token })).status).toBe(200);
  });
});
