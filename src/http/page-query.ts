import { z } from 'zod';
import { MAX_PAGE_SIZE, parsePage, type PageRequest } from '../db/keyset.js';

/** The query fields of every paged REST list: `limit` and `cursor` (see src/db/keyset.ts). */
export const pageQueryFields = {
  limit: z.string().regex(/^\d+$/, `must be an integer from 1 to ${MAX_PAGE_SIZE}`).transform(Number).optional()
    .describe(`Page size, 1-${MAX_PAGE_SIZE} (default 20)`),
  cursor: z.string().optional().describe('nextCursor of the previous page'),
};

/** The page a REST list's query asks for, checked: a 400 names `query.limit` or `query.cursor`. */
export const pageOfQuery = (query: { limit?: number; cursor?: string }): PageRequest =>
  parsePage(query, { limit: 'query.limit', cursor: 'query.cursor' });
