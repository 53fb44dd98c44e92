// The contract's query limits: depth 12 (introspection exempt) and 50 aliases (of any field:
// graphql-armor exempts `__typename` by default). A document over either fails validation like
// any other invalid document, with BAD_USER_INPUT: HTTP 400 under
// application/graphql-response+json, and 200 under application/json, as GraphQL over HTTP asks
// of a validation failure there. graphql-armor throws its error out of the validation by default,
// past the status Yoga gives validation errors: so it reports it instead.
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
