// A documentation page as clients see it over REST.
import { z } from 'zod';
import type { DocPage } from '../../generated/prisma/client.js';

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
