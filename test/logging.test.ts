// Structured request logs: one JSON line per request with its id, method, path, status and
// duration; the request id round-trips through X-Request-Id; credentials never reach the log.
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { createResponseCache } from '../src/modules/response-cache/index.js';
import { prettyLine } from '../src/log-pretty.js';
import { createLogger } from '../src/logger.js';
import { serverTest } from './support/fixtures.js';
import type { Client } from './support/http.js';
import type { TestServer } from './support/server.js';
import { freePort } from './support/wait.js';

type LogLine = Record<string, unknown>;

const logged = serverTest({ kind: 'pglite' });

describe('request logging', () => {
  const it = logged;
  // The fixture's server and client, for the helpers and `it.each` bodies below.
  let server: TestServer;
  let api: Client;
  it.beforeAll(({ server: started, api: itsClient }) => {
    [server, api] = [started, itsClient];
  });

  const requestLines = (reqId: string): LogLine[] => server.logs.filter((l) => l.msg === 'request' && l.reqId === reqId);

  /** The one request line for `reqId` (waits for it: the line is written when the response finishes). */
  async function requestLine(reqId: string): Promise<LogLine> {
    await vi.waitFor(() => expect(requestLines(reqId).length).toBeGreaterThan(0), { timeout: 10_000, interval: 20 });
    const lines = requestLines(reqId);
    expect(lines).toHaveLength(1);
    return lines[0]!;
  }

  it('writes every log line as JSON with a level and a time', () => {
    expect(server.logText().trim().split('\n').length).toBe(server.logs.length);
    for (const line of server.logs) {
      expect(typeof line.level).toBe('number');
      expect(typeof line.time).toBe('number');
      expect(typeof line.msg).toBe('string');
    }
  });

  // Health checks at debug (20): probes every few seconds would drown the log at info (30).
  it.each([
    ['GET', '/healthz', 200, 20],
    ['GET', '/readyz', 200, 20],
    ['GET', '/api/content/docs', 200, 30],
    ['GET', '/api/no-such-route', 404, 30],
    ['POST', '/api/auth/login', 400, 30],
    ['HEAD', '/api/openapi.json', 200, 30],
    ['GET', '/api/v1/user/me', 403, 30],
    ['PUT', '/api/content/docs', 405, 30],
  ])('%s %s: one line with reqId, method, path, status, duration', async (method, path, status, level) => {
    const id = `log-${randomUUID()}`;
    const reply = await api.request(method, path, { headers: { 'x-request-id': id }, ...(method === 'POST' ? { body: '{' } : {}) });
    expect(reply.status).toBe(status);
    const line = await requestLine(id);
    expect(line).toMatchObject({ reqId: id, method, path, status, msg: 'request', level });
    expect(typeof line.ms).toBe('number');
    expect(line.ms as number).toBeGreaterThanOrEqual(0);
  });

  it('logs GraphQL requests too, once each', async () => {
    const id = `gql-${randomUUID()}`;
    const reply = await api.graphql('{ docs { slug } }', undefined, { headers: { 'x-request-id': id } });
    expect(reply.status).toBe(200);
    expect(await requestLine(id)).toMatchObject({ method: 'POST', path: '/graphql', status: 200 });
  });

  it('echoes a client X-Request-Id and logs under it', async () => {
    const id = 'client-chosen.id:42_x-y';
    const reply = await api.get('/healthz', { headers: { 'x-request-id': id } });
    expect(reply.headers.get('x-request-id')).toBe(id);
    expect(await requestLine(id)).toMatchObject({ path: '/healthz', status: 200 });
  });

  it('generates an id when the client sends none, returns it and logs under it', async () => {
    const a = await api.get('/healthz');
    const b = await api.get('/healthz');
    const idA = a.headers.get('x-request-id');
    const idB = b.headers.get('x-request-id');
    expect(idA).toMatch(/^[\w.:-]{8,128}$/);
    expect(idB).toMatch(/^[\w.:-]{8,128}$/);
    expect(idA).not.toBe(idB);
    expect(await requestLine(idA!)).toMatchObject({ path: '/healthz', status: 200 });
  });

  it.each([
    ['300 characters', 'x'.repeat(300)],
    ['spaces', 'has some spaces'],
    ['quotes and braces', '"},{"level":60'],
    ['non-ASCII', 'ïd-ünicode'],
  ])('replaces an invalid incoming id (%s)', async (_what, bad) => {
    const reply = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': bad } });
    await reply.text();
    const id = reply.headers.get('x-request-id');
    expect(id).toBeTruthy();
    expect(id).not.toBe(bad);
    expect(id).toMatch(/^[\w.:-]{8,128}$/);
    expect(await requestLine(id!)).toMatchObject({ path: '/healthz' });
    expect(server.logs.some((l) => l.reqId === bad)).toBe(false);
  });

  it('does not log query strings', async () => {
    const id = `qs-${randomUUID()}`;
    const reply = await api.get('/api/analytics/views?path=/private-page&token=query-secret-123', { headers: { 'x-request-id': id } });
    expect(reply.status).not.toBe(500);
    const line = await requestLine(id);
    expect(line.path).toBe('/api/analytics/views');
    expect(server.logText()).not.toContain('query-secret-123');
    expect(server.logText()).not.toContain('/private-page');
  });

  it('never logs passwords or tokens, nor echoes them in an error', async () => {
    const password = `log-test-password-${randomUUID()}`;
    const email = `logging-${randomUUID()}@example.com`;
    const registered = await api.post('/api/auth/register', { email, password, name: 'Logger' });
    expect(registered.status).toBe(201);
    const login = await api.login(email, password);
    const refreshed = await api.post('/api/auth/refresh', { refreshToken: login.refreshToken });
    expect(refreshed.status).toBe(200);
    // An access token presented as a refresh token, a wrong password, a malformed body,
    // a bad bearer token, GraphQL with the password in variables and inline.
    /** The answers that refused something: none may echo a secret either. */
    const errors: { status: number; text: string }[] = [];
    const refused = <T extends { status: number; text: string }>(reply: T) => (errors.push(reply), reply);
    expect(refused(await api.post('/api/auth/refresh', { refreshToken: login.token })).status).toBe(401);
    const wrongPassword = `wrong-${password}`;
    expect(refused(await api.post('/api/auth/login', { email, password: wrongPassword })).status).toBe(401);
    expect(refused(await api.post('/api/auth/login', `{"email":"${email}","password":"${password}"`)).status).toBe(400);
    expect(refused(await api.post('/api/auth/login', { email, password, extra: true })).status).toBe(400);
    const badToken = `${login.token.slice(0, -4)}AAAA`;
    expect(refused(await api.get('/api/v1/user/me', { token: badToken })).status).toBe(403);
    expect(refused(await api.graphql('{ me { id } }', {}, { token: badToken })).body.errors).toHaveLength(1);
    const gql = await api.graphql('mutation ($e: String!, $p: String!) { login(email: $e, password: $p) { token refreshToken } }', { e: email, p: password });
    expect(gql.body.data.login.token).toBeTruthy();
    expect(refused(await api.graphql(`mutation { login(email: "${email}", password: "${wrongPassword}") { token } }`)).body.errors).toHaveLength(1);
    await api.post('/api/auth/logout', { refreshToken: refreshed.body.refreshToken });

    const secrets = [
      password, wrongPassword, registered.body.token, registered.body.refreshToken, login.token, login.refreshToken,
      refreshed.body.token, refreshed.body.refreshToken, badToken, gql.body.data.login.token, gql.body.data.login.refreshToken,
    ] as string[];
    // Wait until every request above has its line, then search the whole log text.
    await vi.waitFor(() => expect(server.logs.filter((l) => l.msg === 'request').length).toBeGreaterThanOrEqual(11), { timeout: 10_000 });
    const text = server.logText();
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(8);
      expect(text).not.toContain(secret);
    }
    // Not even the signature part of a JWT.
    for (const token of [login.token, badToken]) expect(text).not.toContain(token.split('.')[2]!);
    expect(errors).toHaveLength(7);
    for (const { text: body } of errors) for (const secret of [...secrets, badToken.split('.')[2]!]) expect(body).not.toContain(secret);
  });
});

