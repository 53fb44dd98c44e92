// The REST surface: every path that is not GraphQL's is a REST route (404 in the contract's
// shape when none matches). Routes are data (src/http/routes.ts); the router validates their
// input with their zod schemas and the OpenAPI document is generated from the same schemas.
import type { Plugin } from 'graphql-yoga';
import { AppError } from '../../errors.js';
import type { CachedReads } from '../../graphql/response-cache.js';
import { errorResponse } from '../errors.js';
import { Router } from '../router.js';
import type { RouteDefinition } from '../route.js';
import { requestContextOf } from './server-context.js';

export function useRestRoutes({ routes, graphqlPaths, reads }: { routes: RouteDefinition[]; graphqlPaths: readonly string[]; reads?: CachedReads }): Plugin {
  const router = new Router(reads).add(...routes);
  return {
    async onRequest({ request, url, endResponse, fetchAPI }) {
      if (graphqlPaths.includes(url.pathname)) return;
      const ctx = requestContextOf(request);
      const head = request.method === 'HEAD';
      try {
        const response = await router.handle(request, url, ctx, fetchAPI.Response);
        if (!response) throw new AppError('NOT_FOUND', `Route ${request.method} ${url.pathname} not found`);
        endResponse(response);
      } catch (error) {
        endResponse(errorResponse(fetchAPI.Response, error, ctx.log(), head));
      }
    },
  };
}
