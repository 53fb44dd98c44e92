// The course-stats section of `npm run bench` ("course stats"; run.ts calls it after the analytics):
// a course's stats at 1 million enrollments and 10 million lesson completions. Goal: GET
// /api/v1/courses/{id}/stats under 20 ms (p95 over HTTP), and the stats exact.
//
// - A dedicated database and service process (rate limits out of reach), so the 11 M rows do not
//   slow the other sections.
// - Seed, with SQL (INSERT … SELECT generate_series, in batches): one published course of 10
//   lessons (the measured one) and 999 published courses of 20 lessons; BENCH_COURSES_ENROLLMENTS
//   enrollments (default 1 M): Grace (a demo MEMBER) in up to 1,000 courses, half of the rest in
//   the measured course, the others spread over the other courses, each learner a "User" row;
//   5 % of them left. BENCH_COURSES_COMPLETIONS lesson completions (default 10 M), exactly: each
//   enrollment completes each of its course's lessons with a probability of its own (some
//   learners finish, most do not), a few drawn at random are taken out to land on the count.
//   Then, with SQL aggregates over those rows, what the service's rules make of them
//   (src/modules/enrollments/progress.ts): an enrollment whose learner completed every lesson is
//   completed (at their last completion); CourseStats counts the enrollments not left, and of them
//   the completed ones; CourseLesson.completed counts the learners enrolled now who completed it.
// - Live: Ada enrols in the measured course and completes its first lesson through the API; the
//   stats must move by exactly that.
// - Exactness: the stats endpoint against count(*) over the rows, by the rule (every lesson
//   completed), not by the counters or completedAt.
// - Latency over HTTP, one keep-alive connection, BENCH_COURSES_REQUESTS requests per shape
//   (default 200): the stats; Grace's enrollments (first page, and random pages of 100); the
//   measured course's enrollments as an ADMIN (first page and random pages of 100). Median, p95, max.
import { DEMO_ACCOUNTS } from '../src/db/seed.js';
import { encodeCursor } from '../src/db/keyset.js';
import { overHttp, signIn } from './lib/accounts.js';
import { startDedicatedService } from './lib/dedicated-service.js';
import { fixed, table } from './lib/report.js';

export const COURSES_GROUP = 'course stats';
const GOAL_MS = 20;
/** The measured course's lessons, the other courses and their lessons each. */
const MAIN_LESSONS = 10;
const OTHER_COURSES = 999;
const OTHER_LESSONS = 20;
/** The share of enrollments left (leftAt set): they count nowhere, their completions stay. */
const LEFT = 0.05;
const SEEDED_TABLES = ['User', 'Lesson', 'Course', 'CourseLesson', 'Enrollment', 'LessonCompletion'];
/** Rows a seeding statement writes, about. */
const BATCH = 1_000_000;

export interface CoursesBenchOptions {
  root: string;
  enrollments: number;
  completions: number;
  requests: number;
  poolSize: number;
  /** Registers a cleanup step with run.ts (run on failure and on SIGINT too). */
  defer(name: string, run: () => Promise<unknown>): void;
  progress(message: string): void;
}

export interface CoursesBenchResult {
  text: string;
  json: Record<string, unknown>;
}

interface Latency {
  shape: string;
  goal: boolean;
  p50: number;
  p95: number;
  max: number;
}

interface Stats {
  enrolled: number;
  completed: number;
  completionRate: number;
  lessons: { lessonId: string; completed: number }[];
}

/** Ids as newId makes them (a prefix, `_`, 26 lower-case characters), numbered: `bench` and 21 digits. */
const idSql = (prefix: string, n: string) => `'${prefix}_bench' || lpad((${n})::text, 21, '0')`;
const idOf = (prefix: string, n: number) => `${prefix}_bench${String(n).padStart(21, '0')}`;
const courseId = (k: number) => idOf('crs', k);
/** Lesson n: the measured course's are 0-9, other course k's (1-999) follow, 20 each. */
const lessonSql = (course: string, position: string) => `(CASE WHEN ${course} = 0 THEN ${position} ELSE ${MAIN_LESSONS} + (${course} - 1) * ${OTHER_LESSONS} + ${position} END)`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

