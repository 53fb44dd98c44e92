// What the courses module takes as input. The edges parse with these (the REST router, the
// GraphQL resolvers); the service receives the typed output.
import { z } from 'zod';

/** The most lessons one course holds. */
export const MAX_COURSE_LESSONS = 500;

const title = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
// A summary of only spaces is no summary, stored as null: one way to say "none".
const summary = z.string().trim().max(1000, 'must be at most 1000 characters').transform((s) => s || null).nullable();

export const createCourseInput = z.strictObject({ title, summary: summary.optional() });
export type CreateCourseInput = z.output<typeof createCourseInput>;

export const updateCourseInput = z
  .strictObject({ title: title.optional(), summary: summary.optional() })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'give at least one of title, summary' });
export type UpdateCourseInput = z.output<typeof updateCourseInput>;

/**
 * A course's lessons in course order. A lesson listed twice would have two places; the second
 * mention is refused, naming it, rather than one place picked silently.
 */
export const setCourseLessonsInput = z.strictObject({
  lessonIds: z
    .array(z.string().min(1, 'must not be empty').max(64, 'must be at most 64 characters'))
    .min(1, 'must list at least one lesson')
    .max(MAX_COURSE_LESSONS, `must list at most ${MAX_COURSE_LESSONS} lessons`)
    .superRefine((ids, ctx) => {
      const first = new Map<string, number>();
      ids.forEach((id, i) => {
        const earlier = first.get(id);
        if (earlier === undefined) first.set(id, i);
        else if (ctx.issues.length === 0) ctx.addIssue({ code: 'custom', path: [i], message: `lesson ${id} is listed twice (also at ${earlier})` });
      });
    }),
});
export type SetCourseLessonsInput = z.output<typeof setCourseLessonsInput>;
