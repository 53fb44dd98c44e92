// The demo course: the seeded lesson series as a published course, and two demo learners in it,
// one part-way through and one who has completed it. Their history is replayed by the rules of
// src/modules/enrollments/progress.ts (a learner's completions count whenever they happened; an
// enrollment of a published course completes when its learner has every lesson), so the counters,
// `completedAt` and the events are what the service would have written had the learners done it
// over the API at those times. The events go to the outbox at their own times (the console's live
// feed, its completion chart and the event list read them), within EVENT_RETENTION_DAYS' default.
import type { Prisma } from '../generated/prisma/client.js';
import { newId } from '../ids.js';
import { ownedBy } from '../modules/events/audience.js';
import { recordEvent, type RecordedEvent } from '../modules/events/outbox.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Learner = 'grace' | 'alan';

/**
 * What the learners did, oldest first, as time before the seed: Alan read the first three parts
 * as they came out, enrolled once the course was published and finished it; Grace read the first
 * part, then enrolled. The course is published half an hour after its last lesson, a day ago.
 */
const HISTORY: ({ who: Learner; ago: number } & ({ lesson: number } | { enrols: true }))[] = [
  { who: 'alan', lesson: 0, ago: 6 * DAY },
  { who: 'alan', lesson: 1, ago: 5 * DAY + 3 * HOUR },
  { who: 'alan', lesson: 2, ago: 3 * DAY },
  { who: 'grace', lesson: 0, ago: 2 * DAY + 5 * HOUR },
  { who: 'alan', enrols: true, ago: 22 * HOUR },
  { who: 'alan', lesson: 3, ago: 20 * HOUR },
  { who: 'grace', enrols: true, ago: 18 * HOUR },
];

export interface DemoCourseInput {
  authorId: string;
  title: string;
  summary: string;
  /** The series, in course order, each published. */
  lessons: { id: string; publishedAt: Date }[];
  learners: Record<Learner, string>;
  now: number;
}

/** Writes the course, its enrollments, completions and counters, and their events, in `tx`. */
export async function seedDemoCourse(tx: Prisma.TransactionClient, { authorId, title, summary, lessons, learners, now }: DemoCourseInput): Promise<void> {
  const courseId = newId('crs');
  const publishedAt = Math.max(...lessons.map((l) => l.publishedAt.getTime())) + 30 * MINUTE;
  const events: { at: number; record: () => Promise<RecordedEvent> }[] = [
    { at: publishedAt, record: () => recordEvent(tx, 'course.published', { courseId }) },
  ];
  const done = new Map<string, Set<number>>();
  const enrollments = new Map<string, { enrolledAt: Date; completedAt: Date | null }>();
  const completions: { userId: string; lessonId: string; completedAt: Date }[] = [];

  /** An enrolled learner who now has every lesson completes the course, once. */
  const completeIfDone = (userId: string, at: number) => {
    const enrollment = enrollments.get(userId);
    if (!enrollment || enrollment.completedAt || done.get(userId)?.size !== lessons.length) return;
    enrollment.completedAt = new Date(at);
    events.push({ at, record: () => recordEvent(tx, 'course.completed', { courseId, userId }, ownedBy(userId)) });
  };
  for (const step of HISTORY) {
    const userId = learners[step.who];
    const at = now - step.ago;
    if ('lesson' in step) {
      const lessonId = lessons[step.lesson]!.id;
      done.set(userId, (done.get(userId) ?? new Set()).add(step.lesson));
      completions.push({ userId, lessonId, completedAt: new Date(at) });
      events.push({ at, record: () => recordEvent(tx, 'lesson.completed', { lessonId, userId }, ownedBy(userId)) });
    } else {
      // Only a published course takes enrollments.
      if (at < publishedAt) throw new Error(`seed: ${step.who} enrols before the course is published`);
      enrollments.set(userId, { enrolledAt: new Date(at), completedAt: null });
      events.push({ at, record: () => recordEvent(tx, 'enrollment.created', { courseId, userId }, ownedBy(userId)) });
    }
    completeIfDone(userId, at);
  }

  // The counters, as the service keeps them: a lesson's `completed` counts the enrolled learners
  // who completed it; the course's, its enrolled learners and those whose enrollment is completed.
  const enrolled = [...enrollments.keys()];
  await tx.course.create({
    data: {
      id: courseId, title, summary, status: 'PUBLISHED', authorId,
      createdAt: new Date(publishedAt - 2 * HOUR), publishedAt: new Date(publishedAt), updatedAt: new Date(publishedAt),
      stats: { create: { enrolled: enrolled.length, completed: [...enrollments.values()].filter((e) => e.completedAt).length } },
    },
  });
  await tx.courseLesson.createMany({
    data: lessons.map((l, position) => ({
      courseId, lessonId: l.id, position, completed: enrolled.filter((u) => done.get(u)?.has(position)).length,
    })),
  });
  await tx.enrollment.createMany({ data: [...enrollments].map(([userId, e]) => ({ courseId, userId, ...e })) });
  await tx.lessonCompletion.createMany({ data: completions });

  // Recorded in time order, so their ids, and so their positions, follow it; then dated.
  for (const { at, record } of events.sort((a, b) => a.at - b.at)) {
    const { id, payload } = await record();
    const timestamp = new Date(at);
    await tx.event.update({ where: { id }, data: { createdAt: timestamp, payload: { ...payload, timestamp: timestamp.toISOString() } } });
  }
}
