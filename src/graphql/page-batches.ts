// The same page (first, after) of many owners' lists in one request (User.lessons, User.enrollments,
// Course.lessons): the keys asking for the same page share one service call, so a response's
// statement count does not grow with the number of owners it shows.
import type { PageRequest } from '../db/keyset.js';

/** A keyset page as text: equal for equal pages (a cursor's row has one spelling). */
export const keysetPageKey = ({ limit, after }: PageRequest) => JSON.stringify([limit, after?.createdAt.toISOString() ?? null, after?.id ?? null]);

/**
 * Answers a dataloader's keys, in their order: the keys are grouped by `pageKey(key.page)`, and each
 * group is one `load(owners, page)`, which answers the page of each owner.
 */
export async function loadSamePages<K extends { page: P }, P, V>(
  keys: readonly K[],
  { pageKey, ownerOf, load }: { pageKey: (page: P) => string; ownerOf: (key: K) => string; load: (owners: string[], page: P) => Promise<Map<string, V>> },
): Promise<V[]> {
  const groups = new Map<string, K[]>();
  for (const key of keys) {
    const request = pageKey(key.page);
    const group = groups.get(request);
    if (group) group.push(key);
    else groups.set(request, [key]);
  }
  const pages = new Map<K, V>();
  await Promise.all(
    [...groups.values()].map(async (group) => {
      const byOwner = await load(group.map(ownerOf), group[0]!.page);
      for (const key of group) pages.set(key, byOwner.get(ownerOf(key))!);
    }),
  );
  return keys.map((key) => pages.get(key)!);
}
