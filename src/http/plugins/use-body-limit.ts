// What the node server found reading a body (src/server.ts), answered in the shape of what was
// asked (the contract's error body, or a GraphQL error on a GraphQL path): 413 for a body over
// BODY_LIMIT_BYTES (drained unread), 400 for one that is not UTF-8. Decoded as it was, such a
// body had every bad byte replaced by U+FFFD and was stored that way.
import type { Plugin } from 'graphql-yoga';
import { graphqlErrorResponse } from '../../graphql/errors.js';
import { notUtf8, tooLarge } from '../body.js';
import { errorResponse } from '../errors.js';
import { requestContextOf, type NodeServerContext } from './server-context.js';

export function useBodyLimit({ limit, graphqlPaths }: { limit: number; graphqlPaths: readonly string[] }): Plugin<object, NodeServerContext> {
  return {
    onRequest({ request, url, serverContext: { req }, endResponse, fetchAPI }) {
      const error = req.bodyTooLarge ? tooLarge(limit) : req.bodyNotUtf8 ? notUtf8() : undefined;
      if (!error) return;
      const { log } = requestContextOf(request);
      endResponse(graphqlPaths.includes(url.pathname) ? graphqlErrorResponse(fetchAPI.Response, error, request, log) : errorResponse(fetchAPI.Response, error, log));
    },
  };
}
