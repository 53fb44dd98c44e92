// The contract's query limits: depth 12 (introspection exempt) and 50 aliases (of any field, even
// `__typename`). A document over either fails validation with BAD_USER_INPUT, reported as a
// validation error (graphql-armor would throw past Yoga's status for validation errors): 400 under
// application/graphql-response+json, 200 under application/json, as GraphQL over HTTP asks.
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import type { GraphQLError, ValidationContext } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';

export const MAX_DEPTH = 12;
export const MAX_ALIASES = 50;

/** A limit's refusal as a validation error of ours (graphql-armor's has no code). */
const reportLimit = (context: ValidationContext | null, error: GraphQLError) =>
  context?.reportError(
    createGraphQLError(error.message, { extensions: { code: 'BAD_USER_INPUT', status: 400, http: { status: 400, spec: true } } }),
  );

export function useQueryLimits(): Plugin[] {
  const refusal = { onReject: [reportLimit], propagateOnRejection: false };
  return [
    maxDepthPlugin({ n: MAX_DEPTH, ignoreIntrospection: true, flattenFragments: true, ...refusal }),
    maxAliasesPlugin({ n: MAX_ALIASES, allowList: [], ...refusal }),
  ];
}
