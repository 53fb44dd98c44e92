// A seeded random sequence of enrolments, leavings, lesson completions and changes of a course's
// lessons by a few learners, over HTTP on both databases. After every step the course's stats equal
// a model of the contract's rules; on PostgreSQL they also equal a count over the rows.
import { describe, expect } from 'vitest';
import { serverTestOn } from './support/fixtures.js';
import { DATABASES } from './support/server.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { complete, countedStats, course, enroll, leave, newLearner, publishedLessons, setLessons, stats, walkEnrollments } from './enrollments-helpers.js';

const tests = serverTestOn({ env: NO_RATE_LIMITS });
const STEPS = 60;

/** mulberry32: the same sequence on every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe.each(DATABASES)('enrollment counters over a random sequence on %s', (kind) => {
  const it = tests[kind];

  it(`equal the rows after each of ${STEPS} steps`, async ({ api, ada, server }) => {
    const next = random(38);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
    const pool = await publishedLessons(api, ada, 5);
    let lessons = pool.slice(0, 3);
    const crs = await course(api, ada, lessons);
    const learners = [await newLearner(api), await newLearner(api), await newLearner(api), await newLearner(api)];

    // The model: who is enrolled, who completed which lesson, whose enrollment is completed (final).
    const enrolled = new Set<string>();
    const done = new Map(learners.map((l) => [l.id, new Set<string>()]));
    const completedCourse = new Set<string>();
    const completeWhereDone = () => {
      for (const id of enrolled) if (lessons.every((lesson) => done.get(id)!.has(lesson))) completedCourse.add(id);
    };

    for (let step = 0; step < STEPS; step++) {
      const learner = pick(learners);
      const roll = next();
      if (roll < 0.3) {
        const reply = await enroll(api, learner.token, crs);
        expect(reply.status, reply.text).toBe(enrolled.has(learner.id) ? 200 : 201);
        enrolled.add(learner.id);
        completeWhereDone();
      } else if (roll < 0.45) {
        expect((await leave(api, learner.token, crs)).status).toBe(enrolled.has(learner.id) ? 204 : 404);
        enrolled.delete(learner.id);
      } else if (roll < 0.9) {
        const lesson = pick(pool);
        expect((await complete(api, learner.token, lesson)).status).toBe(200);
        done.get(learner.id)!.add(lesson);
        completeWhereDone();
      } else {
        lessons = pool.filter(() => next() < 0.6);
        if (lessons.length === 0) lessons = [pick(pool)];
        await setLessons(api, ada, crs, lessons);
        completeWhereDone();
      }

      const expected = {
        enrolled: enrolled.size,
        completed: [...enrolled].filter((id) => completedCourse.has(id)).length,
        lessons: lessons.map((lessonId) => ({ lessonId, completed: [...enrolled].filter((id) => done.get(id)!.has(lessonId)).length })),
      };
      const reported = await stats(api, ada, crs);
      expect({ step, ...reported }).toEqual({ step, ...expected, completionRate: expected.enrolled === 0 ? 0 : expected.completed / expected.enrolled });
      if (kind === 'postgres') expect({ step, ...(await countedStats(server, crs)) }).toEqual({ step, ...expected });
    }

    // Each learner's own list agrees with the model too.
    for (const learner of learners) {
      const mine = (await walkEnrollments(api, learner.token, '/api/v1/enrollments')).filter((e) => e.courseId === crs);
      if (!enrolled.has(learner.id)) expect(mine).toEqual([]);
      else expect(mine.map((e) => ({ done: e.progress.completed, total: e.progress.total, completed: e.completedAt !== null })))
        .toEqual([{ done: lessons.filter((l) => done.get(learner.id)!.has(l)).length, total: lessons.length, completed: completedCourse.has(learner.id) }]);
    }
  });
});
