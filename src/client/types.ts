// The REST shapes, named from ./generated/openapi.ts, which is generated from the OpenAPI document
// built from the server's zod schemas: they cannot drift from the server, and the client imports
// nothing of it. Only the options of the client's own calls are written by hand (they take numbers
// and Dates). Times are the ISO 8601 UTC strings the API sends; `joined` is `YYYY-MM-DD`.
import type { operations, webhooks } from './generated/openapi.js';

/** The operations of the REST API, by `operationId` (as openapi.json names them). */
export type RestOperationId = keyof operations;

/**
 * The JSON body of an operation's response with this status, e.g.
 * `RestResponse<'getMe', 200>` is the current user.
 */
export type RestResponse<Op extends RestOperationId, Status extends keyof operations[Op]['responses']> =
  operations[Op]['responses'][Status] extends { content: { 'application/json': infer Body } } ? Body : never;

/** The JSON request body of an operation, e.g. `RestRequestBody<'createLesson'>`. */
export type RestRequestBody<Op extends RestOperationId> =
  NonNullable<operations[Op]['requestBody']> extends { content: { 'application/json': infer Body } } ? Body : never;

/** The current user (`GET /api/v1/user/me`). */
export type CurrentUser = RestResponse<'getMe', 200>;

/** A user's public data (`GET /api/users/{id}`). */
export type PublicUser = RestResponse<'getUser', 200>;

export type Role = CurrentUser['role'];
export type Tier = CurrentUser['tier'];

export type UpdateMeInput = RestRequestBody<'updateMe'>;

export type Lesson = RestResponse<'createLesson', 201>;
export type LessonStatus = Lesson['status'];

/** One page of lessons, newest first (`lessons.list`). */
export type LessonPage = Extract<RestResponse<'getLessons', 200>, { items: unknown }>;

export type CreateLessonInput = RestRequestBody<'createLesson'>;
export type UpdateLessonInput = RestRequestBody<'updateLesson'>;

/** A course: its lessons' ids in course order (`courses.get`). */
export type Course = RestResponse<'getCourse', 200>;
export type CourseStatus = Course['status'];

/** One page of courses, newest first (`courses.list`); drafts only for an ADMIN. */
export type CoursePage = RestResponse<'listCourses', 200>;

export type CreateCourseInput = RestRequestBody<'createCourse'>;
export type UpdateCourseInput = RestRequestBody<'updateCourse'>;

/** A learner's enrollment in a course, with their progress (`enrollments.list`, `courses.enroll`). */
export type Enrollment = EnrollmentPage['items'][number];
export type EnrollmentProgress = Enrollment['progress'];

/** One page of enrollments, newest first (`enrollments.list`, `courses.enrollments`). */
export type EnrollmentPage = RestResponse<'getEnrollments', 200>;

/** What `courses.enroll` resolves with: the enrollment, and whether this call enrolled (false: already enrolled, nothing changed). */
export interface EnrollResult {
  enrollment: Enrollment;
  created: boolean;
}

/** A learner's first completion of a lesson (`lessons.complete`). */
export type LessonCompletion = RestResponse<'completeLesson', 200>;

/** A course's enrolled learners, completions, completion rate and per-lesson completions (`courses.stats`). */
export type CourseStats = RestResponse<'getCourseStats', 200>;

/**
 * The shape of every page of a list: pass `nextCursor` as `cursor` (or `after`) for the next one;
 * it is null on the last page. (LessonPage, CoursePage, EnrollmentPage, WebhookDeliveryPage and StoredEventPage have it.)
 */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface PageOptions {
  /** 1-100 (default 20) */
  limit?: number | undefined;
  /** `nextCursor` of the previous page */
  cursor?: string | undefined;
}

/** A documentation page. */
export type Doc = RestResponse<'listDocs', 200>[number];

