// What the lessons module takes as input. The edges parse with these (the REST router, the
// GraphQL resolvers); the service receives the typed output.
import { z } from 'zod';

const title = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
// A summary of only spaces is no summary, stored as null: one way to say "none".
const summary = z.string().trim().max(1000, 'must be at most 1000 characters').transform((s) => s || null).nullable();
const body = z.string().min(1, 'must not be empty').max(100_000, 'must be at most 100000 characters');

export const createLessonInput = z.strictObject({ title, summary: summary.optional(), body });
export type CreateLessonInput = z.output<typeof createLessonInput>;

export const updateLessonInput = z
  .strictObject({ title: title.optional(), summary: summary.optional(), body: body.optional() })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'give at least one of title, summary, body' });
export type UpdateLessonInput = z.output<typeof updateLessonInput>;
