// Vitest fixtures for tests over real HTTP: a test server, a client bound to it, and the demo
// accounts signed in; a webhook receiver; a browser. One server per `serverTest` call, started
// before the file's tests and stopped after its last (or around one describe, see `Lifetime`):
// starting one per test would multiply the suite's time.
import { test as base } from 'vitest';
import { launchChromium } from './browser.js';
import { ensureConsoleBuilt } from './console-build.js';
import { client } from './http.js';
import { startReceiver, type Answer, type Hit } from './receiver.js';
import { DATABASES, startTestServer, type DatabaseKind, type TestServer, type TestServerOptions } from './server.js';

/**
 * When a fixture's servers run. 'file' (the default): from before the file's first test to after
 * its last. 'describe': only while the describe that calls `startForDescribe` (or
 * `startServersForDescribe`) runs, for files whose describes each need servers of their own and
 * would otherwise run them all at once.
 */
export interface Lifetime {
  per?: 'file' | 'describe';
}

/**
 * A `test` whose context has `server` (started with `options`), `api` (a client of it), and `ada`
 * (ADMIN, PRO), `grace` (MEMBER, FREE), `alan` (MEMBER, ENTERPRISE): a bearer token of each demo
 * account, signed in when first asked for and kept for the file. Call it at the top level of the
 * test file (vitest allows file-scoped fixtures only there); each call is a server of its own.
 * `test.beforeAll(async ({ api, ada }) => …)` seeds what the file's tests share.
 */
export function serverTest(options: TestServerOptions = {}, { per = 'file' }: Lifetime = {}) {
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
  if (per === 'file') {
    test.beforeAll(({ server }) => {
      void server;
    });
  }
  return test;
}

export type ServerTest = ReturnType<typeof serverTest>;

/**
 * Inside a describe, for a `serverTest(…, { per: 'describe' })`: its server starts before the
 * describe's first test and stops after its last.
 */
export function startForDescribe(test: Pick<ServerTest, 'beforeAll' | 'afterAll'>): void {
  test.beforeAll(({ server }) => {
    void server;
  });
  test.afterAll(({ server }) => server.stop());
}

/**
 * A `test` whose context has `servers`: one test server per name, each started with its options,
 * all at once. For tests that compare deployments side by side (two databases, two settings).
 */
export function serversTest<Name extends string>(options: Record<Name, TestServerOptions>, { per = 'file' }: Lifetime = {}) {
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from its destructured first argument
  const test = base.extend('servers', { scope: 'file' }, async ({}, { onCleanup }) => {
    const names = Object.keys(options) as Name[];
    const started = await Promise.allSettled(names.map((name) => startTestServer(options[name])));
    const running = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    onCleanup(async () => {
      await Promise.all(running.map((server) => server.stop()));
    });
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    return Object.fromEntries(names.map((name, i) => [name, running[i]!])) as Record<Name, TestServer>;
  });
  if (per === 'file') {
    test.beforeAll(({ servers }) => {
      void servers;
    });
  }
  return test;
}

export type ServersTest<Name extends string> = ReturnType<typeof serversTest<Name>>;

/** Inside a describe, for a `serversTest(…, { per: 'describe' })`: as `startForDescribe`, for every server. */
export function startServersForDescribe<Name extends string>(test: Pick<ServersTest<Name>, 'beforeAll' | 'afterAll'>): void {
  test.beforeAll(({ servers }) => {
    void servers;
  });
  test.afterAll(async ({ servers }) => {
    await Promise.all(Object.values<TestServer>(servers).map((server) => server.stop()));
  });
}

/** How a fixture's receiver answers (200 unless given), and when its server runs. */
export interface ReceiverOptions extends Lifetime {
  respond?: (hit: Hit, n: number) => Answer | number;
}

/**
 * A `serverTest` whose context also has `rx`: a webhook receiver on 127.0.0.1 answering with
 * `respond`, started when a test first asks for it and closed after the file's last test. Call it
 * at the top level.
 */
export function serverAndReceiverTest(options: TestServerOptions = {}, { respond, per }: ReceiverOptions = {}) {
  return serverTest(options, { per })
    // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from its destructured first argument
    .extend('rx', { scope: 'file' }, async ({}, { onCleanup }) => {
      const rx = await startReceiver(respond);
      onCleanup(() => rx.close());
      return rx;
    });
}

/**
 * A `serverAndReceiverTest` whose context also has `browser`: headless Chromium, launched before
 * the file's tests (after building the operator console if `withConsole` and its build is stale)
 * and closed after its last. Each test opens pages or contexts of its own. Call it at the top level.
 */
export function browserTest(options: TestServerOptions = {}, { withConsole = false, respond }: { withConsole?: boolean; respond?: ReceiverOptions['respond'] } = {}) {
  const test = serverAndReceiverTest(options, { respond })
    // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from its destructured first argument
    .extend('browser', { scope: 'file' }, async ({}, { onCleanup }) => {
      if (withConsole) await ensureConsoleBuilt();
      const browser = await launchChromium();
      onCleanup(() => browser.close());
      return browser;
    });
  test.beforeAll(({ browser }) => {
    void browser;
  });
  return test;
}

/**
 * One `serverTest` per database, for `describe.each(DATABASES)`: `const tests = serverTestOn(...)`
 * at the top level, then `const it = tests[kind]` in the describe. Both servers start before the
 * file's tests, or with `{ per: 'describe' }` each in its describe (`startForDescribe(it)`).
 */
export function serverTestOn(options: Omit<TestServerOptions, 'kind'> = {}, lifetime: Lifetime = {}): Record<DatabaseKind, ServerTest> {
  return Object.fromEntries(DATABASES.map((kind) => [kind, serverTest({ ...options, kind }, lifetime)])) as Record<DatabaseKind, ServerTest>;
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
