// Maps errors for GraphQL: an AppError keeps its message and gets extensions.code plus the
// contract's numeric code as extensions.status; anything unexpected is masked and logged.
// The HTTP status follows GraphQL-over-HTTP (field errors are 200), except RATE_LIMITED: 429.
import { GraphQLError } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import { AppError, isDatabaseUnavailable, unavailable } from '../errors.js';
import type { Logger } from '../logger.js';
import { errorResponse } from '../http/errors.js';
import { responseHeaders } from '../http/headers.js';

/**
 * By name as well as by class: a process can hold two instances of graphql (its CommonJS and ES
 * module builds, e.g. under vitest), and an error from the other one fails `instanceof`.
 */
export function isGraphQLError(error: unknown): error is GraphQLError {
  return error instanceof GraphQLError || (error instanceof Error && error.name === 'GraphQLError' && 'extensions' in error);
}

function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

export function maskGraphQLError(error: unknown, log: Logger): Error {
  const gqlError = isGraphQLError(error) ? error : undefined;
  // What was thrown, under the GraphQLErrors that located it (execution, dataloaders).
  let original: unknown = error;
  for (let depth = 0; depth < 8 && isGraphQLError(original) && original.originalError; depth++) original = original.originalError;

  // GraphQLErrors all the way down: Yoga's request errors (parse, validation, bad variables,
  // mutation over GET) and errors raised as GraphQLErrors on purpose already follow the spec.
  if (isGraphQLError(original)) return gqlError ?? original;
  // Yoga's request-level errors that wrap a cause (e.g. a body that is not JSON): keep Yoga's
  // message and HTTP status; the cause is not sent.
  if (gqlError && !gqlError.path && gqlError.extensions?.http && !isAppError(original)) {
    const { code, http } = gqlError.extensions;
    return createGraphQLError(gqlError.message, { extensions: { ...(code ? { code } : {}), http } });
  }

  let appError: AppError | undefined;
  if (isAppError(original)) appError = original;
  else if (isDatabaseUnavailable(original)) appError = unavailable(original);

  if (!appError) {
    log.error({ err: original }, 'unexpected error in GraphQL');
    return createGraphQLError('Unexpected error.', { nodes: gqlError?.nodes, path: gqlError?.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  }
  if (appError.code === 'UNAVAILABLE') log.error({ err: original }, 'database unavailable');
  return appGraphQLError(appError, gqlError);
}

/**
 * An AppError as a GraphQL error: its message, and `extensions.code`, `status` and `details`.
 * For the mask above (which passes the located error, for its nodes and path) and for the plugins
 * that refuse an operation before it runs with a result of their own, which is not masked again.
 */
export function appGraphQLError(appError: AppError, located?: Pick<GraphQLError, 'nodes' | 'path'>): GraphQLError {
  return createGraphQLError(appError.message, {
    nodes: located?.nodes,
    path: located?.path,
    extensions: {
      code: appError.code,
      status: appError.status,
      ...(appError.details ? { details: appError.details } : {}),
      // HTTP 429 for RATE_LIMITED; other field errors keep GraphQL over HTTP's status, with their headers (Retry-After).
      ...(appError.code === 'RATE_LIMITED' ? { http: { status: 429, headers: appError.headers } } : appError.headers ? { http: { headers: appError.headers } } : {}),
    },
  });
}

/** Masks an error for clients and drops Yoga's transport hint (`extensions.http`). */
export function formatGraphQLError(error: Readonly<GraphQLError | Error>, log: Logger): GraphQLError {
  const masked = maskGraphQLError(error, log) as GraphQLError;
  if (!masked.extensions?.http) return masked;
  const { http: _http, ...extensions } = masked.extensions;
  return Object.assign(masked, { extensions });
}

/**
 * A request on a GraphQL path refused before Yoga parsed it (the budget, the input checks): a
 * GraphQL response with the error's status, in the media type the client accepts.
 */
function graphqlErrorResponse(Response: typeof globalThis.Response, error: unknown, request: Request, log: Logger): Response {
  const formatted = formatGraphQLError(error as Error, log);
  const accept = request.headers.get('accept') ?? '';
  const type = accept.includes('application/graphql-response+json') ? 'application/graphql-response+json' : 'application/json';
  return new Response(JSON.stringify({ errors: [formatted.toJSON()] }), {
    status: Number(formatted.extensions.status ?? 500),
    headers: responseHeaders(error instanceof AppError ? error.headers : undefined, { 'content-type': `${type}; charset=utf-8` }),
  });
}

/**
 * A request refused before routing, in the shape of what was asked: a GraphQL response on a
 * GraphQL path (`graphql`), the contract's error body anywhere else.
 */
export function refusalResponse(Response: typeof globalThis.Response, error: unknown, request: Request, log: Logger, graphql: boolean): Response {
  return graphql ? graphqlErrorResponse(Response, error, request, log) : errorResponse(Response, error, log);
}
