// Relay connections over the services' keyset pages, and GraphQL input clean-up, shared by the
// modules' schema files.
import { AppError } from '../errors.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../db/keyset.js';

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

/** What a service's keyset page takes; the field names are the GraphQL argument names. */
export interface PageRequest {
  limit?: number;
  cursor?: string;
  fieldNames: { limit: string; cursor: string };
}

/**
 * A forward-only Relay connection: `first`/`after` go to the service's page, `last`/`before` are
 * refused. Each edge's cursor is the service's cursor for that node.
 */
export async function forwardConnection<T>(
  args: ForwardArgs,
  loadPage: (request: PageRequest) => Promise<{ items: T[]; hasMore: boolean }>,
  cursorOf: (node: T) => string,
) {
  if (args.last != null || args.before != null) {
    throw new AppError('BAD_USER_INPUT', 'last/before: only forward pagination (first/after) is supported');
  }
  const page = await loadPage({
    limit: args.first ?? undefined,
    cursor: args.after ?? undefined,
    fieldNames: { limit: 'first', cursor: 'after' },
  });
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
 * GraphQL input objects give null for "not given"; the services want those fields absent. The
 * fields in `clearable` keep an explicit null (it clears them).
 */
export const definedInput = (input: Record<string, unknown>, clearable: readonly string[] = []) =>
  Object.fromEntries(Object.entries(input).filter(([k, v]) => v !== undefined && (v !== null || clearable.includes(k))));