/** A logger at info writing to a string: `written()` is what it has written so far. */
function capturedLogger() {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { log: createLogger('info', sink), written: () => text };
}

describe('createLogger', () => {
  it('redacts credentials wherever the service may log them', () => {
    const { log, written } = capturedLogger();
    log.info({
      password: 'p-top', token: 't-top', refreshToken: 'r-top', secret: 's-top', key: 'k-top',
      body: { password: 'p-body', token: 't-body', refreshToken: 'r-body', secret: 's-body', key: 'k-body' },
      headers: { authorization: 'Bearer h-auth', 'x-api-key': 'lp_h-key', accept: 'kept-value' },
      req: { headers: { authorization: 'Bearer req-auth' } },
      variables: { password: 'v-pass', input: { password: 'v-input-pass' } },
    }, 'credentials');
    const line = JSON.parse(written()) as Record<string, unknown>;
    expect(line.msg).toBe('credentials');
    for (const value of ['p-top', 't-top', 'r-top', 's-top', 'k-top', 'p-body', 't-body', 'r-body', 's-body', 'k-body',
      'h-auth', 'h-key', 'req-auth', 'v-pass', 'v-input-pass']) {
      expect(written()).not.toContain(value);
    }
    expect(written()).toContain('[redacted]');
    expect(written()).toContain('kept-value');
  });

  it('redacts what errors carry: a Redis command\'s arguments (AUTH\'s is the password) and the password of any URL', () => {
    const { log, written } = capturedLogger();
    // What ioredis rejects with when Redis refuses AUTH, and what HELLO … AUTH would carry.
    const wrongPass = Object.assign(new Error('WRONGPASS invalid username-password pair or user is disabled.'), {
      command: { name: 'auth', args: ['redis-pw-1'] },
    });
    const hello = Object.assign(new Error('NOPROTO'), { command: { name: 'hello', args: ['3', 'AUTH', 'default', 'redis-pw-2'] } });
    // What `new URL()` throws for a REDIS_URL whose port is not a number: the URL, whole, as `input`.
    let invalidUrl: unknown;
    try {
      new URL('redis://:redis-pw-3@127.0.0.1:notaport/5');
    } catch (error) {
      invalidUrl = error;
    }
    expect(invalidUrl).toMatchObject({ input: 'redis://:redis-pw-3@127.0.0.1:notaport/5' });
    const withCause = new Error('could not connect', { cause: new Error('to postgresql://app:pg-pw-4@db.internal:5432/learnstream') });
    log.error({ err: wrongPass }, 'refused');
    log.error({ err: hello }, 'hello');
    log.fatal({ err: invalidUrl }, 'could not start');
    log.error({ err: withCause }, 'cause');
    log.warn({ error: 'GET http://user:http-pw-5@example.com/hook failed', target: 'rediss://u:redis-pw-6@cache:6380' }, 'fields');
    const lines = written().trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(5);
    for (const secret of ['redis-pw-1', 'redis-pw-2', 'redis-pw-3', 'pg-pw-4', 'http-pw-5', 'redis-pw-6']) expect(written()).not.toContain(secret);
    // What helps find the problem stays: the command's name, the URL's user, host and port.
    expect(lines[0]).toMatchObject({ err: { message: wrongPass.message, command: { name: 'auth', args: '[redacted]' } } });
    expect(lines[2]).toMatchObject({ err: { code: 'ERR_INVALID_URL', input: 'redis://:[redacted]@127.0.0.1:notaport/5' } });
    expect(written()).toContain('postgresql://app:[redacted]@db.internal:5432/learnstream');
    // The error logged is left as it was.
    expect(wrongPass.command.args).toEqual(['redis-pw-1']);
  });

  it('honours the level', () => {
    let text = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    const log = createLogger('warn', sink);
    log.info('hidden');
    log.warn('shown');
    expect(text).not.toContain('hidden');
    expect(JSON.parse(text)).toMatchObject({ level: 40, msg: 'shown' });
  });
});

