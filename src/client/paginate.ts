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

/** A path segment, escaped (ids come from callers). */
export const segment = (value: string) => encodeURIComponent(value);
