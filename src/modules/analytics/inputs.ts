// The analytics API's input schemas: REST routes parse their body and query with them, resolvers
// their arguments, so the service receives typed, validated values.
import { z } from 'zod';
import { compareInstants, isoInstant } from '../../dates.js';

const instant = isoInstant.describe('ISO 8601 date or UTC date-time');

export const pagePath = z
  .string()
  .min(1, 'must not be empty')
  .max(2048, 'must be at most 2048 characters')
  .regex(/^\//, 'must start with /')
  // PostgreSQL text cannot hold NUL: refuse it here rather than fail in the database.
  .refine((p) => !p.includes('\0'), 'must not contain NUL characters');

export const recordViewInput = z.strictObject({ path: pagePath });
export type RecordViewInput = z.output<typeof recordViewInput>;

export const viewsQuery = z
  .object({
    path: pagePath.optional(),
    from: instant.optional().describe('Inclusive lower bound (ISO 8601 date or UTC date-time)'),
    to: instant.optional().describe('Exclusive upper bound (ISO 8601 date or UTC date-time)'),
  })
  .superRefine(({ from, to }, ctx) => {
    if (from && to && compareInstants(to, from) <= 0) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be later than from' });
  });
export type ViewsQuery = z.output<typeof viewsQuery>;
