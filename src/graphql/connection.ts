// Relay connections over the services' keyset pages, and GraphQL input clean-up, shared by the
// modules' schema files.
import { AppError } from '../errors.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, parsePage, type PageRequest } from '../db/keyset.js';

export interface ForwardArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/**
 * A connection field's cost (@pothos/plugin-complexity): what is selected inside it counts once for
 * every node `first` asks for (its default when not given; at most the largest page, as a larger
 * `first` is refused by the field itself). See src/graphql/use-query-cost.ts.
 */
export const pageCost =
  (defaultSize = DEFAULT_PAGE_SIZE, maxSize = MAX_PAGE_SIZE) =>
  (args: { first?: number | null }) => ({ field: 1, multiplier: Math.min(Math.max(args.first ?? defaultSize, 0), maxSize) });

/** A forward page as the client asked for it: `first` and `after`, absent when not given. */
export interface ForwardPage {
  first?: number;
  after?: string;
}

/**
 * A forward-only Relay connection: `first`/`after` go to `loadPage`, `last`/`before` are refused.
 * Each edge's cursor is `cursorOf` its node.
 */
export async function forwardConnection<T>(
  args: ForwardArgs,
  loadPage: (page: ForwardPage) => Promise<{ items: T[]; hasMore: boolean }>,
  cursorOf: (node: T) => string,
) {
  if (args.last != null || args.before != null) {
    throw new AppError('BAD_USER_INPUT', 'last/before: only forward pagination (first/after) is supported');
  }
  const page = await loadPage({ first: args.first ?? undefined, after: args.after ?? undefined });
  const edges = page.items.map((node) => ({ cursor: cursorOf(node), node }));
  return {
    edges,
    pageInfo: {
      hasNextPage: page.hasMore,
      hasPreviousPage: args.after != null,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

/**
 * A forwardConnection over a keyset list (src/db/keyset.ts): `first` and `after` are checked here,
 * a 400 naming them, and `loadPage` gets the checked page.
 */
export const keysetConnection = <T>(
  args: ForwardArgs,
  loadPage: (page: PageRequest) => Promise<{ items: T[]; hasMore: boolean }>,
  cursorOf: (node: T) => string,
) => forwardConnection(args, ({ first, after }) => loadPage(parsePage({ limit: first, cursor: after }, { limit: 'first', cursor: 'after' })), cursorOf);

/**
 * GraphQL input objects give null for "not given"; the services want those fields absent. The
 * fields in `clearable` keep an explicit null (it clears them).
 */
export const definedInput = (input: Record<string, unknown>, clearable: readonly string[] = []) =>
  Object.fromEntries(Object.entries(input).filter(([k, v]) => v !== undefined && (v !== null || clearable.includes(k))));
