// The Pothos builder: generics, plugins and scalars. Types and fields live in each module's schema.ts.
import SchemaBuilder from '@pothos/core';
import { GraphQLError, Kind } from 'graphql';
import ComplexityPlugin from '@pothos/plugin-complexity';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import type { RequestContext } from '../context.js';
import type { Caller } from '../modules/auth/caller.js';
import { ClientInstant, isInstant } from '../dates.js';
import { AppError, forbidden, unauthenticated } from '../errors.js';

/** The request's context, the same one its REST route would get (src/app.ts). */
export type GraphQLContext = RequestContext;

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  AuthScopes: { authenticated: boolean; admin: boolean };
  // What a resolver behind `t.withAuth({ authenticated: true })` or `({ admin: true })` may rely on.
  AuthContexts: {
    authenticated: Omit<GraphQLContext, 'viewer'> & { viewer(): Caller };
    admin: Omit<GraphQLContext, 'viewer'> & { viewer(): Caller & { readonly role: 'ADMIN' } };
  };
  DefaultFieldNullability: false;
  DefaultEdgesNullability: false;
  DefaultNodeNullability: false;
  Scalars: {
    DateTime: { Input: ClientInstant; Output: Date | string };
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
    // A subscription's scopes are checked once, when it is subscribed (its subscribe gets viewer()).
    authorizeOnSubscribe: true,
    authScopes: async (ctx) => {
      const caller = await ctx.caller();
      return { authenticated: caller !== null, admin: caller?.role === 'ADMIN' };
    },
    // No credentials: 403 `Missing or invalid token`; signed in but not an ADMIN: FORBIDDEN.
    unauthorizedError: (_parent, ctx) => (ctx.viewer() ? forbidden() : unauthenticated()),
  },
});

/**
 * As input, an instant exactly as REST takes one (src/dates.ts: a date or a UTC date-time, checked
 * as written, no offsets), read as a ClientInstant: its Date is the first whole millisecond at or
 * after it, as REST reads a bound, and its text as sent goes to the services, so digits past the
 * millisecond count the same on both transports.
 */
const NOT_AN_INSTANT = 'DateTime: must be an ISO 8601 date or date-time in UTC (YYYY-MM-DD or …Z)';
builder.scalarType('DateTime', {
  description: 'An ISO 8601 date-time in UTC, e.g. 2026-01-31T12:00:00.000Z. As input, a date (YYYY-MM-DD) also works.',
  serialize: (value) => (value instanceof Date ? value.toISOString() : value),
  parseValue: (value) => {
    if (!isInstant(value)) throw new AppError('BAD_USER_INPUT', NOT_AN_INSTANT);
    return new ClientInstant(value);
  },
  // Written in the document: the same rule and answer as a variable (graphql-js's default would
  // report GRAPHQL_VALIDATION_FAILED). A GraphQLError thrown here is reported as it is.
  parseLiteral: (node) => {
    const value = node.kind === Kind.STRING ? node.value : undefined;
    if (!isInstant(value)) throw new GraphQLError(NOT_AN_INSTANT, { nodes: [node], extensions: { code: 'BAD_USER_INPUT' } });
    return new ClientInstant(value);
  },
});

builder.queryType({});
builder.mutationType({});
