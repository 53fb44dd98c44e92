// 413 for a body over BODY_LIMIT_BYTES: the node server drained it unread and flagged the request.
import type { Plugin } from 'graphql-yoga';
import { tooLarge } from '../body.js';
import { errorResponse } from '../errors.js';
import { requestContextOf, type NodeServerContext } from './server-context.js';

export function useBodyLimit(limit: number): Plugin<object, NodeServerContext> {
  return {
    onRequest({ request, serverContext, endResponse, fetchAPI }) {
      if (serverContext.req.bodyTooLarge) endResponse(errorResponse(fetchAPI.Response, tooLarge(limit), requestContextOf(request).log));
    },
  };
}
