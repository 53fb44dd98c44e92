// Keyset pagination, newest first by (createdAt, id): the one mechanism every paged list uses.
// The cursor is opaque to clients: the (createdAt, id) of the last row of the previous page.
import { isStorable } from '../dates.js';
import { badInput } from '../errors.js';
import { isId } from '../ids.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface PageOptions {
  limit?: number;
  cursor?: string;
  /** How the input fields are named to the client, for error messages. */
  fieldNames?: { limit: string; cursor: string };
}

interface Keyed {
  createdAt: Date;
  id: string;
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
 * Validates the page options (400 naming the field) and gives the page size and the row the page
 * starts after: for the queries that seek in SQL of their own rather than through keysetQuery.
 */
export function keysetBounds({ limit = DEFAULT_PAGE_SIZE, cursor, fieldNames = { limit: 'limit', cursor: 'cursor' } }: PageOptions) {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw badInput(fieldNames.limit, `must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  return { limit, after: cursor === undefined ? undefined : decodeCursor(cursor, fieldNames.cursor) };
}

/**
 * Validates the page options (400 naming the field) and gives the query's seek, order and size.
 *
 * The seek is `(createdAt, id) < cursor` spelt as Prisma can: `createdAt < c OR (createdAt = c AND
 * id < i)`. PostgreSQL cannot enter a (createdAt, id) index at an OR, so it only filtered with it:
 * the page 90 % deep into 200,000 lessons read and threw away the 180,000 rows before the cursor.
 * The redundant `createdAt <= c` beside it is a bound the index is entered at; the OR is then left
 * with the rows of the cursor's own millisecond. Queries that seek in SQL of their own need the
 * same (a row comparison, `("createdAt", id) < (c, i)`, is one too).
 */
export function keysetQuery(options: PageOptions) {
  const { limit, after } = keysetBounds(options);
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

/** The page of `rows` (fetched with keysetQuery's take) and the cursor of the next one. */
export function keysetPage<T extends Keyed>(rows: T[], limit: number) {
  const hasMore = rows.length > limit;
  const items = hasMore ? rows.slice(0, limit) : rows;
  return { items, hasMore, nextCursor: hasMore ? encodeCursor(items[items.length - 1]!) : null };
}