describe('LOG_FORMAT=pretty', () => {
  it('writes time, level, message and the other fields on one line, redacted as the JSON was', () => {
    let text = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += prettyLine(chunk.toString());
        done();
      },
    });
    const log = createLogger('info', sink);
    log.info({ method: 'GET', path: '/api/x', status: 200, ms: 1.234, token: 'tok-secret' }, 'request');
    expect(text).toMatch(/^\d\d:\d\d:\d\d INFO {2}request method=GET path=\/api\/x status=200 ms=1\.2 token=\[redacted\]\n$/);
  });

  it('puts an error\'s stack on the lines below, and passes anything that is not JSON unchanged', () => {
    const error = new Error('boom');
    const line = prettyLine(JSON.stringify({ level: 50, time: Date.now(), msg: 'failed', err: { message: 'boom', stack: error.stack } }));
    const [head, ...below] = line.trimEnd().split('\n');
    expect(head).toMatch(/ ERROR failed$/);
    expect(below[0]).toBe('  Error: boom');
    expect(below.slice(1).every((l) => l.startsWith('      at '))).toBe(true);
    expect(prettyLine('not json\n')).toBe('not json\n');
    expect(prettyLine(JSON.stringify({ level: 40, time: 0, msg: 'slow' }), true)).toContain('\x1b[33mWARN');
  });
});

describe('failures that repeat while Redis is away', () => {
  it('are written once every 10 s, each line saying how many it left out (each write wrote one, with a stack)', async () => {
    const { log, written } = capturedLogger();
    // Nothing listens there: every invalidation fails, as every write's did during an outage.
    const cache = createResponseCache({ redisUrl: `redis://127.0.0.1:${await freePort()}`, prefix: `test:${randomUUID()}:`, log });
    const lines = () => written().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { msg: string; suppressed?: number });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      for (let i = 0; i < 50; i++) await cache.invalidate([{ event: 'user.updated', timestamp: new Date().toISOString(), userId: `usr_${i}` }]);
      expect(lines().map((line) => line.msg)).toEqual(['response cache: invalidation failed (entries expire within the TTL)']);
      expect(lines()[0]!.suppressed).toBeUndefined();
      vi.setSystemTime(Date.now() + 10_000);
      await cache.invalidate([{ event: 'user.updated', timestamp: new Date().toISOString(), userId: 'usr_last' }]);
      expect(lines()).toHaveLength(2);
      expect(lines()[1]).toMatchObject({ msg: 'response cache: invalidation failed (entries expire within the TTL)', suppressed: 49 });
    } finally {
      vi.useRealTimers();
      await cache.close();
    }
  });
});
