// The REST surface: every path that is not GraphQL's is a REST route (404 in the contract's
// shape when none matches). Routes are data (src/http/routes.ts); the router validates their
// input with their zod schemas and the OpenAPI document is generated from the same schemas.
import type { Plugin } from 'graphql-yoga';
import { AppError } from '../../errors.js';
import type { CachedReads } from '../../modules/response-cache/index.js';
import { errorResponse } from '../errors.js';
import { Router } from '../router.js';
import type { RouteDefinition, RouteGuard } from '../route.js';
import { requestContextOf } from './server-context.js';

/** `guard`: runs every route's handler, or refuses the call (see RouteGuard). */
export function useRestRoutes({ routes, graphqlPaths, reads, guard }: { routes: RouteDefinition[]; graphqlPaths: readonly string[]; reads?: CachedReads; guard?: RouteGuard }): Plugin {
  const router = new Router(reads, guard).add(...routes);
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
