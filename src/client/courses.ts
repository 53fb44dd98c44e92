// The client's calls for courses, enrollments and course stats: `client.courses` and
// `client.enrollments` (completing a lesson is `client.lessons.complete`, beside the lessons).
import { paginate, segment } from './paginate.js';
import type { CallOptions, Transport } from './transport.js';
import type {
  Course,
  CoursePage,
  CourseStats,
  CreateCourseInput,
  Enrollment,
  EnrollmentPage,
  EnrollResult,
  PageOptions,
  UpdateCourseInput,
} from './types.js';

const pageQuery = (page: PageOptions) => ({ limit: page.limit, cursor: page.cursor });
const coursePath = (id: string) => `/api/v1/courses/${segment(id)}`;

/** `client.courses`: reading, enrolling in and (ADMIN) managing courses. */
export function courseCalls(transport: Transport) {
  const calls = {
    /** One page of courses, newest first; drafts only for an ADMIN. */
    list: (page: PageOptions = {}, options?: CallOptions): Promise<CoursePage> =>
      transport.rest('GET', '/api/v1/courses', { ...options, query: pageQuery(page) }),
    /** Every course, newest first, fetching pages of `limit` as the loop goes. */
    all: (page: Omit<PageOptions, 'cursor'> = {}, options?: CallOptions): AsyncGenerator<Course, void, undefined> =>
      paginate((cursor) => calls.list({ ...page, cursor }, options)),
    /** One course with its `lessonIds` in course order; NotFoundError when unknown, or a draft to anyone but an ADMIN. */
    get: (id: string, options?: CallOptions): Promise<Course> => transport.rest('GET', coursePath(id), options),
    /** ADMIN: creates a draft course without lessons. */
    create: (input: CreateCourseInput, options?: CallOptions): Promise<Course> =>
      transport.rest('POST', '/api/v1/courses', { ...options, body: input }),
    /** ADMIN: changes title or summary (emits `course.updated` when the course is published). */
    update: (id: string, input: UpdateCourseInput, options?: CallOptions): Promise<Course> =>
      transport.rest('PATCH', coursePath(id), { ...options, body: input }),
    /**
     * ADMIN: sets the course's lessons and their order: 1-500 distinct, existing lessons, only
     * published ones in a published course (ValidationError naming `lessonIds` otherwise).
     */
    setLessons: (id: string, lessonIds: readonly string[], options?: CallOptions): Promise<Course> =>
      transport.rest('PUT', `${coursePath(id)}/lessons`, { ...options, body: { lessonIds } }),
    /** ADMIN: publishes a draft holding at least one lesson, all published (emits `course.published`); ConflictError when already published. */
    publish: (id: string, options?: CallOptions): Promise<Course> => transport.rest('POST', `${coursePath(id)}/publish`, options),
    /**
     * Enrols the caller in a published course. Idempotent: when already enrolled it changes
     * nothing and resolves with the same enrollment and `created: false`. Enrolling again after
     * leaving is a new enrollment (`created: true`, a new `enrolledAt`, `completedAt` kept).
     */
    enroll: async (courseId: string, options?: CallOptions): Promise<EnrollResult> => {
      const { status, body } = await transport.restWithStatus<Enrollment>('PUT', `${coursePath(courseId)}/enrollment`, options);
      return { enrollment: body, created: status === 201 };
    },
    /** The caller leaves a course; their lesson completions stay. NotFoundError when not enrolled. */
    leave: async (courseId: string, options?: CallOptions): Promise<void> => {
      await transport.rest('DELETE', `${coursePath(courseId)}/enrollment`, options);
    },
    /** ADMIN: one page of a course's enrollments with progress, newest first. */
    enrollments: (courseId: string, page: PageOptions = {}, options?: CallOptions): Promise<EnrollmentPage> =>
      transport.rest('GET', `${coursePath(courseId)}/enrollments`, { ...options, query: pageQuery(page) }),
    /** ADMIN: enrolled learners, completions, completion rate (0 to 1) and each lesson's completions, in course order. */
    stats: (courseId: string, options?: CallOptions): Promise<CourseStats> => transport.rest('GET', `${coursePath(courseId)}/stats`, options),
  };
  return calls;
}

/** `client.enrollments`: the caller's own enrollments. */
export function enrollmentCalls(transport: Transport) {
  const calls = {
    /** One page of the caller's enrollments with progress (`{completed, total}`) and `completedAt`, newest first. */
    list: (page: PageOptions = {}, options?: CallOptions): Promise<EnrollmentPage> =>
      transport.rest('GET', '/api/v1/enrollments', { ...options, query: pageQuery(page) }),
    /** Every enrollment of the caller, newest first, fetching pages of `limit` as the loop goes. */
    all: (page: Omit<PageOptions, 'cursor'> = {}, options?: CallOptions): AsyncGenerator<Enrollment, void, undefined> =>
      paginate((cursor) => calls.list({ ...page, cursor }, options)),
  };
  return calls;
}

export type CourseCalls = ReturnType<typeof courseCalls>;
export type EnrollmentCalls = ReturnType<typeof enrollmentCalls>;
