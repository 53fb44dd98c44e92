// Page views over GraphQL: the same service and input schemas as the REST routes.
import { builder } from '../../graphql/builder.js';
import { parseWith } from '../../input.js';
import { recordViewInput, viewsQuery } from './inputs.js';

builder.queryFields((t) => ({
  pageViews: t.int({
    description: 'Total page views, optionally for one path and within [from, to).',
    cache: 'never',
    args: { path: t.arg.string(), from: t.arg({ type: 'DateTime' }), to: t.arg({ type: 'DateTime' }) },
    // The bounds as the client wrote them (the DateTime scalar keeps the text), read as REST reads them.
    resolve: (_, args, ctx) =>
      ctx.services.analytics.total(parseWith(viewsQuery, { path: args.path ?? undefined, from: args.from?.text, to: args.to?.text }, '')),
  }),
}));

builder.mutationFields((t) => ({
  recordPageView: t.boolean({
    description: 'Records one page view; emits analytics.hit. Always true.',
    args: { path: t.arg.string({ required: true }) },
    resolve: async (_, args, ctx) => {
      await ctx.services.analytics.record(parseWith(recordViewInput, args, ''));
      return true;
    },
  }),
}));
