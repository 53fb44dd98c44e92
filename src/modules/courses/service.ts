// Courses: ordered lists of lessons that ADMINs compose and publish (CONTRACT.md, Courses).
import type { Db } from '../../db/client.js';
import type { Write } from '../events/write.js';

export function createCourseService(_deps: { db: Db; write: Write }) {
  return {};
}

export type CourseService = ReturnType<typeof createCourseService>;
