import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../db/keyset.js';
import { AppError } from '../errors.js';

/** Turns the first schema problem into a 400 that names the field. */
export function validationError(error: z.ZodError, where: string): AppError {
  const issue = error.issues[0]!;
  let field = [where, ...issue.path.map(String)].filter(Boolean).join('.');
  let problem = issue.message;
  if (issue.code === 'unrecognized_keys') {
    field = [where, ...issue.path.map(String), issue.keys[0]].filter(Boolean).join('.');
    problem = 'unknown field';
  } else if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
    problem = 'is required';
  }
  // A problem with the body as a whole (not an object, no field given) is named `body`.
  if (!field) field = 'body';
  return new AppError('BAD_USER_INPUT', `${field}: ${problem}`, { details: { field } });
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, where);
  return result.data;
}

/** The query fields of every paged REST list: `limit` and `cursor` (see src/db/keyset.ts). */
export const pageQueryFields = {
  limit: z.string().regex(/^\d+$/, `must be an integer from 1 to ${MAX_PAGE_SIZE}`).transform(Number).optional()
    .describe(`Page size, 1-${MAX_PAGE_SIZE} (default 20)`),
  cursor: z.string().optional().describe('nextCursor of the previous page'),
};
