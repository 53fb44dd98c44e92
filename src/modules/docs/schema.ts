// The documentation pages' GraphQL type and the public `docs` query.
import { builder } from '../../graphql/builder.js';
import type { DocPage } from '../../generated/prisma/client.js';

const Doc = builder.objectRef<DocPage>('Doc').implement({
  description: 'A documentation page.',
  fields: (t) => ({
    id: t.exposeID('id'),
    slug: t.exposeString('slug'),
    title: t.exposeString('title'),
    url: t.exposeString('url'),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  docs: t.field({ type: [Doc], resolve: (_, __, ctx) => ctx.services.docs.list() }),
}));
