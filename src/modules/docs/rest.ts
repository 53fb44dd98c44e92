// The documentation pages' REST route: public, no input.
import { z } from 'zod';
import { defineRoute } from '../../http/route.js';
import { docView, toDocView } from './views.js';

export const docsRoutes = [
  defineRoute({
    method: 'GET', path: '/api/content/docs', operationId: 'listDocs', tag: 'content', auth: false,
    summary: 'All documentation pages',
    success: { status: 200, description: 'An array of pages', schema: z.array(docView) },
    errors: [],
    handler: async ({ ctx }) => (await ctx.services.docs.list()).map(toDocView),
  }),
];
