// Page views: recording one (with its analytics.hit) and exact totals (totals.ts).
import type { Database } from '../../db/client.js';
import { firstMillisecond } from '../../dates.js';
import type { Write } from '../events/write.js';
import type { RecordViewInput, ViewsQuery } from './inputs.js';
import { createTotals } from './totals.js';

/** One view and its analytics.hit: $1 path, $2 event id, $3 'analytics.hit', $4 payload JSON, $5 its timestamp. */
export const RECORD_SQL = `
WITH view AS (INSERT INTO "PageView" (path) VALUES ($1))
INSERT INTO "Event" (id, type, payload, "createdAt") VALUES ($2, $3, $4::jsonb, $5)`;

export function createAnalyticsService({ query, write }: { query: Database['query']; write: Write }) {
  const countViews = createTotals(query);
  return {
    /**
     * Records one page view and emits analytics.hit, in one statement: the hottest write, so one
     * round trip and an implicit transaction rather than an interactive one.
     */
    async record({ path }: RecordViewInput): Promise<void> {
      await write.statement('analytics.hit', { path }, (event) =>
        query(RECORD_SQL, [path, event.id, event.payload.event, JSON.stringify(event.payload), event.createdAt.toISOString()]),
      );
    },

    /** Total page views, optionally for one path and within [from, to). */
    async total({ path, from, to }: ViewsQuery): Promise<number> {
      return countViews(path, from ? firstMillisecond(from) : -Infinity, to ? firstMillisecond(to) : Infinity);
    },
  };
}
