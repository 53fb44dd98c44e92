// Page views over REST: public, no credentials looked at.
import { z } from 'zod';
import { defineRoute } from '../../http/route.js';
import { recordViewInput, viewsQuery } from './inputs.js';

const viewsTotal = z.object({ total: z.number().int() });

export const analyticsRoutes = [
  defineRoute({
    method: 'GET', path: '/api/analytics/views', operationId: 'getPageViews', tag: 'analytics', auth: false,
    summary: 'Total page views of this deployment, optionally narrowed',
    query: viewsQuery,
    success: { status: 200, description: 'The total', schema: viewsTotal },
    errors: [400],
    handler: async ({ query, ctx }) => ({ total: await ctx.services.analytics.total(query) }),
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
