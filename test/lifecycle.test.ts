// The process's life as an operator sees it, each case found by a probe: one process per embedded
// database, a database that stops answering (through a TCP proxy that stops forwarding), signals
// through `npm start`, a signal while the start is stuck, a long webhook timeout at stop, Ctrl-C
// during the first migration. Real processes and sockets; every child is killed in afterAll.
import { spawn as spawnProcess, execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { processPool, TEST_JWT_SECRET as SECRET, type Child } from './support/process.js';
import { pausableProxy } from './support/proxy.js';
import { startReceiver } from './support/receiver.js';
import { createPgDatabase, PG_ADMIN_URL, startTestServer } from './support/server.js';
import { sleep, waitFor } from './support/wait.js';

const ROOT = resolve(import.meta.dirname, '..');
const START_DEADLINE_MS = 60_000;
const SLOW = { timeout: 180_000 };
/** pg advisory lock key the instances take turns under while migrating (src/db/client.ts). */
const MIGRATION_LOCK = '119161006057842';

const pool = processPool();
afterAll(() => pool.cleanup());
const { spawn: spawnService, logLines, tempDir, migratedDataDir } = pool;
const listeningUrl = (child: Child): Promise<string> => pool.listeningUrl(child, START_DEADLINE_MS);

/** Process groups started here (detached), SIGKILLed in afterAll if still there. */
const groups = new Set<number>();
afterAll(() => {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

/** Whether any process of the group is still there. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** `command args` in a process group of its own (as a terminal runs it), with exactly `env` plus PATH/HOME. */
function spawnGroup(command: string, args: string[], env: Record<string, string>): Child {
  const proc = spawnProcess(command, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  groups.add(proc.pid!);
  let out = '';
  let err = '';
  let all = '';
  proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => ((out += chunk), (all += chunk)));
  proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => ((err += chunk), (all += chunk)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.on('close', (code, signal) => resolve({ code, signal })));
  return { proc, stdout: () => out, stderr: () => err, output: () => all, exited };
}

/** The exit, or 'still running' when it has not come within `ms` (a generous "it ends at all"). */
async function exitWithin(child: Child, ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null } | 'still running'> {
  return Promise.race([child.exited, sleep(ms).then(() => 'still running' as const)]);
}

/** The pids of `pid`'s child processes. */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' }).split('\n').filter((l) => l.trim()).map(Number);
  } catch {
    return []; // ps exits 1 when it lists nothing
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const stderrLines = (child: Child) => child.stderr().split('\n').filter(Boolean);

/** `url` with its port replaced. */
function throughPort(url: string, port: number): string {
  const u = new URL(url);
  u.port = String(port);
  return u.toString();
}

/** A request with a patience of its own: the reply, or 'no answer' when none came within `ms`. */
async function fetchWithin(url: string, init: RequestInit, ms: number): Promise<{ status: number; body: unknown } | 'no answer'> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(ms) });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') return 'no answer';
    throw error;
  }
}

