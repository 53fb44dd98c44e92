// Pages of a course's lessons in course order, as GraphQL's `Course.lessons` walks them. A
// course's positions run 0, 1, 2, … without gaps (setLessons writes them so), so a page is the
// positions after the cursor's, and its cursor is the position of its last lesson.
import { badInput } from '../../errors.js';
import type { Lesson } from '../../generated/prisma/client.js';
import { MAX_COURSE_LESSONS } from './inputs.js';

/** A page of a course's lessons: its size and the position it starts after (-1: the first page). */
export interface LessonPageRequest {
  limit: number;
  afterPosition: number;
}

/** A lesson with its place in the course. */
export type PlacedLesson = Lesson & { position: number };

export const encodePositionCursor = ({ position }: { position: number }) => Buffer.from(JSON.stringify(['position', position])).toString('base64url');

/** The position a cursor names: exactly what encodePositionCursor makes, or a 400 naming `field`. */
export function decodePositionCursor(cursor: string, field: string): number {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(decoded) && decoded.length === 2 && decoded[0] === 'position') {
      const position = decoded[1] as unknown;
      if (Number.isInteger(position) && (position as number) >= 0 && (position as number) < MAX_COURSE_LESSONS
        && encodePositionCursor({ position: position as number }) === cursor) return position as number;
    }
  } catch {
    // fall through to the 400 below
  }
  throw badInput(field, 'is not a valid cursor');
}
