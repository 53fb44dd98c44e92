import { defineRoute } from '../../http/route.js';
import { recordViewInput, viewsQuery, viewsTotal } from './service.js';

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
    handler: ({ body, ctx }) => ctx.services.analytics.record(body),
  }),
];
