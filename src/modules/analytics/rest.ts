import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { defineRoute } from '../../http/route.js';
import { recordViewInput, viewsQuery, viewsTotal } from './service.js';

// Page views are limited per address by a GraphQL plugin (limits/operation-limits.ts): the route
// runs the mutation through it, so one declaration holds for both surfaces.
const RECORD_PAGE_VIEW: TypedDocumentNode<{ recordPageView: boolean }, { path: string }> = parse(
  'mutation RecordPageView($path: String!) { recordPageView(path: $path) }',
);

export const analyticsRoutes = [
  defineRoute({
    method: 'GET', path: '/api/analytics/views', operationId: 'getPageViews', tag: 'analytics', auth: false,
    summary: 'Total page views of this deployment, optionally narrowed',
    query: viewsQuery,
    success: { status: 200, description: 'The total', schema: viewsTotal },
    errors: [400],
    handler: async ({ query, ctx }) => ({ total: await ctx.services.analytics.total(query, 'query') }),
  }),
  defineRoute({
    method: 'POST', path: '/api/analytics/views', operationId: 'recordPageView', tag: 'analytics', auth: false,
    summary: 'Record one page view (emits analytics.hit)',
    body: recordViewInput,
    success: { status: 202, description: 'Recorded' },
    errors: [400],
    handler: async ({ body, ctx }) => {
      await ctx.execute(RECORD_PAGE_VIEW, body);
    },
  }),
];
