// The client library's course calls against the real server over real HTTP: an ADMIN builds and
// publishes a course, a learner enrols (idempotently), completes its lessons and sees progress
// and completion, the ADMIN reads the course's enrollments and stats, and refusals arrive as the
// library's typed errors. Nothing is mocked.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it as base } from 'vitest';
import {
  ConflictError,
  CourseDocument,
  LearningApiError,
  LearningClient,
  NotFoundError,
  PermissionDeniedError,
  ValidationError,
  type Course,
  type Lesson,
  type LearningEvent,
} from '../src/client/index.js';
import { serverTest } from './support/fixtures.js';
import { NO_RATE_LIMITS } from './support/limits.js';

const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
// The embedded database: these tests are about the client, and need no shared PostgreSQL connections.
const it = serverTest({ kind: 'pglite', env: NO_RATE_LIMITS });

/** The rejection of a promise that must reject. */
async function rejection(promise: Promise<unknown>): Promise<LearningApiError> {
  try {
    await promise;
  } catch (error) {
    return error as LearningApiError;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

describe('the client library for courses', () => {
  /** Ada (ADMIN) with an access token. */
  let ada: LearningClient;
  /** Grace (MEMBER) with an API key: the credential the library is for. */
  let grace: LearningClient;
  let graceId: string;
  let lessons: Lesson[];
  let course: Course;

  it.beforeAll(async ({ server, ada: adaToken, grace: graceToken }) => {
    ada = new LearningClient({ baseUrl: server.url, token: adaToken });
    const { key } = await new LearningClient({ baseUrl: server.url, token: graceToken }).apiKeys.create('courses');
    grace = new LearningClient({ baseUrl: server.url, apiKey: key });
    graceId = (await grace.me()).id;
    lessons = [];
    for (const title of ['Sets', 'Relations', 'Functions']) {
      const draft = await ada.lessons.create({ title, body: `${title} in one page` });
      lessons.push(await ada.lessons.publish(draft.id));
    }
  });

  it('an ADMIN creates, fills, renames and publishes a course', async () => {
    const draft = await ada.courses.create({ title: 'Discrete maths', summary: 'The basics' });
    expect(draft).toMatchObject({ id: expect.stringMatching(/^crs_/), title: 'Discrete maths', status: 'DRAFT', lessonIds: [], publishedAt: null });

    const ordered = [lessons[2]!.id, lessons[0]!.id, lessons[1]!.id];
    expect((await ada.courses.setLessons(draft.id, ordered)).lessonIds).toEqual(ordered);
    expect((await ada.courses.update(draft.id, { title: 'Discrete mathematics' })).title).toBe('Discrete mathematics');

    course = await ada.courses.publish(draft.id);
    expect(course).toMatchObject({ id: draft.id, status: 'PUBLISHED', title: 'Discrete mathematics', summary: 'The basics', lessonIds: ordered });
    expect(course.publishedAt).toMatch(ISO_MS_Z);
    expect(await rejection(ada.courses.publish(draft.id))).toBeInstanceOf(ConflictError);

    // The learner sees it, in the list and by id; every page of `all()` is fetched as the loop goes.
    expect(await grace.courses.get(course.id)).toEqual(course);
    const seen: string[] = [];
    for await (const c of grace.courses.all({ limit: 1 })) seen.push(c.id);
    expect(seen).toContain(course.id);
    expect((await grace.courses.list({ limit: 1 })).items).toHaveLength(1);
  });

  it('a learner enrols twice (the second changes nothing), completes lessons and sees progress and completion', async () => {
    const first = await grace.courses.enroll(course.id);
    expect(first.created).toBe(true);
    expect(first.enrollment).toEqual({ courseId: course.id, userId: graceId, enrolledAt: expect.stringMatching(ISO_MS_Z), completedAt: null, progress: { completed: 0, total: 3 } });
    const again = await grace.courses.enroll(course.id);
    expect(again.enrollment).toEqual(first.enrollment);
    // The contract's 200 for "already enrolled"; soft, so the rest of the flow is still checked.
    expect.soft(again.created, 'a second enroll answers 200, not 201').toBe(false);

    const [a, b, c] = course.lessonIds as [string, string, string];
    const done = await grace.lessons.complete(a);
    expect(done).toEqual({ lessonId: a, userId: graceId, completedAt: expect.stringMatching(ISO_MS_Z) });
    expect(await grace.lessons.complete(a)).toEqual(done); // idempotent: the first completion
    let mine = (await grace.enrollments.list()).items.find((e) => e.courseId === course.id);
    expect(mine).toMatchObject({ progress: { completed: 1, total: 3 }, completedAt: null });

    await grace.lessons.complete(b);
    const last = await grace.lessons.complete(c);
    mine = (await grace.enrollments.list()).items.find((e) => e.courseId === course.id);
    expect(mine).toMatchObject({ progress: { completed: 3, total: 3 }, completedAt: expect.stringMatching(ISO_MS_Z) });
    expect(Date.parse(mine!.completedAt!)).toBeGreaterThanOrEqual(Date.parse(last.completedAt));
    const all = [];
    for await (const e of grace.enrollments.all({ limit: 1 })) all.push(e);
    expect(all).toContainEqual(mine);

    // The typed GraphQL document shows the same, from the learner's side.
    const { course: viewed } = await grace.query(CourseDocument, { id: course.id });
    expect(viewed?.viewerEnrollment).toEqual({ enrolledAt: first.enrollment.enrolledAt, completedAt: mine!.completedAt, progress: { completed: 3, total: 3 } });
    expect(viewed?.lessons.edges.map((e) => [e.node.id, typeof e.node.viewerCompletedAt])).toEqual([[a, 'string'], [b, 'string'], [c, 'string']]);
    expect((await grace.graphql.course(course.id)).author.name).toBe('Ada Lovelace');
  });

  it('the ADMIN reads the course\'s stats and enrollments', async () => {
    expect(await ada.courses.stats(course.id)).toEqual({
      enrolled: 1,
      completed: 1,
      completionRate: 1,
      lessons: course.lessonIds.map((lessonId) => ({ lessonId, completed: 1 })),
    });
    const { items, nextCursor } = await ada.courses.enrollments(course.id);
    expect(items).toEqual([expect.objectContaining({ courseId: course.id, userId: graceId, progress: { completed: 3, total: 3 } })]);
    expect(nextCursor).toBeNull();
  });

  it('a learner leaves: the enrollment goes from their list and the stats, leaving twice is NotFoundError', async () => {
    await grace.courses.leave(course.id);
    expect((await grace.enrollments.list()).items.map((e) => e.courseId)).not.toContain(course.id);
    expect(await ada.courses.stats(course.id)).toMatchObject({ enrolled: 0, completed: 0, completionRate: 0 });
    expect(await rejection(grace.courses.leave(course.id))).toBeInstanceOf(NotFoundError);
    // Back again: a new enrollment, completed at once (completion is final).
    const back = await grace.courses.enroll(course.id);
    expect(back.created).toBe(true);
    expect(back.enrollment).toMatchObject({ completedAt: expect.stringMatching(ISO_MS_Z), progress: { completed: 3, total: 3 } });
  });

  it('refusals are the library\'s typed errors', async () => {
    const draft = await ada.courses.create({ title: 'Unfinished' });

    const hidden = await rejection(grace.courses.get(draft.id));
    expect(hidden).toBeInstanceOf(NotFoundError);
    expect(hidden.status).toBe(404);
    expect(await rejection(grace.courses.enroll(draft.id))).toBeInstanceOf(NotFoundError);
    expect((await ada.courses.get(draft.id)).status).toBe('DRAFT'); // an ADMIN sees drafts

    const duplicate = await rejection(ada.courses.setLessons(draft.id, [lessons[0]!.id, lessons[1]!.id, lessons[0]!.id]));
    expect(duplicate).toBeInstanceOf(ValidationError);
    expect((duplicate as ValidationError).field).toBe('lessonIds.2');
    expect(duplicate.message).toContain(lessons[0]!.id);
    expect((await ada.courses.get(draft.id)).lessonIds).toEqual([]); // nothing changed

    const forbidden = await rejection(grace.courses.create({ title: 'Mine' }));
    expect(forbidden).toBeInstanceOf(PermissionDeniedError);
    expect([forbidden.status, forbidden.message]).toEqual([403, 'Forbidden']);
    expect(await rejection(grace.courses.stats(course.id))).toBeInstanceOf(PermissionDeniedError);
    expect(await rejection(grace.courses.enrollments(course.id))).toBeInstanceOf(PermissionDeniedError);

    const unknownLesson = await rejection(grace.lessons.complete('les_unknown'));
    expect(unknownLesson).toBeInstanceOf(NotFoundError);
    expect(await rejection(ada.courses.get('crs_unknown'))).toBeInstanceOf(NotFoundError);
    expect(await rejection(ada.graphql.course('crs_unknown'))).toBeInstanceOf(NotFoundError);
    // A path step is no id: sent, `/courses/../enrollments` would be the caller's own enrollments.
    await expect(async () => ada.courses.enrollments('..')).rejects.toThrow(/"\.\." is not an id/);
    await expect(async () => ada.courses.get('.')).rejects.toThrow(TypeError);
  });

  it('the event stream carries courseId for course events', async () => {
    const before = (await ada.listEvents({ types: ['course.published'] })).items.at(-1)?.id;
    const target = await ada.courses.create({ title: 'Streamed course' });
    await ada.courses.setLessons(target.id, [lessons[0]!.id]);
    await ada.courses.publish(target.id);
    let got: LearningEvent | undefined;
    for await (const event of ada.events({ types: ['course.published'], after: before, signal: AbortSignal.timeout(15_000) })) {
      if (event.courseId === target.id) {
        got = event;
        break;
      }
    }
    expect(got).toMatchObject({ event: 'course.published', courseId: target.id, lessonId: null, userId: null, path: null });
  });
});

describe("the README's courses example", () => {
  it('runs as pasted (the package import pointed at this checkout) and prints what it shows', async ({ server, ada: adaToken }) => {
    const root = resolve(import.meta.dirname, '..');
    const readme = await readFile(join(root, 'src/client/README.md'), 'utf8');
    const block = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!).find((code) => code.startsWith('// courses.mjs'));
    expect(block, 'a README block starting with // courses.mjs').toBeDefined();
    const shown = block!.trimEnd().split('\n').at(-1)!.replace(/^\/\/ /, '');
    const { key } = await new LearningClient({ baseUrl: server.url, token: adaToken }).apiKeys.create('readme courses');
    const dir = await mkdtemp(join(tmpdir(), 'client-courses-'));
    try {
      const script = join(dir, 'courses.mjs');
      await writeFile(script, block!.replace("'@learnstream/client'", JSON.stringify(join(root, 'src/client/index.ts'))));
      const { stdout } = await promisify(execFile)(join(root, 'node_modules/.bin/tsx'), [script], {
        env: { ...process.env, LEARNSTREAM_URL: server.url, LEARNSTREAM_API_KEY: key },
      });
      expect(stdout.trim()).toBe(shown);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the client library covers the course routes', () => {
  base('has a method for every courses and enrollments operation of the OpenAPI document', async () => {
    const { openApiDocument } = await import('../src/http/openapi.js');
    const { apiRoutes } = await import('../src/http/routes.js');
    const document = openApiDocument(apiRoutes) as { paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>> };
    const METHODS: Record<string, string> = {
      listCourses: 'courses.list',
      getCourse: 'courses.get',
      createCourse: 'courses.create',
      updateCourse: 'courses.update',
      setCourseLessons: 'courses.setLessons',
      publishCourse: 'courses.publish',
      enroll: 'courses.enroll',
      unenroll: 'courses.leave',
      getCourseEnrollments: 'courses.enrollments',
      getCourseStats: 'courses.stats',
      getEnrollments: 'enrollments.list',
      completeLesson: 'lessons.complete',
    };
    const ours = Object.values(document.paths)
      .flatMap((item) => Object.values(item))
      .filter((op) => op.tags?.some((t) => t === 'courses' || t === 'enrollments'))
      .map((op) => op.operationId);
    expect(ours.sort()).toEqual(Object.keys(METHODS).sort());
    const client = new LearningClient({ baseUrl: 'http://127.0.0.1:1' });
    for (const method of Object.values(METHODS)) {
      const fn = method.split('.').reduce<unknown>((on, key) => (on as Record<string, unknown>)[key], client);
      expect(typeof fn, method).toBe('function');
    }
  });
});
