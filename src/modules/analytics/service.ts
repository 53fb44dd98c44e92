import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { badInput } from '../../errors.js';
import { parseWith } from '../../http/validation.js';
import { recordEvent } from '../events/outbox.js';

const instant = z
  .union([z.iso.date(), z.iso.datetime()], { error: 'must be an ISO 8601 date (YYYY-MM-DD) or UTC date-time (…Z)' })
  .describe('ISO 8601 date or UTC date-time');
export const pagePath = z.string().min(1, 'must not be empty').max(2048, 'must be at most 2048 characters').regex(/^\//, 'must start with /');
export const recordViewInput = z.strictObject({ path: pagePath });
export const viewsQuery = z.object({
  path: pagePath.optional(),
  from: instant.optional().describe('Inclusive lower bound (ISO 8601 date or UTC date-time)'),
  to: instant.optional().describe('Exclusive upper bound (ISO 8601 date or UTC date-time)'),
});
export const viewsTotal = z.object({ total: z.number().int() });

export function createAnalyticsService({ db }: { db: Db }) {
  return {
    /** Records one page view and emits analytics.hit. */
    async record(input: unknown): Promise<void> {
      const { path } = parseWith(recordViewInput, input, '');
      await db.$transaction(async (tx) => {
        await tx.pageView.create({ data: { path } });
        await recordEvent(tx, 'analytics.hit', { path });
      });
    },

    /**
     * Total page views, optionally for one path and within [from, to). `where` prefixes field
     * names in errors (`query` for REST, so that `query.to` matches the router's own messages).
     */
    async total(input: unknown, where = ''): Promise<number> {
      const { path, from, to } = parseWith(viewsQuery, input, where);
      const gte = from ? new Date(from) : undefined;
      const lt = to ? new Date(to) : undefined;
      if (gte && lt && lt <= gte) throw badInput(where ? `${where}.to` : 'to', 'must be later than from');
      return db.pageView.count({ where: { path, at: { gte, lt } } });
    },
  };
}
