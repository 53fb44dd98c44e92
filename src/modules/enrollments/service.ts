// Enrollments, lesson completions, progress and course stats (CONTRACT.md, Courses).
import type { Db } from '../../db/client.js';
import type { Write } from '../events/write.js';

export function createEnrollmentService(_deps: { db: Db; write: Write }) {
  return {};
}

export type EnrollmentService = ReturnType<typeof createEnrollmentService>;
