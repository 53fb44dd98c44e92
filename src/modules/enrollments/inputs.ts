// What the enrollments module takes as input beyond pages (src/http/page-query.ts): the ids the
// REST paths and queries carry. Checked for shape only; lookupId refuses what no row can have.
import { z } from 'zod';

export const courseIdParams = z.object({ id: z.string().min(1, 'must not be empty').describe('A course id') });
export const lessonIdQuery = z.object({ id: z.string().min(1, 'must not be empty').describe('A lesson id') });
