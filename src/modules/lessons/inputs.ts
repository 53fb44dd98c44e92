// What the lessons module takes as input. The edges parse with these (the REST router, the
// GraphQL resolvers); the service receives the typed output.
import { z } from 'zod';
import { keysetBounds } from '../../db/keyset.js';

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

/** A page of a lesson list (src/db/keyset.ts): its size and the cursor it starts after. */
export interface PageInput {
  limit?: number;
  cursor?: string;
}

/**
 * A page request checked at the edge: a 400 names the transport's own field (`query.limit` on
 * REST, `first` on GraphQL), so the service gets a page it can use as it is.
 */
export function checkedPage({ limit, cursor, fieldNames }: PageInput & { fieldNames: { limit: string; cursor: string } }): PageInput {
  keysetBounds({ limit, cursor, fieldNames });
  return { limit, cursor };
}
