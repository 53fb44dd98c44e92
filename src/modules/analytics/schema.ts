import { builder } from '../../graphql/builder.js';

builder.queryFields((t) => ({
  pageViews: t.int({
    description: 'Total page views, optionally for one path and within [from, to).',
    args: { path: t.arg.string(), from: t.arg({ type: 'DateTime' }), to: t.arg({ type: 'DateTime' }) },
    resolve: (_, args, ctx) =>
      ctx.services.analytics.total({
        path: args.path ?? undefined,
        from: args.from?.toISOString(),
        to: args.to?.toISOString(),
      }),
  }),
}));

builder.mutationFields((t) => ({
  recordPageView: t.boolean({
    description: 'Records one page view; emits analytics.hit. Always true.',
    args: { path: t.arg.string({ required: true }) },
    resolve: async (_, args, ctx) => {
      await ctx.services.analytics.record(args);
      return true;
    },
  }),
}));
