// Vitest fixtures for tests over real HTTP: a test server, a client bound to it, and the demo
// accounts signed in. One server per `serverTest` call, started before the file's tests and
// stopped after its last: starting one per test would multiply the suite's time.
import { test as base } from 'vitest';
import { client } from './http.js';
import { startReceiver } from './receiver.js';
import { DATABASES, startTestServer, type DatabaseKind, type TestServerOptions } from './server.js';

/**
 * A `test` whose context has `server` (started with `options`), `api` (a client of it), and `ada`
 * (ADMIN, PRO), `grace` (MEMBER, FREE), `alan` (MEMBER, ENTERPRISE): a bearer token of each demo
 * account, signed in when first asked for and kept for the file. Call it at the top level of the
 * test file (vitest allows file-scoped fixtures only there); each call is a server of its own.
 * `test.beforeAll(async ({ api, ada }) => …)` seeds what the file's tests share.
 */
export function serverTest(options: TestServerOptions = {}) {
  const test = base
    // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from its destructured first argument
    .extend('server', { scope: 'file' }, async ({}, { onCleanup }) => {
      const server = await startTestServer(options);
      onCleanup(() => server.stop());
      return server;
    })
    .extend('api', { scope: 'file' }, ({ server }) => client(server.url))
    .extend('ada', { scope: 'file' }, async ({ api }) => (await api.loginAs('ada')).token)
    .extend('grace', { scope: 'file' }, async ({ api }) => (await api.loginAs('grace')).token)
    .extend('alan', { scope: 'file' }, async ({ api }) => (await api.loginAs('alan')).token);
  // Started in a hook, under the hook timeout: a server's start is set-up, not the first test's time.
  test.beforeAll(({ server }) => {
    void server;
  });
  return test;
}

export type ServerTest = ReturnType<typeof serverTest>;

/**
 * A `serverTest` whose context also has `rx`: a webhook receiver on 127.0.0.1 answering 200,
 * started when a test first asks for it and closed after the file's last test. Call it at the top level.
 */
export function serverAndReceiverTest(options: TestServerOptions = {}) {
  return serverTest(options)
    // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from its destructured first argument
    .extend('rx', { scope: 'file' }, async ({}, { onCleanup }) => {
      const rx = await startReceiver();
      onCleanup(() => rx.close());
      return rx;
    });
}

/**
 * One `serverTest` per database, for `describe.each(DATABASES)`: `const tests = serverTestOn(...)`
 * at the top level, then `const it = tests[kind]` in the describe. Both servers start before the
 * file's tests.
 */
export function serverTestOn(options: Omit<TestServerOptions, 'kind'> = {}): Record<DatabaseKind, ServerTest> {
  return Object.fromEntries(DATABASES.map((kind) => [kind, serverTest({ ...options, kind })])) as Record<DatabaseKind, ServerTest>;
}

/**
 * A `test` whose context has `a` and `b`: two instances of the service on one PostgreSQL database
 * (each started with `options`, e.g. a REDIS_URL both share), as behind a load balancer. Both start
 * before the file's tests and stop after its last, `b` first. Call it at the top level, as `serverTest`.
 */
export function instancesTest(options: Omit<TestServerOptions, 'kind' | 'reuse'> = {}) {
  const test = base
    // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from its destructured first argument
    .extend('a', { scope: 'file' }, async ({}, { onCleanup }) => {
      const server = await startTestServer({ ...options, kind: 'postgres' });
      onCleanup(() => server.stop());
      return server;
    })
    .extend('b', { scope: 'file' }, async ({ a }, { onCleanup }) => {
      const server = await startTestServer({ ...options, kind: 'postgres', reuse: { dataDir: a.config.dataDir, databaseUrl: a.databaseUrl } });
      onCleanup(() => server.stop());
      return server;
    });
  test.beforeAll(({ b }) => {
    void b;
  });
  return test;
}
