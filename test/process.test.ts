// The real process, as `npm start` runs it: bad configuration, production mode, graceful
// shutdown. Every child is killed in afterAll if a test left it running.
import { spawn as spawnProcess, spawnSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { connect, createServer, type AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startBanner } from '../src/banner.js';
import { DEMO_ACCOUNTS } from '../src/db/seed.js';
import { client, type Client } from './support/http.js';
import { processPool, TEST_JWT_SECRET as SECRET, type Child } from './support/process.js';
import { createPgDatabase } from './support/server.js';
import { freePort, waitFor } from './support/wait.js';

/** Generous: a first start creates the database and runs every migration. */
const START_DEADLINE_MS = 60_000;
/** For tests that start one or two processes (a loaded machine may need most of a minute each). */
const SLOW = { timeout: 180_000 };

const pool = processPool();
afterAll(() => pool.cleanup());

/** `spawnService(env)`: the process with exactly `env` (plus PATH/HOME), none of the pool's test defaults. */
const { spawn: spawnService, logLines, tempDir } = pool;
/** Waits for the "listening" log line and returns its url (fails if the process exits first). */
const listeningUrl = (child: Child): Promise<string> => pool.listeningUrl(child, START_DEADLINE_MS);


/**
 * The demo course, as ada and its two learners see it on a fresh start: the published series in
 * order, Grace enrolled with one lesson of four done, Alan enrolled and done, the stats counting
 * them, and the course's events in the list, each learner's only to that learner (and ADMINs).
 */
async function expectDemoCourse(api: Client): Promise<void> {
  const [ada, grace, alan] = (await Promise.all((['ada', 'grace', 'alan'] as const).map((who) => api.loginAs(who)))).map((s) => s.token as string) as [string, string, string];
  const courses = (await api.get('/api/v1/courses', { token: grace })).body as { items: { id: string; title: string; status: string; lessonIds: string[] }[] };
  expect(courses.items.map((c) => [c.title, c.status, c.lessonIds.length])).toEqual([['Foundations of computing', 'PUBLISHED', 4]]);
  const { id, lessonIds } = courses.items[0]!;
  const titles = await Promise.all(lessonIds.map(async (lesson) => (await api.get(`/api/v1/lessons?id=${lesson}`, { token: grace })).body.title as string));
  expect(titles).toEqual(['What is an algorithm?', 'Notes on the Analytical Engine', 'Compilers, briefly', 'Computable numbers']);
  expect((await api.get(`/api/v1/courses/${id}/stats`, { token: ada })).body).toEqual({
    enrolled: 2, completed: 1, completionRate: 0.5,
    lessons: lessonIds.map((lessonId, i) => ({ lessonId, completed: i === 0 ? 2 : 1 })),
  });
  const mine = async (token: string) => ((await api.get('/api/v1/enrollments', { token })).body as { items: Record<string, unknown>[] }).items;
  expect(await mine(grace)).toMatchObject([{ courseId: id, completedAt: null, progress: { completed: 1, total: 4 } }]);
  expect(await mine(alan)).toMatchObject([{ courseId: id, completedAt: expect.any(String), progress: { completed: 4, total: 4 } }]);

  const events = async (token: string) =>
    ((await api.get('/api/v1/events?types=course.published,enrollment.created,lesson.completed,course.completed', { token })).body as { items: { event: string; userId?: string }[] }).items;
  const all = await events(ada);
  expect(all.map((e) => e.event).sort()).toEqual([
    'course.completed', 'course.published', 'enrollment.created', 'enrollment.created',
    'lesson.completed', 'lesson.completed', 'lesson.completed', 'lesson.completed', 'lesson.completed',
  ]);
  const graceId = (await api.get('/api/v1/user/me', { token: grace })).body.id as string;
  expect((await events(grace)).map((e) => [e.event, e.userId])).toEqual([
    ['lesson.completed', graceId], ['course.published', undefined], ['enrollment.created', graceId],
  ]);
}

function stderrLines(child: Child): string[] {
  return child.stderr().split('\n').filter(Boolean);
}

describe('bad configuration', () => {
  it('exits non-zero with exactly one line per problem, each naming its variable', async () => {
    const dataDir = await tempDir();
    const child = spawnService({
      DATA_DIR: dataDir, PORT: 'abc', DATABASE_URL: 'mysql://root:hunter2@x', TRUST_PROXY: 'maybe',
      WEBHOOK_RETRY_SCHEDULE: '5x', JWT_SECRET: 'short',
    });
    const { code } = await child.exited;
    expect(code).not.toBe(0);
    const lines = stderrLines(child);
    expect(lines).toHaveLength(5);
    for (const line of lines) expect(line).toMatch(/^config: [A-Z_]+: \S/);
    expect(lines.map((l) => l.split(': ')[1]).sort()).toEqual(
      ['DATABASE_URL', 'JWT_SECRET', 'PORT', 'TRUST_PROXY', 'WEBHOOK_RETRY_SCHEDULE'],
    );
    expect(child.stderr()).not.toContain('hunter2');
    expect(child.stdout()).not.toContain('listening');
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('PORT out of range', async () => {
    const child = spawnService({ DATA_DIR: await tempDir(), PORT: '70000' });
    expect((await child.exited).code).not.toBe(0);
    expect(stderrLines(child)).toEqual([expect.stringMatching(/^config: PORT: \S/)]);
  });

  it('production without JWT_SECRET and DATABASE_URL names both', async () => {
    const child = spawnService({ NODE_ENV: 'production', DATA_DIR: await tempDir() });
    expect((await child.exited).code).not.toBe(0);
    expect(stderrLines(child)).toEqual(['config: JWT_SECRET: required in production', 'config: DATABASE_URL: required in production']);
  });

  it('production with a bad value names it together with the missing ones', async () => {
    const child = spawnService({ NODE_ENV: 'production', PORT: 'abc', DATA_DIR: await tempDir() });
    expect((await child.exited).code).not.toBe(0);
    const names = stderrLines(child).map((l) => l.split(': ')[1]);
    expect(names.sort()).toEqual(['DATABASE_URL', 'JWT_SECRET', 'PORT']);
  });

  it('an unreachable database: exits non-zero, saying why', SLOW, async () => {
    // A port nothing listens on: connecting is refused at once.
    const port = await freePort();
    // At debug the error is logged too, with its stack; stderr still has its one line.
    const child = spawnService({
      DATA_DIR: await tempDir(), PORT: '0', JWT_SECRET: SECRET, DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/nothing`, LOG_LEVEL: 'debug',
    });
    expect((await child.exited).code).not.toBe(0);
    expect(stderrLines(child).some((l) => l.startsWith('startup: '))).toBe(true);
    expect(stderrLines(child)).toHaveLength(1);
    expect(logLines(child).some((l) => l.msg === 'could not start' && l.level === 60)).toBe(true);
    expect(logLines(child).find((l) => l.msg === 'could not start')).toMatchObject({ err: { stack: expect.stringContaining('\n    at ') } });
  });

  it('a port in use: exits non-zero with one line naming PORT, and nothing else on stderr', SLOW, async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const child = spawnService({ DATA_DIR: await tempDir(), HOST: '127.0.0.1', PORT: String(port), JWT_SECRET: SECRET });
      expect((await child.exited).code).toBe(1);
      // graphql-ws's listener once printed "Internal error emitted on the WebSocket server" and a stack here.
      expect(stderrLines(child)).toEqual([`config: PORT: 127.0.0.1:${port} is already in use by another process`]);
      // Said at once, before the database was migrated and seeded (it was said after).
      expect(logLines(child).map((line) => line.msg)).not.toContain('migrations applied');
      // Below debug, that line is all: no log line about it, no stack.
      expect(logLines(child).map((line) => line.msg)).not.toContain('could not start');
      expect(child.output()).not.toMatch(/\n\s+at /);
    } finally {
      taken.close();
    }
  });

  it('a HOST that is not this machine\'s: exits non-zero with one line naming HOST, before touching the database', SLOW, async () => {
    // 192.0.2.0/24 is TEST-NET-1, never assigned to a host.
    const dataDir = await tempDir();
    const child = spawnService({ DATA_DIR: dataDir, HOST: '192.0.2.1', PORT: '4000', JWT_SECRET: SECRET });
    expect((await child.exited).code).toBe(1);
    expect(stderrLines(child)).toEqual(['config: HOST: 192.0.2.1 is not an address of this machine']);
    // Said at once: no database was created, migrated or seeded first.
    expect(await readdir(dataDir)).toEqual([]);
  });
});

describe('production', () => {
  it('starts with JWT_SECRET and DATABASE_URL, does not seed, does not serve GraphiQL, stops on SIGTERM', SLOW, async () => {
    const db = await createPgDatabase();
    pool.defer(() => db.drop());
    const dataDir = await tempDir();
    const child = spawnService({ NODE_ENV: 'production', JWT_SECRET: SECRET, DATABASE_URL: db.url, PORT: '0', DATA_DIR: dataDir });
    try {
      const api = client(await listeningUrl(child));
      expect((await api.get('/readyz')).status).toBe(200);

      const docs = await api.get('/api/content/docs');
      expect(docs.status).toBe(200);
      expect(docs.body).toEqual([]);
      const login = await api.post('/api/auth/login', { email: 'ada@example.com', password: 'lovelace-1815' });
      expect(login.status).toBe(401);
      expect((await api.get('/api/analytics/views')).body).toEqual({ total: 0 });

      const graphiql = await api.get('/graphql', { headers: { accept: 'text/html' } });
      expect(graphiql.headers.get('content-type') ?? '').not.toContain('text/html');
      expect(graphiql.text.toLowerCase()).not.toContain('<html');
      expect(graphiql.text).not.toContain('GraphiQL');

      // The real service works: a new account can sign in.
      const registered = await api.post('/api/auth/register', { email: 'prod@example.com', password: 'prod-password-1', name: 'Prod' });
      expect(registered.status).toBe(201);
      expect((await api.get('/api/v1/user/me', { token: registered.body.token })).status).toBe(200);

      // At info, requests are logged but health checks are not (they are at debug).
      const requests = logLines(child).filter((l) => l.msg === 'request');
      expect(requests.some((l) => l.path === '/api/content/docs')).toBe(true);
      expect(requests.filter((l) => l.path === '/readyz' || l.path === '/healthz')).toEqual([]);
      // JWT_SECRET is given: nothing is written to DATA_DIR.
      expect(await readdir(dataDir)).toEqual([]);
      expect(logLines(child).some((l) => l.msg === 'seeded demo data')).toBe(false);
    } finally {
      child.proc.kill('SIGTERM');
    }
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });
});

describe('graceful shutdown (PGlite)', () => {
  it('SIGTERM exits 0 and the data dir opens again at once in a new process', SLOW, async () => {
    const dataDir = await pool.migratedDataDir();
    const env = { NODE_ENV: 'development', PORT: '0', DATA_DIR: dataDir };

    const first = spawnService(env);
    let token: string;
    try {
      const api = client(await listeningUrl(first));
      // Outside production GraphiQL is served (the control for the production test above).
      const graphiql = await api.get('/graphql', { headers: { accept: 'text/html' } });
      expect(graphiql.headers.get('content-type')).toContain('text/html');
      const registered = await api.post('/api/auth/register', { email: 'survivor@example.com', password: 'survivor-pw-1', name: 'Survivor' });
      expect(registered.status).toBe(201);
      token = registered.body.token as string;
      expect((await api.post('/api/analytics/views', { path: '/before-sigterm' })).status).toBe(202);
    } finally {
      first.proc.kill('SIGTERM');
    }
    expect(await first.exited).toEqual({ code: 0, signal: null });
    const firstLogs = logLines(first);
    // stdout is a pipe: JSON lines only, no banner.
    expect(first.stdout().split('\n').filter(Boolean).every((line) => line.startsWith('{'))).toBe(true);
    expect(first.stdout()).not.toContain('Learnstream is running');
    expect(firstLogs.some((l) => l.msg === 'shutting down' && l.signal === 'SIGTERM')).toBe(true);
    expect(firstLogs.some((l) => l.msg === 'stopped')).toBe(true);

    const second = spawnService(env);
    try {
      const api = client(await listeningUrl(second));
      expect((await api.get('/readyz')).status).toBe(200);
      const me = await api.get('/api/v1/user/me', { token });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ email: 'survivor@example.com', name: 'Survivor' });
      expect((await api.get('/api/analytics/views?path=/before-sigterm')).body).toEqual({ total: 1 });
      expect(logLines(second).some((l) => l.msg === 'seeded demo data')).toBe(false);
    } finally {
      second.proc.kill('SIGINT');
    }
    expect(await second.exited).toEqual({ code: 0, signal: null });
  });

  it('SIGTERM while still starting: finishes the start, then stops cleanly (exit 0)', SLOW, async () => {
    const dataDir = await tempDir();
    const env = { NODE_ENV: 'development', PORT: '0', DATA_DIR: dataDir };
    const first = spawnService(env);
    // Signal handlers are in place before the database is opened; the seeding line comes while
    // the start is still under way (listening follows).
    const deadline = Date.now() + START_DEADLINE_MS;
    while (!logLines(first).some((l) => l.msg === 'seeded demo data')) {
      if (first.proc.exitCode !== null || Date.now() > deadline) throw new Error(`no seeding line:\n${first.stdout()}${first.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    first.proc.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(logLines(first).some((l) => l.msg === 'stopped')).toBe(true);

    const second = spawnService(env);
    try {
      const api = client(await listeningUrl(second));
      expect((await api.get('/readyz')).status).toBe(200);
      await api.loginAs('grace');
    } finally {
      second.proc.kill('SIGTERM');
    }
    expect(await second.exited).toEqual({ code: 0, signal: null });
  });

  it('a client stalled mid-request does not keep the process from stopping', SLOW, async () => {
    const child = spawnService({ NODE_ENV: 'development', PORT: '0', DATA_DIR: await pool.migratedDataDir() });
    const url = new URL(await listeningUrl(child));
    // Half a request: the headers never end.
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.proc.kill('SIGTERM');
    try {
      expect(await child.exited).toEqual({ code: 0, signal: null });
    } finally {
      socket.destroy();
    }
  });
});

describe('a first start', () => {
  const demo = DEMO_ACCOUNTS[0];

  it('on a new DATA_DIR: the demo data is there before it listens; with SEED=never it is not', SLOW, async () => {
    const seeded = spawnService({ NODE_ENV: 'development', PORT: '0', DATA_DIR: await tempDir(), JWT_SECRET: SECRET });
    try {
      const api = client(await listeningUrl(seeded));
      const messages = logLines(seeded).map((l) => l.msg);
      expect(messages).toContain('seeded demo data');
      expect(messages.indexOf('seeded demo data')).toBeLessThan(messages.indexOf('listening'));
      await api.loginAs('ada');
      // The fortnight of page views the charts show.
      expect((await api.get('/api/analytics/views')).body.total).toBeGreaterThan(1_000);
      await expectDemoCourse(api);
    } finally {
      seeded.proc.kill('SIGTERM');
    }
    expect(await seeded.exited).toEqual({ code: 0, signal: null });

    const unseeded = spawnService({ NODE_ENV: 'development', PORT: '0', DATA_DIR: await tempDir(), JWT_SECRET: SECRET, SEED: 'never' });
    try {
      const api = client(await listeningUrl(unseeded));
      expect((await api.post('/api/auth/login', { email: demo.email, password: demo.password })).status).toBe(401);
      expect((await api.get('/api/analytics/views')).body).toEqual({ total: 0 });
      expect(logLines(unseeded).some((l) => l.msg === 'seeded demo data')).toBe(false);
    } finally {
      unseeded.proc.kill('SIGTERM');
    }
    expect(await unseeded.exited).toEqual({ code: 0, signal: null });
  });

  it('on an empty PostgreSQL database: migrated and seeded before it listens, once', SLOW, async () => {
    const db = await createPgDatabase();
    pool.defer(() => db.drop());
    const env = { NODE_ENV: 'development', PORT: '0', DATA_DIR: await tempDir(), JWT_SECRET: SECRET, DATABASE_URL: db.url };
    const first = spawnService(env);
    let total: number;
    try {
      const api = client(await listeningUrl(first));
      const messages = logLines(first).map((l) => l.msg);
      expect(messages.indexOf('migrations applied')).toBeGreaterThanOrEqual(0);
      expect(messages.indexOf('seeded demo data')).toBeGreaterThan(messages.indexOf('migrations applied'));
      expect(messages.indexOf('seeded demo data')).toBeLessThan(messages.indexOf('listening'));
      await expectDemoCourse(api);
      total = (await api.get('/api/analytics/views')).body.total as number;
      expect(total).toBeGreaterThan(1_000);
    } finally {
      first.proc.kill('SIGTERM');
    }
    expect(await first.exited).toEqual({ code: 0, signal: null });

    const second = spawnService(env);
    try {
      const api = client(await listeningUrl(second));
      expect(logLines(second).map((l) => l.msg)).not.toContain('seeded demo data');
      expect((await api.get('/api/analytics/views')).body).toEqual({ total });
    } finally {
      second.proc.kill('SIGTERM');
    }
    expect(await second.exited).toEqual({ code: 0, signal: null });
  });
});

describe('at a terminal', () => {
  const admin = DEMO_ACCOUNTS.find((account) => account.role === 'ADMIN')!;

  it('the banner names the URL, the pages, the demo sign-in and how to reset the embedded data', () => {
    const banner = startBanner({ seed: true, production: false, databaseUrl: undefined, dataDir: '/tmp/my data' }, 'http://127.0.0.1:4000');
    for (const page of ['/', '/reference', '/graphql', '/console']) expect(banner).toContain(`http://127.0.0.1:4000${page} `);
    expect(banner).toContain(`${admin.email} / ${admin.password}`);
    expect(banner).toContain("rm -rf '/tmp/my data'");
    // No demo data, no embedded database: neither is mentioned.
    const plain = startBanner({ seed: false, production: true, databaseUrl: 'postgresql://db/x', dataDir: '/tmp/x' }, 'http://[::1]:4000');
    expect(plain).toContain('http://[::1]:4000/reference');
    expect(plain).not.toContain(admin.password);
    expect(plain).not.toContain('rm -rf');
  });

  // util-linux's `script` gives the process a pseudo-terminal, as a person's shell would.
  const hasScript = spawnSync('script', ['--version']).status === 0;
  it.runIf(hasScript)('npm start prints the banner once it listens, and pretty log lines', SLOW, async () => {
    const command = [process.execPath, 'dist/main.js'].map((part) => `'${part}'`).join(' ');
    const proc = spawnProcess('script', ['-qfec', command, '/dev/null'], {
      cwd: resolve(import.meta.dirname, '..'),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', NODE_ENV: 'development', PORT: '0', DATA_DIR: await pool.migratedDataDir() },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const closed = new Promise((done) => proc.on('close', done));
    try {
      await waitFor('the banner', () => out.includes('Demo sign-in'), START_DEADLINE_MS);
      expect(out).toContain('Learnstream is running at http://127.0.0.1:');
      expect(out).toContain(`${admin.email} / ${admin.password}`);
      // Pretty lines, not JSON: "12:00:00 INFO  listening url=…".
      expect(out).toMatch(/\d\d:\d\d:\d\d .*INFO .* listening/);
      expect(out).not.toMatch(/^\{"level"/m);
    } finally {
      process.kill(-proc.pid!, 'SIGTERM');
      await closed;
    }
  });
});
