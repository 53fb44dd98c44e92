// What the Courses view reads, all through the client library: the courses
// (`client.courses.list`, GET /api/v1/courses, drafts too for an ADMIN), a course's stats
// (`client.courses.stats`, GET /api/v1/courses/{id}/stats) and completions over time from the
// stored `course.completed` events (GET /api/v1/events). The table's stats for a page of courses
// are asked in ONE GraphQL request (`courseStats`, the twin of the stats route, one alias per
// course, 20 under the 50-alias limit): a page then costs two requests of the rate-limit budget
// however many courses it shows, not one per course.
import type { Course, CourseStats, LearningClient, TypedDocument } from '../client/index.js';
import { bucketStarts, DAY, type Series } from './chart.js';

/** Courses per page of the list (and stats aliases per request). */
export const COURSES_PAGE = 20;

export type Stats = Pick<CourseStats, 'enrolled' | 'completed' | 'completionRate'>;

export interface CoursePage {
  items: { course: Course; stats: Stats }[];
  nextCursor: string | null;
}

const doc = <R, V>(text: string): TypedDocument<R, V> => ({ toString: () => text });

/** A page of courses, newest first (drafts too: the console is an ADMIN's), each with its stats. */
export async function coursePage(client: LearningClient, cursor?: string): Promise<CoursePage> {
  const page = await client.courses.list({ limit: COURSES_PAGE, cursor });
  const stats = await statsOf(client, page.items.map((c) => c.id));
  return { items: page.items.map((course, i) => ({ course, stats: stats[i]! })), nextCursor: page.nextCursor };
}

/** The stats of each course, in one request. */
async function statsOf(client: LearningClient, ids: string[]): Promise<Stats[]> {
  if (!ids.length) return [];
  const variables: Record<string, string> = {};
  const fields = ids.map((id, i) => {
    variables[`c${i}`] = id;
    return `s${i}: courseStats(id: $c${i}) { enrolled completed completionRate }`;
  });
  const text = `query ConsoleCourseStats(${ids.map((_, i) => `$c${i}: ID!`).join(', ')}) { ${fields.join(' ')} }`;
  const data = await client.query(doc<Record<string, Stats>, Record<string, string>>(text), variables);
  return ids.map((_, i) => data[`s${i}`] ?? { enrolled: 0, completed: 0, completionRate: 0 });
}

export interface LessonStats {
  lessonId: string;
  /** null when the lesson is past the titles read (a course holds up to 500 lessons). */
  title: string | null;
  completed: number;
}

/** A course's stats with its lessons in course order, each with its title and completed count. */
export async function courseDetail(client: LearningClient, id: string): Promise<{ stats: Stats; lessons: LessonStats[] }> {
  const [{ lessons, ...stats }, titles] = await Promise.all([client.courses.stats(id), lessonTitles(client, id)]);
  return { stats, lessons: lessons.map((l) => ({ ...l, title: titles.get(l.lessonId) ?? null })) };
}

/** The titles of a course's lessons (GraphQL `Course.lessons`, 100 a page: five at most for 500 lessons). */
async function lessonTitles(client: LearningClient, id: string): Promise<Map<string, string>> {
  const titles = new Map<string, string>();
  let after: string | undefined;
  do {
    const { lessons } = await client.graphql.course(id, { first: 100, ...(after ? { after } : {}) });
    for (const { node } of lessons.edges) titles.set(node.id, node.title);
    after = lessons.pageInfo.hasNextPage ? (lessons.pageInfo.endCursor ?? undefined) : undefined;
  } while (after);
  return titles;
}

/** The completion chart's range: the last 30 days, by UTC day, today last. */
export const COMPLETION_RANGE = { buckets: 30, step: DAY, label: 'last 30 days' };
const EVENTS_PAGE = 1000;
/** The most event pages one chart reads; past it the chart says it is partial. */
const MAX_PAGES = 20;

/**
 * The course's completions per UTC day over COMPLETION_RANGE, counted from its `course.completed`
 * events (read from the range's first day on, page after page). `partial` when there were more
 * pages of completions (of every course) than a chart reads.
 */
export async function completionSeries(client: LearningClient, courseId: string, now = Date.now()): Promise<{ series: Series; partial: boolean }> {
  const starts = bucketStarts(COMPLETION_RANGE, now);
  const counts = starts.map(() => 0);
  const since = new Date(starts[0]!);
  let after: string | undefined;
  let pages = 0;
  do {
    const page = await client.listEvents({ types: ['course.completed'], since, after, limit: EVENTS_PAGE });
    for (const event of page.items) {
      if (event.event !== 'course.completed' || event.courseId !== courseId) continue;
      const bucket = Math.floor((Date.parse(event.timestamp) - starts[0]!) / DAY);
      if (bucket >= 0 && bucket < counts.length) counts[bucket]! += 1;
    }
    after = page.nextCursor ?? undefined;
  } while (after && ++pages < MAX_PAGES);
  return { series: { starts, counts }, partial: after !== undefined };
}
