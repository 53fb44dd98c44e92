// A lesson as clients see it over REST (and as If-Match is checked against), and its page.
import { z } from 'zod';
import type { Lesson } from '../../generated/prisma/client.js';

export const lessonView = z.object({
  id: z.string(),
  title: z.string(),
  summary: z.string().nullable(),
  body: z.string(),
  status: z.enum(['DRAFT', 'PUBLISHED']),
  authorId: z.string(),
  createdAt: z.iso.datetime().describe('ISO 8601 UTC'),
  publishedAt: z.iso.datetime().nullable().describe('ISO 8601 UTC; null for a draft'),
  updatedAt: z.iso.datetime().describe('ISO 8601 UTC'),
});
export type LessonView = z.infer<typeof lessonView>;
export const lessonPage = z.object({ items: z.array(lessonView), nextCursor: z.string().nullable() });

export const toLessonView = (l: Lesson): LessonView => ({
  id: l.id,
  title: l.title,
  summary: l.summary,
  body: l.body,
  status: l.status,
  authorId: l.authorId,
  createdAt: l.createdAt.toISOString(),
  publishedAt: l.publishedAt?.toISOString() ?? null,
  updatedAt: l.updatedAt.toISOString(),
});
