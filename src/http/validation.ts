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

/**
 * Where `value` holds a string with U+0000 (in a value or a key), as a field path, or undefined.
 * Iterative: a deeply nested body must not exhaust the stack.
 */
export function nulPath(value: unknown): string[] | undefined {
  const stack: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  while (stack.length) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\0')) return path;
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push({ value: item, path: [...path, String(i)] }));
    } else if (v !== null && typeof v === 'object') {
      for (const [key, item] of Object.entries(v)) {
        if (key.includes('\0')) return [...path, key];
        stack.push({ value: item, path: [...path, key] });
      }
    }
  }
  return undefined;
}

/**
 * The one rule for NUL: PostgreSQL text cannot hold U+0000, so input carrying one is refused before
 * anything reads or writes it (400 naming the field), on REST (query and body) and GraphQL
 * (variables and literal arguments) alike. Path ids with NUL stay the routes' own 404s.
 */
export function assertNoNul(value: unknown, where: string): void {
  const path = nulPath(value);
  if (path) throw badInputAt([where, ...path].filter(Boolean).join('.') || 'body', 'must not contain NUL characters');
}

const badInputAt = (field: string, problem: string) => new AppError('BAD_USER_INPUT', `${field}: ${problem}`, { details: { field } });
