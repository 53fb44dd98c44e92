// Walking a cursor-paginated list: the `all()` calls fetch the next page only when the loop asks.
import type { Page } from './types.js';

/** Every item of every page, from the first, following `nextCursor` until it is null. */
export async function* paginate<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield* page.items;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

/**
 * A path segment, escaped (ids come from callers). `.` and `..` cannot be one: every URL parser
 * reads them as steps up the path, so `courses.enrollments('..')` would fetch the caller's own
 * enrollments. No id is either: the call fails before anything is sent.
 */
export function segment(value: string): string {
  if (value === '.' || value === '..') throw new TypeError(`"${value}" is not an id: in a URL path it names another resource`);
  return encodeURIComponent(value);
}
