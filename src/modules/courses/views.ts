// A course as clients see it over REST (and as If-Match is checked against), and its page.
import { z } from 'zod';
import type { Course } from '../../generated/prisma/client.js';

/** A course row with its lessons' ids in course order: what the service answers. */
export type CourseWithLessons = Course & { lessonIds: string[] };

export const courseView = z.object({
  id: z.string(),
  title: z.string(),
  summary: z.string().nullable(),
  status: z.enum(['DRAFT', 'PUBLISHED']),
  authorId: z.string(),
  lessonIds: z.array(z.string()).describe('The lessons, in course order'),
  createdAt: z.iso.datetime().describe('ISO 8601 UTC'),
  publishedAt: z.iso.datetime().nullable().describe('ISO 8601 UTC; null for a draft'),
  updatedAt: z.iso.datetime().describe('ISO 8601 UTC'),
});
export type CourseView = z.infer<typeof courseView>;
export const coursePage = z.object({ items: z.array(courseView), nextCursor: z.string().nullable() });

export const toCourseView = (c: CourseWithLessons): CourseView => ({
  id: c.id,
  title: c.title,
  summary: c.summary,
  status: c.status,
  authorId: c.authorId,
  lessonIds: c.lessonIds,
  createdAt: c.createdAt.toISOString(),
  publishedAt: c.publishedAt?.toISOString() ?? null,
  updatedAt: c.updatedAt.toISOString(),
});
