// Input rules every transport applies the same way: a zod schema's first problem as a 400 naming
// the field, and the characters and nesting no input may hold.
import { z } from 'zod';
import { AppError, badInput } from './errors.js';

/** What a value of each JSON type Zod expects is called in a message ("must be a string"). */
const TYPE_NAMES: Record<string, string> = { string: 'a string', number: 'a number', boolean: 'true or false', object: 'a JSON object', array: 'an array' };

/** Turns the first schema problem into a 400 that names the field. */
export function validationError(error: z.ZodError, where: string): AppError {
  const issue = error.issues[0]!;
  let field = [where, ...issue.path.map(String)].filter(Boolean).join('.');
  let problem = issue.message;
  if (issue.code === 'unrecognized_keys') {
    field = [where, ...issue.path.map(String), issue.keys[0]].filter(Boolean).join('.');
    problem = 'unknown field';
  } else if (issue.code === 'invalid_type') {
    problem = /received undefined/.test(issue.message) ? 'is required' : `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
  } else if (issue.code === 'too_big' && issue.origin === 'string') {
    // In the words of every field, whether or not its schema gave a message.
    problem = `must be at most ${issue.maximum} characters`;
  } else if (issue.code === 'too_small' && issue.origin === 'string') {
    problem = Number(issue.minimum) <= 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters`;
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

/** Deeper than any input of this API (a GraphQL input object in a list is three levels). */
export const MAX_INPUT_DEPTH = 32;

// U+0000 first (PostgreSQL text cannot hold it), then the other C0 controls but TAB, LF and CR,
// and DEL; then a UTF-16 surrogate without its pair (not a character: encoding it as UTF-8
// silently stores U+FFFD instead).
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What is wrong with a string as input (see inputProblem), or undefined. */
export function stringProblem(s: string): string | undefined {
  if (s.includes('\0')) return 'must not contain NUL characters';
  if (CONTROL.test(s)) return 'must not contain control characters';
  if (LONE_SURROGATE.test(s)) return 'must not contain lone surrogates (not valid Unicode)';
  return undefined;
}

export interface InputProblem {
  /** The field, as a path of keys and indexes (empty: the input as a whole). */
  path: string[];
  problem: string;
}

/**
 * The first thing in `value` that no input of this service may hold, with where it is: a string
 * (value or key) with NUL, another control character or a lone surrogate, or nesting deeper than
 * MAX_INPUT_DEPTH. Iterative, and a path is only built for the problem found: a deeply nested
 * input costs linear time (copying the path at each level was quadratic: 20 000 levels took 3.5 s).
 */
export function inputProblem(value: unknown): InputProblem | undefined {
  interface Node { value: unknown; key: string; depth: number; parent: Node | undefined }
  const pathOf = (node: Node | undefined, last?: string) => {
    const path: string[] = last === undefined ? [] : [last];
    for (let n = node; n?.parent; n = n.parent) path.unshift(n.key);
    return path;
  };
  const stack: Node[] = [{ value, key: '', depth: 0, parent: undefined }];
  while (stack.length) {
    const node = stack.pop()!;
    const v = node.value;
    if (typeof v === 'string') {
      const problem = stringProblem(v);
      if (problem) return { path: pathOf(node), problem };
    } else if (v !== null && typeof v === 'object') {
      if (node.depth >= MAX_INPUT_DEPTH) return { path: pathOf(node), problem: `must not be nested more than ${MAX_INPUT_DEPTH} levels deep` };
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: String(i), depth: node.depth + 1, parent: node });
      } else {
        for (const [key, item] of Object.entries(v)) {
          const problem = stringProblem(key);
          if (problem) return { path: pathOf(node, key), problem };
          stack.push({ value: item, key, depth: node.depth + 1, parent: node });
        }
      }
    }
  }
  return undefined;
}

/**
 * The one input rule (see inputProblem), before anything reads or writes the input: a 400 naming
 * the field, on REST (query and body) and GraphQL (variables and literal arguments) alike. Path
 * ids stay the routes' own 404s (src/ids.ts).
 */
export function assertCleanInput(value: unknown, where: string): void {
  const found = inputProblem(value);
  if (found) throw badInput([where, ...found.path].filter(Boolean).join('.') || 'body', found.problem);
}
