// The REST surface: every path that is not GraphQL's is a REST route (404 in the contract's
// shape when none matches). Routes are data (src/http/routes.ts); the router validates their
// input with their zod schemas and the OpenAPI document is generated from the same schemas.
import type { Plugin } from 'graphql-yoga';
import { AppError } from '../../errors.js';
import { errorResponse } from '../errors.js';
import { openApiDocument } from '../openapi.js';
import { Router } from '../router.js';
import { assertCleanInput } from '../validation.js';
import type { RouteDefinition } from '../route.js';
import { requestContextOf } from './server-context.js';

export function useRestRoutes({ routes, graphqlPaths }: { routes: RouteDefinition[]; graphqlPaths: readonly string[] }): Plugin {
  const router = new Router().add(...routes);
  // Rendered once: the document never changes while the process runs.
  const openapi = JSON.stringify(openApiDocument(router.routes));
  return {
    async onRequest({ request, url, endResponse, fetchAPI }) {
      if (graphqlPaths.includes(url.pathname)) return;
      const ctx = requestContextOf(request);
      const head = request.method === 'HEAD';
      try {
        if (url.pathname === '/api/openapi.json' && (request.method === 'GET' || head)) {
          // Served before routing, but under the router's input rule all the same.
          if (url.search) assertCleanInput(Object.fromEntries(url.searchParams), 'query');
          return endResponse(new fetchAPI.Response(head ? null : openapi, { headers: { 'content-type': 'application/json; charset=utf-8' } }));
        }
        const response = await router.handle(request, url, ctx, fetchAPI.Response);
        if (!response) throw new AppError('NOT_FOUND', `Route ${request.method} ${url.pathname} not found`);
        endResponse(response);
      } catch (error) {
        endResponse(errorResponse(fetchAPI.Response, error, ctx.log, head));
      }
    },
  };
}
