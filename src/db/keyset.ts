// Keyset pagination, newest first by (createdAt, id): the one mechanism every paged list uses.
// The cursor is opaque to clients: the (createdAt, id) of the last row of the previous page.
import { isStorable } from '../dates.js';
import { badInput } from '../errors.js';
import { isId } from '../ids.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** The row a keyset page starts after: the last row of the page before it. */
export interface Keyed {
  createdAt: Date;
  id: string;
}

/** A page as the services take it, checked: its size and the row it starts after (none: the first page). */
export interface PageRequest {
  limit: number;
  after?: Keyed;
}

export const encodeCursor = (row: Keyed) => Buffer.from(JSON.stringify([row.createdAt.toISOString(), row.id])).toString('base64url');

/**
 * The row a cursor names: exactly what encodeCursor makes, or a 400. Anything else (another date
 * format, a time no row can have, such as one before year 1, which PostgreSQL cannot read as
 * written, a third element, an id no row can have, such as one holding NUL, which PostgreSQL text
 * cannot hold) is refused before it reaches a query.
 */
function decodeCursor(cursor: string, field: string): Keyed {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(decoded) && decoded.length === 2) {
      const [at, id] = decoded as unknown[];
      const createdAt = new Date(typeof at === 'string' ? at : Number.NaN);
      // Re-encoded, it must be the cursor sent: base64url decoding forgives padding, `+`, `/` and
      // stray characters, which encodeCursor never writes.
      if (typeof id === 'string' && isId(id) && isStorable(createdAt.getTime()) && createdAt.toISOString() === at && encodeCursor({ createdAt, id }) === cursor) {
        return { createdAt, id };
      }
    }
  } catch {
    // fall through to the 400 below
  }
  throw badInput(field, 'is not a valid cursor');
}

/**
 * A page as a client asks for it (`limit`, the `cursor` a previous page gave), checked at the edge:
 * a 400 names the field as that transport calls it (`query.limit` on REST, `first` on GraphQL).
 */
export function parsePage({ limit = DEFAULT_PAGE_SIZE, cursor }: { limit?: number; cursor?: string }, fields: { limit: string; cursor: string }): PageRequest {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw badInput(fields.limit, `must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  return cursor === undefined ? { limit } : { limit, after: decodeCursor(cursor, fields.cursor) };
}

/**
 * A page's seek, order and size for a Prisma query. The seek is `(createdAt, id) < cursor` spelt as
 * Prisma can: `createdAt < c OR (createdAt = c AND id < i)`. PostgreSQL cannot enter a (createdAt,
 * id) index at an OR, so the redundant `createdAt <= c` beside it is the bound the index is entered
 * at; the OR is then left with the rows of the cursor's own millisecond. Queries that seek in SQL of
 * their own need the same (a row comparison, `("createdAt", id) < (c, i)`, is one too).
 */
export function keysetSeek({ limit, after }: PageRequest) {
  return {
    limit,
    seek: after
      ? { AND: [{ createdAt: { lte: after.createdAt } }, { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }] }
      : {},
    orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }],
    // One row more than asked tells whether there is a next page.
    take: limit + 1,
  };
}

/** The page of `rows` (fetched with keysetSeek's take) and the cursor of the next one. */
export function keysetPage<T extends Keyed>(rows: T[], limit: number) {
  const hasMore = rows.length > limit;
  const items = hasMore ? rows.slice(0, limit) : rows;
  return { items, hasMore, nextCursor: hasMore ? encodeCursor(items[items.length - 1]!) : null };
}
