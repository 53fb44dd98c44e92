// What is written stays written across a restart, on both databases; tokens survive it too
// (the generated signing key is kept in DATA_DIR); the demo data is seeded only once.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/open-database.js';
import { serverTestOn, startForDescribe } from './support/fixtures.js';
import { client } from './support/http.js';
import { createPgDatabase, DATABASES, startTestServer, type DatabaseKind, type TestServer } from './support/server.js';

// Each describe's server runs only while it does, as the seeding tests' servers do.
const persisting = serverTestOn({}, { per: 'describe' });

describe.each(DATABASES)('persistence on %s', (kind) => {
  const it = persisting[kind];
  let server: TestServer;
  startForDescribe(it);
  it.beforeAll(({ server: started }) => {
    server = started;
  });

  it('keeps users, changes, page views and tokens across a restart', { timeout: 180_000 }, async ({ api: itsClient }) => {
    let api = itsClient;
    const email = `persist-${kind}@example.com`;
    const password = 'persist-password-1';
    const registered = await api.post('/api/auth/register', { email, password, name: 'Before Restart' });
    expect(registered.status).toBe(201);
    const { token, refreshToken } = registered.body as { token: string; refreshToken: string };
    const id = registered.body.user.id as string;
    expect((await api.patch('/api/v1/user/me', { name: 'Renamed' }, { token })).status).toBe(200);
    const path = `/persisted/${kind}`;
    expect((await api.post('/api/analytics/views', { path })).status).toBe(202);
    expect((await api.post('/api/analytics/views', { path })).status).toBe(202);
    const totalBefore = (await api.get('/api/analytics/views')).body.total as number;
    const docsBefore = (await api.get('/api/content/docs')).body as unknown[];
    expect(docsBefore.length).toBeGreaterThan(0);
    const secretBefore = await readFile(join(server.config.dataDir, 'jwt-secret'), 'utf8');

    server = await server.restart();
    api = client(server.url);

    // The access token issued before the restart still works, and the change is there.
    const me = await api.get('/api/v1/user/me', { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id, email, name: 'Renamed', role: 'MEMBER', tier: 'FREE' });
    expect((await api.get(`/api/users/${id}`)).body).toMatchObject({ id, name: 'Renamed' });
    // So does the refresh token, and the password.
    expect((await api.post('/api/auth/refresh', { refreshToken })).status).toBe(200);
    expect((await api.post('/api/auth/login', { email, password })).status).toBe(200);
    // Page views are kept, and the demo data (docs, page views) was not added a second time.
    expect((await api.get(`/api/analytics/views?path=${path}`)).body).toEqual({ total: 2 });
    expect((await api.get('/api/analytics/views')).body).toEqual({ total: totalBefore });
    expect(((await api.get('/api/content/docs')).body as unknown[]).length).toBe(docsBefore.length);
    expect(server.logs.some((l) => l.msg === 'seeded demo data')).toBe(false);
    // Registering the same e-mail again is still a conflict: the account is really there.
    expect((await api.post('/api/auth/register', { email, password, name: 'Again' })).status).toBe(409);

    expect(await readFile(join(server.config.dataDir, 'jwt-secret'), 'utf8')).toBe(secretBefore);
  });

  it('keeps the generated signing key in DATA_DIR/jwt-secret, mode 0600', async () => {
    const file = join(server.config.dataDir, 'jwt-secret');
    const info = await stat(file);
    expect(info.isFile()).toBe(true);
    expect(info.mode & 0o777).toBe(0o600);
    expect(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64url').equals(Buffer.from(server.config.jwtKeys[0]!))).toBe(true);
  });
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The demo data has something for every chart on a fresh start: page views in each 5 minutes of
 * the last hour, each hour of the last day and each day of the last 14 (relative to when it was
 * seeded, none in the future); a published lesson series, its parts in order; and the series as a
 * published course whose counters equal the counts over its rows, with its events dated over the
 * last week (inside the default event retention) in id order, the order the relay positions them.
 */
async function expectFreshDemoData(dataDir: string, databaseUrl: string | undefined, startedAt: number): Promise<void> {
  const db = await openDatabase(loadConfig({ DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }));
  try {
    const views = (await db.prisma.pageView.findMany({ select: { at: true } })).map((v) => v.at.getTime());
    const seededAt = Math.max(...views);
    expect(seededAt).toBeGreaterThanOrEqual(startedAt - HOUR);
    expect(seededAt).toBeLessThanOrEqual(Date.now());
    const within = (from: number, to: number) => views.filter((at) => at >= from && at < to).length;
    for (let m = 1; m < 12; m++) expect(within(seededAt - m * 5 * 60_000, seededAt - (m - 1) * 5 * 60_000 + 1), `${m * 5} minutes back`).toBeGreaterThan(0);
    for (let h = 1; h < 24; h++) expect(within(seededAt - (h + 1) * HOUR, seededAt - h * HOUR), `${h} hours back`).toBeGreaterThan(0);
    for (let d = 1; d < 14; d++) expect(within(seededAt - (d + 1) * DAY, seededAt - d * DAY), `${d} days back`).toBeGreaterThan(0);
    expect(Math.min(...views)).toBeGreaterThan(seededAt - 14 * DAY);

    const series = await db.prisma.lesson.findMany({ where: { status: 'PUBLISHED' }, orderBy: { publishedAt: 'asc' }, select: { body: true, publishedAt: true } });
    expect(series.length).toBeGreaterThanOrEqual(2);
    series.forEach((lesson, i) => expect(lesson.body).toMatch(new RegExp(`^Foundations of computing, part ${i + 1} of ${series.length}\\.`)));
    expect(series.at(-1)!.publishedAt!.getTime()).toBeGreaterThan(seededAt - 14 * DAY);

    const course = await db.prisma.course.findFirstOrThrow({
      include: { stats: true, enrollments: true, lessons: { orderBy: { position: 'asc' }, include: { lesson: { select: { body: true } } } } },
    });
    expect(course).toMatchObject({ title: 'Foundations of computing', status: 'PUBLISHED' });
    expect(course.lessons.map((l) => l.lesson.body.split('.')[0])).toEqual(series.map((l) => l.body.split('.')[0]));
    const completions = await db.prisma.lessonCompletion.findMany();
    const enrolled = course.enrollments.filter((e) => e.leftAt === null);
    for (const l of course.lessons) {
      expect(l.completed).toBe(enrolled.filter((e) => completions.some((c) => c.userId === e.userId && c.lessonId === l.lessonId)).length);
    }
    expect(course.stats).toMatchObject({ enrolled: enrolled.length, completed: enrolled.filter((e) => e.completedAt).length });
    expect(course.stats).toMatchObject({ enrolled: 2, completed: 1 });

    // By id: the relay positions events in id order (the server may have stopped before it did).
    const events = await db.prisma.event.findMany({ where: { type: { not: 'analytics.hit' } }, orderBy: { id: 'asc' } });
    expect(events.length).toBe(1 + enrolled.length + completions.length + 1);
    const times = events.map((e) => e.createdAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[0]!).toBeGreaterThan(seededAt - 7 * DAY);
    expect(times.at(-1)!).toBeLessThan(seededAt);
    for (const e of events) {
      const payload = e.payload as { event: string; timestamp: string; userId?: string };
      expect(payload).toMatchObject({ event: e.type, timestamp: e.createdAt.toISOString() });
      // About one learner: theirs (and ADMINs') to see; the publication: everyone's.
      expect(e.ownerId).toBe(payload.userId ?? null);
      expect(e.adminOnly).toBe(false);
    }
    const completed = events.filter((e) => e.type === 'course.completed');
    expect(completed).toHaveLength(1);
    expect(course.enrollments.find((e) => e.completedAt)!.completedAt).toEqual(completed[0]!.createdAt);
  } finally {
    await db.close();
  }
}

// Servers of its own, started inside the tests: they begin on an empty database, or without the
// demo data, and the first is stopped before the second starts on what it left.
describe.each(DATABASES)('seeding on %s', (kind: DatabaseKind) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('seeds the demo data once: a restart leaves the user count unchanged', { timeout: 180_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'learnstream-seed-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    let databaseUrl: string | undefined;
    if (kind === 'postgres') {
      const db = await createPgDatabase();
      cleanups.push(() => db.drop());
      databaseUrl = db.url;
    }
    const reuse = { dataDir, databaseUrl };
    /** Counts rows with the server stopped (PGlite allows one process at a time). */
    const counts = async () => {
      const db = await openDatabase(loadConfig({ DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }));
      try {
        const { prisma } = db;
        return {
          users: await prisma.user.count(), lessons: await prisma.lesson.count(), docs: await prisma.docPage.count(),
          courses: await prisma.course.count(), enrollments: await prisma.enrollment.count(), completions: await prisma.lessonCompletion.count(),
          events: await prisma.event.count({ where: { type: { not: 'analytics.hit' } } }),
        };
      } finally {
        await db.close();
      }
    };

    const startedAt = Date.now();
    const first = await startTestServer({ kind, reuse });
    expect(first.logs.some((l) => l.msg === 'seeded demo data')).toBe(true);
    await first.stop();
    const seeded = await counts();
    expect(seeded.users).toBeGreaterThanOrEqual(3);
    expect(seeded.lessons).toBeGreaterThanOrEqual(2);
    expect(seeded.docs).toBeGreaterThanOrEqual(1);
    expect(seeded).toMatchObject({ courses: 1, enrollments: 2, completions: 5, events: 9 });
    await expectFreshDemoData(dataDir, databaseUrl, startedAt);

    const second = await startTestServer({ kind, reuse });
    try {
      expect(second.logs.some((l) => l.msg === 'seeded demo data')).toBe(false);
      // The demo accounts still sign in (and exist once: their e-mails are unique).
      await client(second.url).loginAs('ada');
    } finally {
      await second.stop();
    }
    expect(await counts()).toEqual(seeded);
  });

  it('SEED=never starts on an empty database without demo data', async () => {
    const server = await startTestServer({ kind, env: { SEED: 'never' } });
    try {
      const api = client(server.url);
      expect((await api.get('/api/content/docs')).body).toEqual([]);
      expect((await api.post('/api/auth/login', { email: 'ada@example.com', password: 'lovelace-1815' })).status).toBe(401);
    } finally {
      await server.stop();
    }
  });
});
