// The documentation pages the service lists (GET /api/content/docs, GraphQL `docs`).
import type { Db } from '../../db/client.js';
import type { DocPage } from '../../generated/prisma/client.js';
import { publishedDocUrl } from './links.js';

export function createDocsService({ db }: { db: Db }) {
  return {
    /** Every documentation page, by slug, with the url where it lives (see publishedDocUrl). */
    list: async (): Promise<DocPage[]> =>
      (await db.docPage.findMany({ orderBy: { slug: 'asc' } })).map((d) => ({ ...d, url: publishedDocUrl(d.slug, d.url) })),
  };
}
