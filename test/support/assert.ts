import { expect } from 'vitest';
import type { Reply } from './http.js';

/**
 * Asserts the contract's error response: HTTP status = `code`, JSON, exactly
 * `{error: true, code, message}` plus an optional `details` object; optionally the message
 * (exact or by pattern) and the field it names (`details.field`).
 */
export function expectError(reply: Reply, code: number, message?: string | RegExp, field?: string): void {
  expect(reply.status, reply.text).toBe(code);
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
  const { details, ...rest } = reply.body as { details?: unknown };
  expect(Object.keys(rest).sort()).toEqual(['code', 'error', 'message']);
  expect(reply.body).toMatchObject({ error: true, code });
  expect(typeof reply.body.message === 'string' && reply.body.message.length > 0).toBe(true);
  if (details !== undefined) expect(details !== null && typeof details === 'object').toBe(true);
  if (typeof message === 'string') expect(reply.body.message).toBe(message);
  else if (message) expect(reply.body.message).toMatch(message);
  if (field) expect(details).toEqual({ field });
}
