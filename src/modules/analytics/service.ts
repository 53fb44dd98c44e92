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
     * round trip and an implicit transaction rather than an interactive one, prepared once per
     * connection (an INSERT's plan does not depend on its values). The payload's timestamp is the
     * event's createdAt, already written out.
     */
    async record({ path }: RecordViewInput): Promise<void> {
      await write.statement('analytics.hit', { path }, ({ id, payload }) =>
        query(RECORD_SQL, [path, id, payload.event, JSON.stringify(payload), payload.timestamp], { prepare: true }),
      );
    },

    /** Total page views, optionally for one path and within [from, to). */
    async total({ path, from, to }: ViewsQuery): Promise<number> {
      return countViews(path, from ? firstMillisecond(from) : -Infinity, to ? firstMillisecond(to) : Infinity);
    },
  };
}
