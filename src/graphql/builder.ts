// The Pothos builder: generics, plugins and scalars. Types and fields live in each module's schema.ts.
import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { z } from 'zod';
import type { RequestContext } from '../context.js';
import { AppError, unauthenticated } from '../errors.js';

/** The request's context, the same one its REST route would get (src/app.ts). */
export type GraphQLContext = RequestContext;

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  AuthScopes: { authenticated: boolean };
  DefaultFieldNullability: false;
  DefaultEdgesNullability: false;
  DefaultNodeNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    ID: { Input: string; Output: string };
  };
}>({
  plugins: [RelayPlugin, ScopeAuthPlugin, DataloaderPlugin, ComplexityPlugin],
  complexity: {
    // Each field costs 1; a connection multiplies what is inside it by its page (pageCost in
    // src/graphql/connection.ts); a plain list counts once (its edges are the connection's own).
    defaultComplexity: 1,
    defaultListMultiplier: 1,
    // The limit is checked once per operation before it runs, on every transport, by
    // src/graphql/use-query-cost.ts, not by this plugin's check inside each root resolver.
    disabled: true,
  },
  defaultFieldNullability: false,
  relay: {
    // Ids are the same plain ids the REST surface uses; no global Node ids.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    cursorType: 'String',
    edgesFieldOptions: { nullable: false },
    nodeFieldOptions: { nullable: false },
  },
  scopeAuth: {
    authScopes: async (ctx) => ({ authenticated: (await ctx.caller()) !== null }),
    // The token check is the one failure an `authenticated` scope can have.
    unauthorizedError: () => unauthenticated(),
  },
});

/**
 * A calendar date or a date-time with its offset, checked as written: `new Date` alone would roll
 * 2020-02-30 over to March 1st where REST's schemas refuse it.
 */
const isoInput = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

builder.scalarType('DateTime', {
  description: 'An ISO 8601 date-time in UTC, e.g. 2026-01-31T12:00:00.000Z. As input, a date (YYYY-MM-DD) also works.',
  serialize: (value) => (value instanceof Date ? value.toISOString() : value),
  parseValue: (value) => {
    const date = typeof value === 'string' && isoInput.safeParse(value).success ? new Date(value) : null;
    if (!date || Number.isNaN(date.getTime())) throw new AppError('BAD_USER_INPUT', 'DateTime: must be an ISO 8601 date or date-time');
    return date;
  },
});

builder.queryType({});
builder.mutationType({});
