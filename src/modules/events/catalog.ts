// The event-type catalogue: every event name, what it means, and its payload, defined once with
// zod. The payload types, the JSON Schemas (2020-12) served at GET /api/v1/event-types, the
// `webhooks` of openapi.json and the messages of asyncapi.json all come from these definitions,
// so what is documented cannot drift from what is validated.
import { z } from 'zod';

/** Every event name, in the order the catalogue lists them. */
export const EVENT_NAMES = [
  'user.created', 'user.updated', 'lesson.published', 'lesson.updated', 'analytics.hit',
  'course.published', 'course.updated', 'enrollment.created', 'lesson.completed', 'course.completed',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** The ping `POST /api/v1/webhooks/{id}/test` sends: webhooks only, never subscriptions or the event list. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

const timestamp = z.iso.datetime({ precision: 3 }).describe('When the event happened: ISO 8601 UTC with milliseconds and Z');
/** Ids are a type prefix and a lower-case ULID (src/ids.ts). */
const idOf = (prefix: 'usr' | 'les' | 'crs', what: string) =>
  z.string().regex(new RegExp(`^${prefix}_[0-9a-z]{26}$`), `must be a ${what} id`).describe(`The ${what} id (\`${prefix}_…\`)`);
const userId = idOf('usr', 'user');
const lessonId = idOf('les', 'lesson');
const courseId = idOf('crs', 'course');
// As POST /api/analytics/views accepts it (modules/analytics/service.ts).
const path = z.string().min(1).max(2048).regex(/^\//).describe('The page path that was viewed, e.g. /docs/lessons');

const payload = <N extends string, S extends z.ZodRawShape>(event: N, shape: S, description: string) =>
  z.strictObject({ event: z.literal(event).describe('The event name'), timestamp, ...shape }).describe(description);

/** Each event's payload: the flat JSON object webhooks POST and subscriptions and the event list carry. */
export const eventPayloads = {
  'user.created': payload('user.created', { userId }, 'A user registered (POST /api/auth/register, Mutation.register).'),
  'user.updated': payload('user.updated', { userId }, 'A user changed their profile (PATCH /api/v1/user/me, Mutation.updateMe).'),
  'lesson.published': payload('lesson.published', { lessonId }, 'A draft lesson was published (POST /api/v1/lessons/publish, Mutation.publishLesson).'),
  'lesson.updated': payload('lesson.updated', { lessonId }, 'A lesson was changed (PATCH /api/v1/lessons, Mutation.updateLesson).'),
  'analytics.hit': payload('analytics.hit', { path }, 'A page view was recorded (POST /api/analytics/views, Mutation.recordPageView).'),
  'course.published': payload('course.published', { courseId }, 'A draft course was published (POST /api/v1/courses/{id}/publish, Mutation.publishCourse).'),
  'course.updated': payload('course.updated', { courseId }, 'A published course was changed: its title, summary or lessons (PATCH /api/v1/courses/{id}, PUT /api/v1/courses/{id}/lessons, Mutation.updateCourse, Mutation.setCourseLessons).'),
  'enrollment.created': payload('enrollment.created', { courseId, userId }, 'A learner enrolled in a course for the first time (PUT /api/v1/courses/{id}/enrollment, Mutation.enroll). Seen by ADMINs and that learner.'),
  'lesson.completed': payload('lesson.completed', { lessonId, userId }, 'A learner completed a lesson for the first time (POST /api/v1/lessons/complete, Mutation.completeLesson). Seen by ADMINs and that learner.'),
  'course.completed': payload('course.completed', { courseId, userId }, 'A learner enrolled in a course completed its last lesson; once per learner and course, ever. Seen by ADMINs and that learner.'),
} as const satisfies Record<EventName, z.ZodType>;

/** The `webhook.test` ping's payload. */
export const webhookTestPayload = payload(
  WEBHOOK_TEST_EVENT,
  {},
  'A test ping to one webhook endpoint (POST /api/v1/webhooks/{id}/test). Sent to webhooks only, never to subscriptions.',
);

export type EventPayloadOf<N extends EventName> = z.output<(typeof eventPayloads)[N]>;

export type JsonSchema = Record<string, unknown>;

export interface EventTypeEntry {
  name: EventName | typeof WEBHOOK_TEST_EVENT;
  description: string;
  /** The payload's JSON Schema (2020-12). */
  schema: JsonSchema;
}

const entry = (name: EventTypeEntry['name'], schema: z.ZodType): EventTypeEntry => ({
  name,
  description: schema.description ?? name,
  schema: z.toJSONSchema(schema, { target: 'draft-2020-12' }) as JsonSchema,
});

/** The events subscribers and the event list see, with their payload schemas. */
export const EVENT_CATALOG: readonly EventTypeEntry[] = Object.freeze(EVENT_NAMES.map((name) => entry(name, eventPayloads[name])));

/** What webhook endpoints may receive: every event, plus the `webhook.test` ping. */
export const WEBHOOK_CATALOG: readonly EventTypeEntry[] = Object.freeze([...EVENT_CATALOG, entry(WEBHOOK_TEST_EVENT, webhookTestPayload)]);

export const isEventName = (name: string): name is EventName => (EVENT_NAMES as readonly string[]).includes(name);

/** The Standard Webhooks headers every delivery carries (a JSON Schema per header). */
export const WEBHOOK_HEADERS: Readonly<Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', { description: string; schema: JsonSchema }>> = {
  'webhook-id': {
    description: 'The event id (`evt_…`), the same id the event list and subscriptions show: de-duplicate with it (deliveries are at least once)',
    schema: { type: 'string', pattern: '^evt_[0-9a-z]{26}$' },
  },
  'webhook-timestamp': {
    description: 'When this attempt was signed, in unix seconds',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  'webhook-signature': {
    description:
      'Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` signatures (Standard Webhooks): one per secret in use, the newest first (two for 24 hours after a secret rotation). Any one that verifies makes the delivery authentic',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$' },
  },
};
