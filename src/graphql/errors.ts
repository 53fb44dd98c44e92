// Maps errors for GraphQL: an AppError keeps its message and gets extensions.code plus the
// contract's numeric code as extensions.status; anything unexpected is masked and logged.
// The HTTP status follows GraphQL-over-HTTP (field errors are 200), except RATE_LIMITED: 429.
import { GraphQLError } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import { AppError, isDatabaseUnavailable, unavailable } from '../errors.js';
import type { Logger } from '../logger.js';

export function maskGraphQLError(error: unknown, log: Logger): Error {
  const original = error instanceof GraphQLError ? error.originalError : error;
  // Yoga's own request errors (parse, validation, bad variables) already follow the spec.
  if (error instanceof GraphQLError && !original) return error;
  let appError: AppError | undefined;
  if (original instanceof AppError) appError = original;
  else if (original instanceof GraphQLError) return original;
  else if (isDatabaseUnavailable(original)) appError = unavailable(original);

  const gqlError = error instanceof GraphQLError ? error : undefined;
  if (!appError) {
    log.error({ err: original }, 'unexpected error in GraphQL');
    return createGraphQLError('Unexpected error.', { nodes: gqlError?.nodes, path: gqlError?.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  }
  if (appError.code === 'UNAVAILABLE') log.error({ err: original }, 'database unavailable');
  return createGraphQLError(appError.message, {
    nodes: gqlError?.nodes,
    path: gqlError?.path,
    extensions: {
      code: appError.code,
      status: appError.status,
      ...(appError.details ? { details: appError.details } : {}),
      ...(appError.code === 'RATE_LIMITED' ? { http: { status: 429, headers: appError.headers } } : {}),
    },
  });
}
