import { z } from 'zod';
import type { Db } from '../../db/client.js';
import type { DocPage } from '../../generated/prisma/client.js';
import { publishedDocUrl } from './links.js';

export const docView = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  url: z.string(),
  updatedAt: z.iso.datetime().describe('ISO 8601 UTC'),
});
export type DocView = z.infer<typeof docView>;
/** Field by field, so that a column added to DocPage is not published by accident. */
export const toDocView = (d: DocPage): DocView => ({
  id: d.id,
  slug: d.slug,
  title: d.title,
  url: d.url,
  updatedAt: d.updatedAt.toISOString(),
});

export function createDocsService({ db }: { db: Db }) {
  return {
    /** Every documentation page, by slug, with the url where it lives (see publishedDocUrl). */
    list: async (): Promise<DocPage[]> =>
      (await db.docPage.findMany({ orderBy: { slug: 'asc' } })).map((d) => ({ ...d, url: publishedDocUrl(d.slug, d.url) })),
  };
}
