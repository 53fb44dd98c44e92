import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { compareInstants, firstMillisecond, isoInstant } from '../../dates.js';
import { badInput } from '../../errors.js';
import { parseWith } from '../../input.js';
import { newEvent, type OnCommitted } from '../events/outbox.js';
import { createTotals } from './totals.js';

const instant = isoInstant.describe('ISO 8601 date or UTC date-time');
export const pagePath = z
  .string()
  .min(1, 'must not be empty')
  .max(2048, 'must be at most 2048 characters')
  .regex(/^\//, 'must start with /')
  // PostgreSQL text cannot hold NUL: refuse it here rather than fail in the database.
  .refine((p) => !p.includes('\0'), 'must not contain NUL characters');
export const recordViewInput = z.strictObject({ path: pagePath });
export const viewsQuery = z.object({
  path: pagePath.optional(),
  from: instant.optional().describe('Inclusive lower bound (ISO 8601 date or UTC date-time)'),
  to: instant.optional().describe('Exclusive upper bound (ISO 8601 date or UTC date-time)'),
});
export const viewsTotal = z.object({ total: z.number().int() });

/** One view and its analytics.hit: $1 path, $2 event id, $3 'analytics.hit', $4 payload JSON, $5 its timestamp. */
export const RECORD_SQL = `
WITH view AS (INSERT INTO "PageView" (path) VALUES ($1))
INSERT INTO "Event" (id, type, payload, "createdAt") VALUES ($2, $3, $4::jsonb, $5)`;

export function createAnalyticsService({ query, onCommitted }: { query: Database['query']; onCommitted?: OnCommitted }) {
  const countViews = createTotals(query);
  return {
    /** Records one page view and emits analytics.hit. */
    async record(input: unknown): Promise<void> {
      const { path } = parseWith(recordViewInput, input, '');
      // The view and its event in one statement, so one round trip and one (implicit)
      // transaction: at thousands of views a second the round trips of an interactive
      // transaction (BEGIN, two INSERTs, COMMIT) were most of the cost. The event is the one
      // recordEvent would write.
      const event = newEvent('analytics.hit', { path });
      await query(RECORD_SQL, [path, event.id, event.payload.event, JSON.stringify(event.payload), event.createdAt.toISOString()]);
      await onCommitted?.([event.payload]);
    },

    /**
     * Total page views, optionally for one path and within [from, to). `where` prefixes field
     * names in errors (`query` for REST, so that `query.to` matches the router's own messages).
     */
    async total(input: unknown, where = ''): Promise<number> {
      const { path, from, to } = parseWith(viewsQuery, input, where);
      if (from && to && compareInstants(to, from) <= 0) throw badInput(where ? `${where}.to` : 'to', 'must be later than from');
      return countViews(path, from ? firstMillisecond(from) : -Infinity, to ? firstMillisecond(to) : Infinity);
    },
  };
}
