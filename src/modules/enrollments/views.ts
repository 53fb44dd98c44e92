// Enrollments, completions and course stats as clients see them over REST.
import { z } from 'zod';

/** An enrollment with the learner's progress, as the service answers it. */
export interface EnrollmentRow {
  courseId: string;
  userId: string;
  enrolledAt: Date;
  completedAt: Date | null;
  progress: { completed: number; total: number };
}

export interface CompletionRow {
  lessonId: string;
  userId: string;
  completedAt: Date;
}

export interface CourseStatsRow {
  enrolled: number;
  completed: number;
  lessons: { lessonId: string; completed: number }[];
}

const progressView = z.object({
  completed: z.number().int().describe('How many of the course\'s lessons the learner has completed (whenever)'),
  total: z.number().int().describe('How many lessons the course has now'),
});

export const enrollmentView = z.object({
  courseId: z.string(),
  userId: z.string(),
  enrolledAt: z.iso.datetime().describe('ISO 8601 UTC: the latest time the learner enrolled'),
  completedAt: z.iso.datetime().nullable().describe('ISO 8601 UTC: when the learner completed the course (final); null until then'),
  progress: progressView,
});
export type EnrollmentView = z.infer<typeof enrollmentView>;
export const enrollmentPage = z.object({ items: z.array(enrollmentView), nextCursor: z.string().nullable() });

export const completionView = z.object({
  lessonId: z.string(),
  userId: z.string(),
  completedAt: z.iso.datetime().describe('ISO 8601 UTC: the first completion'),
});

export const courseStatsView = z.object({
  enrolled: z.number().int().describe('Learners enrolled now'),
  completed: z.number().int().describe('Of them, those whose enrollment is completed'),
  completionRate: z.number().min(0).max(1).describe('completed ÷ enrolled; 0 when nobody is enrolled'),
  lessons: z.array(z.object({ lessonId: z.string(), completed: z.number().int().describe('Enrolled learners who completed it') }))
    .describe('The course\'s lessons, in course order'),
});
export type CourseStatsView = z.infer<typeof courseStatsView>;

export const toEnrollmentView = (e: EnrollmentRow): EnrollmentView => ({
  courseId: e.courseId,
  userId: e.userId,
  enrolledAt: e.enrolledAt.toISOString(),
  completedAt: e.completedAt?.toISOString() ?? null,
  progress: { completed: e.progress.completed, total: e.progress.total },
});

export const toCompletionView = (c: CompletionRow) => ({ lessonId: c.lessonId, userId: c.userId, completedAt: c.completedAt.toISOString() });

export const completionRate = (s: { enrolled: number; completed: number }) => (s.enrolled === 0 ? 0 : s.completed / s.enrolled);

export const toCourseStatsView = (s: CourseStatsRow): CourseStatsView => ({
  enrolled: s.enrolled,
  completed: s.completed,
  completionRate: completionRate(s),
  lessons: s.lessons,
});
