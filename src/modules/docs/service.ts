import { z } from 'zod';
import type { Db } from '../../db/client.js';
import type { DocPage } from '../../generated/prisma/client.js';

export const docView = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  url: z.string(),
  updatedAt: z.string().describe('ISO 8601 UTC'),
});
export type DocView = z.infer<typeof docView>;
export const toDocView = (d: DocPage): DocView => ({ ...d, updatedAt: d.updatedAt.toISOString() });

export function createDocsService({ db }: { db: Db }) {
  return {
    /** Every documentation page, by slug. */
    list: (): Promise<DocPage[]> => db.docPage.findMany({ orderBy: { slug: 'asc' } }),
  };
}