describe('one process per embedded database (DATA_DIR)', () => {
  it('a second process on the same DATA_DIR refuses to start, naming it and the first; a killed one does not block', SLOW, async () => {
    const dataDir = await tempDir();
    const env = { NODE_ENV: 'development', PORT: '0', DATA_DIR: dataDir, JWT_SECRET: SECRET, LOG_LEVEL: 'info' };
    // A first start: it migrates in a child process, which the lock lets in (the parent handed it over).
    const first = spawnService(env);
    const api = client(await listeningUrl(first));
    const registered = await api.post('/api/auth/register', { email: 'first@example.com', password: 'first-password-1', name: 'First' });
    expect(registered.status).toBe(201);

    const second = spawnService(env);
    expect(await exitWithin(second, 60_000)).toMatchObject({ code: 1 });
    expect(stderrLines(second)).toEqual([
      `config: DATA_DIR: ${dataDir} is in use by another process (pid ${first.proc.pid}); the embedded database belongs to one process — use DATABASE_URL to run several`,
    ]);
    expect(second.stdout()).not.toContain('listening');
    // The first is untouched.
    expect((await api.get('/readyz')).status).toBe(200);

    // kill -9 leaves the lock behind: its process is gone, so the next start takes it over.
    first.proc.kill('SIGKILL');
    await first.exited;
    const third = spawnService(env);
    const api3 = client(await listeningUrl(third));
    expect((await api3.get('/readyz')).status).toBe(200);
    third.proc.kill('SIGTERM');
    expect(await third.exited).toEqual({ code: 0, signal: null });
    // A stop releases it: a fourth starts, and the writes acknowledged before the first's kill -9 are there.
    const fourth = spawnService(env);
    const api4 = client(await listeningUrl(fourth));
    expect((await api4.post('/api/auth/login', { email: 'first@example.com', password: 'first-password-1' })).status).toBe(200);
    fourth.proc.kill('SIGTERM');
    expect(await fourth.exited).toEqual({ code: 0, signal: null });
  });

  it('a process on the DATA_DIR of a server running in the test process is refused too', SLOW, async () => {
    const server = await startTestServer({ kind: 'pglite' });
    try {
      const child = spawnService({ NODE_ENV: 'development', PORT: '0', DATA_DIR: server.config.dataDir, JWT_SECRET: SECRET });
      expect(await exitWithin(child, 60_000)).toMatchObject({ code: 1 });
      expect(stderrLines(child)).toEqual([expect.stringMatching(new RegExp(`^config: DATA_DIR: .* is in use by another process \\(pid ${process.pid}\\)`))]);
      expect((await client(server.url).get('/readyz')).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe('a database that stops answering (a proxy in front of PostgreSQL that stops forwarding)', () => {
  it('/readyz answers 503 promptly, API requests answer the contract 503, and both recover', SLOW, async () => {
    const db = await createPgDatabase({ migrated: true });
    const proxy = await pausableProxy(Number(new URL(PG_ADMIN_URL).port || 5432));
    const dataDir = await mkdtemp(join(tmpdir(), 'learnstream-lifecycle-'));
    const server = await startTestServer({ kind: 'postgres', env: NO_RATE_LIMITS, reuse: { dataDir, databaseUrl: throughPort(db.url, proxy.port) } });
    try {
      const api = client(server.url);
      expect((await api.get('/readyz')).status).toBe(200);
      const login = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'ada@example.com', password: 'lovelace-1815' }) };
      expect((await api.post('/api/auth/login', { email: 'ada@example.com', password: 'lovelace-1815' })).status).toBe(200);

      proxy.pause();
      const ready = await fetchWithin(`${server.url}/readyz`, {}, 15_000);
      expect(ready).toEqual({ status: 503, body: { status: 'unavailable' } });
      expect(server.logs.some((l) => l.msg === 'readiness check failed')).toBe(true);

      const refused = await fetchWithin(`${server.url}/api/auth/login`, login, 60_000);
      expect(refused).toMatchObject({ status: 503, body: { error: true, code: 503 } });
      const graphql = await fetchWithin(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ lessons(first: 1) { edges { node { id } } } }' }) }, 60_000);
      expect(graphql).not.toBe('no answer');

      proxy.resume();
      await waitFor('ready again', async () => (await api.get('/readyz')).status === 200, 30_000);
      await waitFor('signing in again', async () => (await api.post('/api/auth/login', { email: 'ada@example.com', password: 'lovelace-1815' })).status === 200, 30_000);
    } finally {
      proxy.resume();
      await server.stop();
      await proxy.close();
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('a start against it fails with a clear line instead of waiting forever', SLOW, async () => {
    const db = await createPgDatabase({ migrated: true });
    pool.defer(() => db.drop());
    const proxy = await pausableProxy(Number(new URL(PG_ADMIN_URL).port || 5432));
    pool.defer(() => proxy.close());
    proxy.pause();
    // At debug, so that the error is logged too (below it, the stderr line is all).
    const child = spawnService({ NODE_ENV: 'development', PORT: '0', DATA_DIR: await tempDir(), JWT_SECRET: SECRET, DATABASE_URL: throughPort(db.url, proxy.port), LOG_LEVEL: 'debug' });
    const exit = await exitWithin(child, 90_000);
    expect(exit).not.toBe('still running');
    expect(exit).toMatchObject({ code: 1 });
    expect(stderrLines(child)).toEqual([expect.stringMatching(/^startup: .*the database did not answer/)]);
    expect(logLines(child).some((l) => l.msg === 'could not start')).toBe(true);
  });
});

describe('signals', () => {
  it('SIGTERM to `npm start` (npm alone) stops the service gracefully and leaves no process behind', SLOW, async () => {
    const npm = spawnGroup('npm', ['start', '--silent'], { NODE_ENV: 'development', PORT: '0', DATA_DIR: await migratedDataDir(), JWT_SECRET: SECRET, LOG_LEVEL: 'info' });
    const api = client(await listeningUrl(npm));
    expect((await api.get('/readyz')).status).toBe(200);
    process.kill(npm.proc.pid!, 'SIGTERM');
    const exit = await exitWithin(npm, 60_000);
    expect(exit).toEqual({ code: 0, signal: null });
    const logs = logLines(npm);
    expect(logs.some((l) => l.msg === 'shutting down' && l.signal === 'SIGTERM')).toBe(true);
    expect(logs.some((l) => l.msg === 'stopped')).toBe(true);
    await waitFor('every process of the group gone', () => !groupAlive(npm.proc.pid!), 10_000);
  });

  it('SIGTERM while the start waits (for the migration lock) still ends the process, and its migration child', SLOW, async () => {
    const db = await createPgDatabase();
    pool.defer(() => db.drop());
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    pool.defer(() => holder.end());
    await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const waiters = async () =>
      (await holder.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE d.datname = current_database() AND l.locktype = 'advisory' AND NOT l.granted`)).rows[0]!.n;

    const child = spawnService({ NODE_ENV: 'development', PORT: '0', DATA_DIR: await tempDir(), JWT_SECRET: SECRET, DATABASE_URL: db.url, LOG_LEVEL: 'info' });
    await waitFor('the start waiting for the migration lock', async () => (await waiters()) > 0, 60_000);
    const migrating = childrenOf(child.proc.pid!);
    expect(migrating).toHaveLength(1);
    child.proc.kill('SIGTERM');
    const exit = await exitWithin(child, 90_000);
    expect(exit).not.toBe('still running');
    expect(exit).toMatchObject({ code: 1 });
    const logs = logLines(child);
    expect(logs.some((l) => l.msg === 'shutting down')).toBe(true);
    expect(logs.some((l) => l.msg === 'still starting at the shutdown deadline: exiting')).toBe(true);
    // The migration child went with it (PostgreSQL notices its connection gone only once the lock is free).
    await waitFor('the migration child gone', () => !isAlive(migrating[0]!), 10_000);
  });

  it('Ctrl-C during the first migration names the signal', SLOW, async () => {
    // A first start on an empty PostgreSQL database, its migration held at the lock so that it is
    // still running when Ctrl-C comes (a new embedded DATA_DIR starts from the migrated template).
    const db = await createPgDatabase();
    pool.defer(() => db.drop());
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    pool.defer(() => holder.end());
    await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const child = spawnGroup(process.execPath, ['dist/main.js'], {
      NODE_ENV: 'development', PORT: '0', DATA_DIR: await tempDir(), JWT_SECRET: SECRET, DATABASE_URL: db.url, LOG_LEVEL: 'info',
    });
    // The migration child: a process whose parent is the service.
    await waitFor('the migration child', () => childrenOf(child.proc.pid!).length > 0, 60_000);
    // Ctrl-C: SIGINT to the whole foreground process group.
    process.kill(-child.proc.pid!, 'SIGINT');
    const exit = await exitWithin(child, 60_000);
    expect(exit).toMatchObject({ code: 1 });
    expect(stderrLines(child)).toEqual([expect.stringMatching(/^startup: migrating interrupted by SIGINT/)]);
  });
});

describe('stopping with a long webhook timeout', () => {
  it('an attempt in flight gets its whole timeout: it is recorded and the process exits 0', SLOW, async () => {
    const db = await createPgDatabase({ migrated: true });
    pool.defer(() => db.drop());
    const rx = await startReceiver(() => ({ status: 200, delayMs: 120_000 }));
    pool.defer(() => rx.close());
    const child = spawnService({
      NODE_ENV: 'development', PORT: '0', DATA_DIR: await tempDir(), JWT_SECRET: SECRET, DATABASE_URL: db.url, LOG_LEVEL: 'info',
      WEBHOOK_TIMEOUT_MS: '35000', WEBHOOK_RETRY_SCHEDULE: '1h', ...NO_RATE_LIMITS,
    });
    const api = client(await listeningUrl(child));
    const ada = (await api.loginAs('ada')).token;
    const created = await api.post('/api/v1/webhooks', { url: rx.url, events: ['analytics.hit'] }, { token: ada });
    expect(created.status, created.text).toBe(201);
    expect((await api.post('/api/analytics/views', { path: '/long-timeout' })).status).toBeLessThan(300);
    await waitFor('the attempt in flight', () => rx.hits.length === 1, 30_000);

    child.proc.kill('SIGTERM');
    const exit = await exitWithin(child, 120_000);
    expect(exit).toEqual({ code: 0, signal: null });
    const check = new pg.Client({ connectionString: db.url });
    await check.connect();
    try {
      const attempts = (await check.query<{ n: number }>('SELECT count(*)::int AS n FROM "WebhookAttempt"')).rows[0]!.n;
      const leases = (await check.query<{ n: number }>('SELECT count(*)::int AS n FROM "WebhookDelivery" WHERE "lockedUntil" IS NOT NULL')).rows[0]!.n;
      expect({ attempts, leases }).toEqual({ attempts: 1, leases: 0 });
    } finally {
      await check.end();
    }
  });
});