export interface PageViewFilter {
  path?: string | undefined;
  /** Inclusive: an ISO 8601 date (`YYYY-MM-DD`) or UTC date-time, or a Date. */
  from?: string | Date | undefined;
  /** Exclusive: an ISO 8601 date (`YYYY-MM-DD`) or UTC date-time, or a Date. */
  to?: string | Date | undefined;
}

/** One entry of the event-type catalogue (`eventTypes()`). */
export type EventTypeInfo = RestResponse<'listEventTypes', 200>['items'][number];

export type EventType = EventTypeInfo['name'];

/** One page of stored events, oldest first (`listEvents`). */
export type StoredEventPage = RestResponse<'listEvents', 200>;

/** A stored event (`listEvents`): its `evt_…` id, then its payload's fields (and no others). */
export type StoredEvent = StoredEventPage['items'][number];

export interface EventListOptions {
  /** Only these events (none: all). */
  types?: EventType[] | undefined;
  /** Only the events after this event id, in commit order: the previous page's `nextCursor`, or the last id seen. */
  after?: string | undefined;
  /** Only events whose timestamp is at or after this instant (an ISO 8601 date or UTC date-time, or a Date). */
  since?: string | Date | undefined;
  /** 1-1000 (default 100) */
  limit?: number | undefined;
}

export type Webhook = RestResponse<'getWebhook', 200>;

/** A new webhook endpoint, with the signing secret (`whsec_…`, for verifyWebhook) shown only in this response. */
export type CreatedWebhook = RestResponse<'createWebhook', 201>;

export type CreateWebhookInput = RestRequestBody<'createWebhook'>;
export type UpdateWebhookInput = RestRequestBody<'updateWebhook'>;

/** One page of an endpoint's deliveries, newest first (`webhooks.deliveries`). */
export type WebhookDeliveryPage = RestResponse<'listWebhookDeliveries', 200>;
export type WebhookDelivery = WebhookDeliveryPage['items'][number];
export type WebhookAttempt = WebhookDelivery['attempts'][number];
export type WebhookDeliveryStatus = WebhookDelivery['status'];

/** An API key as listed (without the key). */
export type ApiKey = RestResponse<'listApiKeys', 200>['items'][number];

/** A new API key, with the key itself (`lp_…`) shown only in this response. */
export type CreatedApiKey = RestResponse<'createApiKey', 201>;

/** A live session (login) of the current user; `current` marks the one of the token used. */
export type Session = RestResponse<'listSessions', 200>['items'][number];

/** An access token (for `new LearningClient({ token })`) and a refresh token, with their lifetimes in seconds. */
export type TokenPair = RestResponse<'login', 200>;

export type LoginInput = RestRequestBody<'login'>;
export type RegisterInput = RestRequestBody<'register'>;
export type Registration = RestResponse<'register', 201>;

/** A live event (`client.events()`): `id` is the same `evt_…` id webhooks send as `webhook-id`. */
export interface LearningEvent {
  id: string;
  event: EventType;
  /** ISO 8601 UTC with milliseconds. */
  timestamp: string;
  /** Set for lesson.* events. */
  lessonId: string | null;
  /** Set for user.* events, and for enrollment.created, lesson.completed and course.completed (the learner). */
  userId: string | null;
  /** Set for course.* events and enrollment.created. */
  courseId: string | null;
  /** Set for analytics.hit. */
  path: string | null;
}

/** The webhooks the service sends (openapi.json `webhooks`), by event name. */
type WebhookPayloads = { [E in keyof webhooks]: webhooks[E]['post']['requestBody']['content']['application/json'] };

/** A verified webhook: its `webhook-id` as `id`, then the payload's fields. */
export type WebhookEvent = { [E in keyof WebhookPayloads]: Flat<{ id: string } & WebhookPayloads[E]> }[keyof WebhookPayloads];

/** One object type instead of an intersection (as editors show it). */
type Flat<T> = { [K in keyof T]: T[K] };