export async function runCoursesBench(o: CoursesBenchOptions): Promise<CoursesBenchResult> {
  const { url, sql } = await startDedicatedService({ name: COURSES_GROUP, root: o.root, poolSize: o.poolSize, defer: o.defer, progress: o.progress });
  const one = async <T>(text: string, params: unknown[] = []) => (await sql.query(text, params)).rows[0] as T;
  const userIdOf = async (email: string) => (await one<{ id: string }>('SELECT id FROM "User" WHERE email = $1', [email])).id;
  const [ada, grace] = [await userIdOf(DEMO_ACCOUNTS[0].email), await userIdOf(DEMO_ACCOUNTS[1].email)];

  // How the enrollments fall: Grace in g courses (the measured one and g - 1 others), m learners
  // in the measured course, r enrollments in the other courses (course = j mod 999, learner
  // j·step mod u: distinct learners within a course, since step is prime to u and j < u).
  const g = Math.min(OTHER_COURSES + 1, Math.max(1, Math.floor(o.enrollments / 10)));
  const m = Math.floor((o.enrollments - g) / 2);
  const r = o.enrollments - g - m;
  const u = Math.max(m, r, 1);
  let step = 7919;
  while (gcd(step, u) !== 1) step += 2;
  // Each enrollment completes each lesson with probability d = h^a (h uniform from a hash of the
  // enrollment): E[d] = 1 / (a + 1) = q, the share of lesson places completed, a little above
  // what the count needs so that trimming lands on it exactly.
  const places = m * MAIN_LESSONS + r * OTHER_LESSONS + MAIN_LESSONS + (g - 1) * OTHER_LESSONS;
  const margin = Math.ceil(0.003 * o.completions + 40 * Math.sqrt(o.enrollments));
  const q = (o.completions + margin) / places;
  if (q >= 1) throw new Error(`${COURSES_GROUP}: ${o.completions} completions do not fit ${o.enrollments} enrollments (at most about ${Math.floor(places * 0.95)})`);
  const exponent = 1 / q - 1;

  const seedStarted = Date.now();
  const now = new Date(Date.now() - 60_000).toISOString();
  await sql.query(`SET work_mem = '256MB'`);
  await sql.query(`SET maintenance_work_mem = '512MB'`);
  o.progress(`${COURSES_GROUP}: seeding ${1 + OTHER_COURSES} courses, ${MAIN_LESSONS + OTHER_COURSES * OTHER_LESSONS} lessons, ${u} learners`);
  const lessons = MAIN_LESSONS + OTHER_COURSES * OTHER_LESSONS;
  await sql.query(
    `INSERT INTO "Lesson" (id, title, body, status, "authorId", "createdAt", "publishedAt", "updatedAt")
     SELECT ${idSql('les', 'i')}, 'Bench lesson ' || i, 'Lesson ' || i || ' of a bench course.', 'PUBLISHED', $1, $2, $2, $2
       FROM generate_series(0, $3::int - 1) AS i`,
    [ada, now, lessons],
  );
  await sql.query(
    `INSERT INTO "Course" (id, title, status, "authorId", "createdAt", "publishedAt", "updatedAt")
     SELECT ${idSql('crs', 'k')}, 'Bench course ' || k, 'PUBLISHED', $1, $2, $2, $2 FROM generate_series(0, $3::int) AS k`,
    [ada, now, OTHER_COURSES],
  );
  await sql.query(
    `INSERT INTO "CourseLesson" ("courseId", "lessonId", position)
     SELECT ${idSql('crs', 'k')}, ${idSql('les', lessonSql('k', 'p'))}, p
       FROM generate_series(0, $1::int) AS k CROSS JOIN generate_series(0, $2::int - 1) AS p
      WHERE p < CASE WHEN k = 0 THEN $3::int ELSE $2::int END`,
    [OTHER_COURSES, OTHER_LESSONS, MAIN_LESSONS],
  );
  for (let done = 0; done < u; done += BATCH) {
    await sql.query(
      `INSERT INTO "User" (id, email, name, "passwordHash", "createdAt", "updatedAt")
       SELECT ${idSql('usr', 'i')}, 'bench-learner-' || i || '@example.com', 'Learner ' || i, '!', $1, $1
         FROM generate_series($2::int, $3::int) AS i`,
      [now, done, Math.min(u, done + BATCH) - 1],
    );
  }

  // Enrollments: enrolled over the year before now; LEFT of them left since.
  const enrol = (courseSql: string, userSql: string, from: string, left: number) => `
    INSERT INTO "Enrollment" ("courseId", "userId", "enrolledAt", "leftAt")
    SELECT c, u, t, CASE WHEN random() < ${left} THEN t + random() * ($1::timestamptz - t) END
      FROM (SELECT ${courseSql} AS c, ${userSql} AS u, $1::timestamptz - random() * interval '365 days' AS t ${from}) AS s`;
  await sql.query(enrol(idSql('crs', 'k'), '$2::text', 'FROM generate_series(0, $3::int - 1) AS k', 0), [now, grace, g]);
  for (let done = 0; done < m; done += BATCH) {
    o.progress(`${COURSES_GROUP}: enrollments ${done + 1}–${Math.min(m, done + BATCH)} of ${m} in the measured course`);
    await sql.query(enrol(`'${courseId(0)}'`, idSql('usr', 'i'), 'FROM generate_series($2::int, $3::int) AS i', LEFT), [now, done, Math.min(m, done + BATCH) - 1]);
  }
  for (let done = 0; done < r; done += BATCH) {
    o.progress(`${COURSES_GROUP}: enrollments ${done + 1}–${Math.min(r, done + BATCH)} of ${r} in the other courses`);
    await sql.query(
      enrol(idSql('crs', `1 + j % ${OTHER_COURSES}`), idSql('usr', `(j * $4::int8) % $5::int8`), 'FROM generate_series($2::int8, $3::int8) AS j', LEFT),
      [now, done, Math.min(r, done + BATCH) - 1, step, u],
    );
  }

  // Completions, loaded without the table's indexes (built once after, sorted), batch by batch of
  // learners; each at a time between enrolling and leaving (or now).
  await sql.query('ALTER TABLE "LessonCompletion" DROP CONSTRAINT "LessonCompletion_pkey"');
  await sql.query('DROP INDEX "LessonCompletion_lessonId_idx"');
  const complete = (where: string) => `
    INSERT INTO "LessonCompletion" ("userId", "lessonId", "completedAt")
    SELECT e."userId", cl."lessonId", e."enrolledAt" + random() * (coalesce(e."leftAt", $1::timestamptz) - e."enrolledAt")
      FROM "Enrollment" e JOIN "CourseLesson" cl ON cl."courseId" = e."courseId"
     WHERE ${where} AND random() < power((hashtext(e."courseId" || e."userId")::int8 + 2147483648) / 4294967296.0, $2::float8)`;
  await sql.query(complete('e."userId" = $3'), [now, exponent, grace]);
  const learnersPerBatch = Math.max(1, Math.floor((u * BATCH) / (o.completions + margin)));
  for (let done = 0; done < u; done += learnersPerBatch) {
    o.progress(`${COURSES_GROUP}: completions of learners ${done + 1}–${Math.min(u, done + learnersPerBatch)} of ${u}`);
    await sql.query(complete('e."userId" >= $3 AND e."userId" < $4'), [now, exponent, idOf('usr', done), idOf('usr', done + learnersPerBatch)]);
  }
  const drawn = Number((await one<{ n: string }>('SELECT count(*) AS n FROM "LessonCompletion"')).n);
  if (drawn < o.completions) throw new Error(`${COURSES_GROUP}: drew ${drawn} completions, fewer than ${o.completions}`);
  o.progress(`${COURSES_GROUP}: drew ${drawn} completions; taking ${drawn - o.completions} out at random; building indexes`);
  await sql.query(
    'DELETE FROM "LessonCompletion" WHERE ctid = ANY (ARRAY(SELECT ctid FROM "LessonCompletion" ORDER BY random() LIMIT $1))',
    [drawn - o.completions],
  );
  await sql.query('ALTER TABLE "LessonCompletion" ADD CONSTRAINT "LessonCompletion_pkey" PRIMARY KEY ("userId", "lessonId")');
  await sql.query('CREATE INDEX "LessonCompletion_lessonId_idx" ON "LessonCompletion" ("lessonId")');
  // Statistics before the aggregates: without them the planner takes the loaded tables for empty.
  for (const t of SEEDED_TABLES) await sql.query(`ANALYZE "${t}"`);
  const loadSeconds = (Date.now() - seedStarted) / 1000;

  // What the service's rules make of the rows (progress.ts), as aggregates.
  o.progress(`${COURSES_GROUP}: completing enrollments and setting the counters`);
  const countersStarted = Date.now();
  await sql.query(`
    UPDATE "Enrollment" e SET "completedAt" = x.last
      FROM (SELECT e."courseId", e."userId", max(lc."completedAt") AS last, count(*) AS done
              FROM "Enrollment" e
              JOIN "CourseLesson" cl ON cl."courseId" = e."courseId"
              JOIN "LessonCompletion" lc ON lc."userId" = e."userId" AND lc."lessonId" = cl."lessonId"
             GROUP BY 1, 2) AS x
      JOIN (SELECT "courseId", count(*) AS total FROM "CourseLesson" GROUP BY 1) AS t ON t."courseId" = x."courseId"
     WHERE e."courseId" = x."courseId" AND e."userId" = x."userId" AND x.done = t.total`);
  // Every course's row, the demo course's (which the service seeded) included.
  await sql.query(`
    INSERT INTO "CourseStats" ("courseId", enrolled, completed)
    SELECT "courseId", count(*) FILTER (WHERE "leftAt" IS NULL), count(*) FILTER (WHERE "leftAt" IS NULL AND "completedAt" IS NOT NULL)
      FROM "Enrollment" GROUP BY 1
    ON CONFLICT ("courseId") DO UPDATE SET enrolled = EXCLUDED.enrolled, completed = EXCLUDED.completed`);
  await sql.query(`
    UPDATE "CourseLesson" cl SET completed = x.n
      FROM (SELECT cl."courseId", cl."lessonId", count(*)::int AS n
              FROM "CourseLesson" cl
              JOIN "LessonCompletion" lc ON lc."lessonId" = cl."lessonId"
              JOIN "Enrollment" e ON e."courseId" = cl."courseId" AND e."userId" = lc."userId" AND e."leftAt" IS NULL
             GROUP BY 1, 2) AS x
     WHERE cl."courseId" = x."courseId" AND cl."lessonId" = x."lessonId"`);
  for (const t of [...SEEDED_TABLES, 'CourseStats']) await sql.query(`VACUUM ANALYZE "${t}"`);
  const countersSeconds = (Date.now() - countersStarted) / 1000;
  const rows = await one<{ enrollments: string; completions: string; learners: string }>(
    `SELECT (SELECT count(*) FROM "Enrollment") AS enrollments, (SELECT count(*) FROM "LessonCompletion") AS completions, (SELECT count(*) FROM "User") AS learners`,
  );
  o.progress(`${COURSES_GROUP}: seeded in ${fixed(loadSeconds, 1)} s + counters ${fixed(countersSeconds, 1)} s`);

  const service$ = overHttp(url);
  const [adminToken, graceToken] = [await signIn(service$, DEMO_ACCOUNTS[0]), await signIn(service$, DEMO_ACCOUNTS[1])];
  const main = courseId(0);
  const get = async <T>(path: string, token: string): Promise<T> => {
    const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`GET ${path}: HTTP ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  };
  const timed = async (method: string, path: string, token: string, status: number): Promise<number> => {
    const t0 = performance.now();
    const res = await fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== status) throw new Error(`${method} ${path}: HTTP ${res.status} ${text.slice(0, 300)}`);
    return ms;
  };

  // Live: the counters move with the service's own writes from the seeded state.
  const seededStats = await get<Stats>(`/api/v1/courses/${main}/stats`, adminToken);
  const enrolMs = await timed('PUT', `/api/v1/courses/${main}/enrollment`, adminToken, 201);
  const completeMs = await timed('POST', `/api/v1/lessons/complete?id=${seededStats.lessons[0]!.lessonId}`, adminToken, 200);
  const liveStats = await get<Stats>(`/api/v1/courses/${main}/stats`, adminToken);
  const movedExactly = liveStats.enrolled === seededStats.enrolled + 1 && liveStats.completed === seededStats.completed &&
    liveStats.lessons.every((l, i) => l.completed === seededStats.lessons[i]!.completed + (i === 0 ? 1 : 0));

  // Exactness, by the rule over the rows: enrolled now; of them, those with every lesson completed;
  // per lesson, the enrolled learners who completed it.
  o.progress(`${COURSES_GROUP}: counting the measured course's rows`);
  const countStarted = Date.now();
  const counted = await one<{ enrolled: number; completed: number; lessons: { lessonId: string; completed: number }[] }>(`
    SELECT (SELECT count(*)::int FROM "Enrollment" WHERE "courseId" = $1 AND "leftAt" IS NULL) AS enrolled,
           (SELECT count(*)::int FROM "Enrollment" e WHERE e."courseId" = $1 AND e."leftAt" IS NULL
              AND NOT EXISTS (SELECT 1 FROM "CourseLesson" cl WHERE cl."courseId" = e."courseId"
                AND NOT EXISTS (SELECT 1 FROM "LessonCompletion" lc WHERE lc."userId" = e."userId" AND lc."lessonId" = cl."lessonId"))) AS completed,
           (SELECT json_agg(json_build_object('lessonId', cl."lessonId", 'completed',
                     (SELECT count(*) FROM "LessonCompletion" lc WHERE lc."lessonId" = cl."lessonId"
                        AND EXISTS (SELECT 1 FROM "Enrollment" e WHERE e."courseId" = cl."courseId" AND e."userId" = lc."userId" AND e."leftAt" IS NULL)))
                   ORDER BY cl.position)
              FROM "CourseLesson" cl WHERE cl."courseId" = $1) AS lessons`, [main]);
  const countSeconds = (Date.now() - countStarted) / 1000;
  const apiStats = await get<Stats>(`/api/v1/courses/${main}/stats`, adminToken);
  const exact = JSON.stringify({ enrolled: apiStats.enrolled, completed: apiStats.completed, lessons: apiStats.lessons }) === JSON.stringify(counted) &&
    apiStats.completionRate === (counted.enrolled === 0 ? 0 : counted.completed / counted.enrolled);

  // Random deep pages: cursors of enrollments drawn from the rows, as the lists would give them.
  const cursorsOf = async (where: string, param: string, tiebreak: 'courseId' | 'userId') =>
    (await sql.query<{ at: Date; id: string }>(`SELECT "enrolledAt" AS at, "${tiebreak}" AS id FROM "Enrollment" WHERE ${where} = $1 AND "leftAt" IS NULL ORDER BY random() LIMIT 500`, [param]))
      .rows.map((row) => encodeCursor({ createdAt: row.at, id: row.id }));
  const graceCursors = await cursorsOf('"userId"', grace, 'courseId');
  const courseCursors = await cursorsOf('"courseId"', main, 'userId');
  const pick = (list: string[]) => list[Math.floor(Math.random() * list.length)]!;
  const graceEnrolled = Number((await one<{ n: string }>('SELECT count(*) AS n FROM "Enrollment" WHERE "userId" = $1 AND "leftAt" IS NULL', [grace])).n);

  const shapes: { shape: string; goal?: boolean; token: string; next: () => string }[] = [
    { shape: 'floor: GET /healthz', token: adminToken, next: () => '/healthz' },
    { shape: `GET /api/v1/courses/{id}/stats (${(apiStats.enrolled / 1e3).toFixed(0)} k enrolled)`, goal: true, token: adminToken, next: () => `/api/v1/courses/${main}/stats` },
    { shape: `GET /api/v1/enrollments, Grace (${graceEnrolled} enrolled), first page`, token: graceToken, next: () => '/api/v1/enrollments' },
    { shape: 'GET /api/v1/enrollments?limit=100, Grace, random pages', token: graceToken, next: () => `/api/v1/enrollments?limit=100&cursor=${pick(graceCursors)}` },
    { shape: 'GET /api/v1/courses/{id}/enrollments?limit=100, first page', token: adminToken, next: () => `/api/v1/courses/${main}/enrollments?limit=100` },
    { shape: 'GET /api/v1/courses/{id}/enrollments?limit=100, random pages', token: adminToken, next: () => `/api/v1/courses/${main}/enrollments?limit=100&cursor=${pick(courseCursors)}` },
  ];
  const latencies: Latency[] = [];
  for (const s of shapes) {
    o.progress(`${COURSES_GROUP}: ${s.shape}, ${o.requests} requests`);
    for (let i = 0; i < 10; i++) await timed('GET', s.next(), s.token, 200); // warm-up
    const times: number[] = [];
    for (let i = 0; i < o.requests; i++) times.push(await timed('GET', s.next(), s.token, 200));
    times.sort((a, b) => a - b);
    latencies.push({ shape: s.shape, goal: s.goal === true, p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1)! });
  }

  const stats = latencies.find((l) => l.goal)!;
  const size = `${Number(rows.enrollments).toLocaleString('en')} enrollments and ${Number(rows.completions).toLocaleString('en')} completions`;
  const latencyTable = table(
    ['request', 'p50 ms', 'p95 ms', 'max ms', 'goal ms'],
    latencies.map((l) => [l.shape, fixed(l.p50, 2), fixed(l.p95, 2), fixed(l.max, 2), l.goal ? `< ${GOAL_MS}` : '']),
    [false, true, true, true, true],
  );
  const notes = [
    `seed: ${rows.enrollments} enrollments (${fixed(LEFT * 100)} % left), ${rows.completions} lesson completions, ${Number(rows.learners)} users, ${1 + OTHER_COURSES} courses,` +
      ` in ${fixed(loadSeconds, 1)} s (INSERT … SELECT generate_series, about ${BATCH} rows a statement, the completions' indexes built after);` +
      ` completing enrollments and setting the counters with SQL aggregates ${fixed(countersSeconds, 1)} s`,
    `the measured course: ${apiStats.enrolled} enrolled, ${apiStats.completed} completed (${fixed(apiStats.completionRate * 100, 1)} %), ${apiStats.lessons.length} lessons;` +
      ` counting its stats from the rows took ${fixed(countSeconds, 1)} s`,
    `live through the API: Ada enrolled in ${fixed(enrolMs, 1)} ms and completed its first lesson in ${fixed(completeMs, 1)} ms`,
    `latency: ${o.requests} sequential requests per row on one keep-alive connection (after 10 of warm-up); random pages start at cursors of 500 enrollments drawn from the rows`,
  ];
  const verdicts = [
    `${stats.p95 < GOAL_MS ? 'PASS' : 'MISS'}  ${COURSES_GROUP}: GET /api/v1/courses/{id}/stats at ${size} over HTTP, p95 ${fixed(stats.p95, 2)} ms, median ${fixed(stats.p50, 2)} ms, max ${fixed(stats.max, 2)} ms (goal < ${GOAL_MS} ms)`,
    `${exact && movedExactly ? 'PASS' : 'MISS'}  ${COURSES_GROUP}: exact: the stats equal count(*) over the rows (enrolled ${counted.enrolled}, completed ${counted.completed}, ${counted.lessons.length} lessons)` +
      `${exact ? '' : ` (api ${JSON.stringify(apiStats)})`}; an enrolment and a completion through the API moved them by exactly 1${movedExactly ? '' : ` (they did not: ${JSON.stringify({ seededStats, liveStats })})`}`,
  ];
  const text = `${COURSES_GROUP}\n\n${latencyTable}\n\n${notes.join('\n')}\n\n${verdicts.join('\n')}`;
  return {
    text,
    json: {
      enrollments: Number(rows.enrollments), completions: Number(rows.completions), learners: Number(rows.learners), loadSeconds, countersSeconds, countSeconds,
      measured: apiStats, counted, exact, movedExactly, enrolMs, completeMs, latencies,
    },
  };
}
