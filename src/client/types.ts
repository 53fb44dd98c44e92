// The REST shapes, written out by hand from the contract rather than imported from the server's
// zod schemas: the client must not pull server code (Prisma, pino, config) into its users'
// programs. test/client.test.ts checks at type-check time that each interface equals the type
// of the schema the server validates its responses with, so the two cannot drift apart.
// Times stay the ISO 8601 strings the API sends (UTC); `joined` is `YYYY-MM-DD`.

export type Role = 'ADMIN' | 'MEMBER';
export type Tier = 'FREE' | 'PRO' | 'ENTERPRISE';

/** A user's public data (`GET /api/users/{id}`). */
export interface PublicUser {
  id: string;
  name: string;
  joined: string;
}

/** The current user (`GET /api/v1/user/me`). */
export interface CurrentUser extends PublicUser {
  email: string;
  role: Role;
  tier: Tier;
}

export interface UpdateMeInput {
  name: string;
}

export type LessonStatus = 'DRAFT' | 'PUBLISHED';

export interface Lesson {
  id: string;
  title: string;
  summary: string | null;
  body: string;
  status: LessonStatus;
  authorId: string;
  createdAt: string;
  /** null for a draft */
  publishedAt: string | null;
  updatedAt: string;
}

export interface CreateLessonInput {
  title: string;
  summary?: string | null;
  body: string;
}

export interface UpdateLessonInput {
  title?: string;
  summary?: string | null;
  body?: string;
}

/** One page of a list, newest first; pass `nextCursor` as `cursor` for the next one (null on the last page). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface PageOptions {
  /** 1-100 (default 20) */
  limit?: number;
  /** `nextCursor` of the previous page */
  cursor?: string;
}

/** A documentation page. */
export interface Doc {
  id: string;
  slug: string;
  title: string;
  url: string;
  updatedAt: string;
}

export interface PageViewFilter {
  path?: string;
  /** Inclusive: an ISO 8601 date (`YYYY-MM-DD`) or UTC date-time, or a Date. */
  from?: string | Date;
  /** Exclusive: an ISO 8601 date (`YYYY-MM-DD`) or UTC date-time, or a Date. */
  to?: string | Date;
}

export type EventType = 'user.created' | 'user.updated' | 'lesson.published' | 'lesson.updated' | 'analytics.hit';

/** The field each event type's payload names its subject with. */
interface EventSubjects {
  'user.created': { userId: string };
  'user.updated': { userId: string };
  'lesson.published': { lessonId: string };
  'lesson.updated': { lessonId: string };
  'analytics.hit': { path: string };
}

/** A stored event (`listEvents`): its `evt_…` id, then its payload's fields (and no others). */
export type StoredEvent = { [E in EventType]: Flat<{ id: string; event: E; timestamp: string } & EventSubjects[E]> }[EventType];

/** One object type instead of an intersection (as editors show it). */
type Flat<T> = { [K in keyof T]: T[K] };

export interface EventListOptions {
  /** Only these events (none: all). */
  types?: EventType[];
  /** Only the events after this event id, in commit order: the previous page's `nextCursor`, or the last id seen. */
  after?: string;
  /** Only events whose timestamp is at or after this instant (an ISO 8601 date or UTC date-time, or a Date). */
  since?: string | Date;
  /** 1-1000 (default 100) */
  limit?: number;
}

/** One entry of the event-type catalogue (`eventTypes()`). */
export interface EventTypeInfo {
  name: EventType;
  description: string;
  /** The JSON Schema (2020-12) of the payload. */
  schema: Record<string, unknown>;
}

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  /** Why the endpoint is disabled (e.g. the receiver answered 410 Gone); null when enabled. */
  disabledReason: string | null;
  /** The last delivery the receiver answered with a 2xx; null if none yet. */
  lastSuccessAt: string | null;
  /** The first failed attempt since the last success; null while healthy. */
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A new webhook endpoint, with the signing secret shown only in this response. */
export interface CreatedWebhook extends Webhook {
  /** `whsec_…`: the Standard Webhooks secret; pass it to verifyWebhook. */
  secret: string;
}

export interface CreateWebhookInput {
  url: string;
  events: EventType[];
  description?: string | null;
}

export interface UpdateWebhookInput {
  url?: string;
  events?: EventType[];
  /** null clears it */
  description?: string | null;
  /** true re-enables a disabled endpoint and clears disabledReason and failingSince */
  enabled?: boolean;
}

export interface WebhookAttempt {
  at: string;
  /** null when no response came */
  statusCode: number | null;
  durationMs: number;
  /** null on success */
  error: string | null;
}

export type WebhookDeliveryStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

export interface WebhookDelivery {
  id: string;
  /** The event id, sent as `webhook-id`. */
  eventId: string;
  event: string;
  status: WebhookDeliveryStatus;
  /** Oldest first. */
  attempts: WebhookAttempt[];
  /** null once SUCCEEDED or FAILED */
  nextAttemptAt: string | null;
  createdAt: string;
}

/** An API key as listed (without the key). */
export interface ApiKey {
  id: string;
  name: string;
  /** The first 8 characters after `lp_`, to tell keys apart. */
  prefix: string;
  createdAt: string;
  /** Updated at most once a minute; null when never used. */
  lastUsedAt: string | null;
}

/** A new API key, with the key itself shown only in this response. */
export interface CreatedApiKey {
  id: string;
  name: string;
  /** `lp_…` */
  key: string;
  createdAt: string;
}

export interface TokenPair {
  /** The access token (JWT), for `new LearningClient({ token })`. */
  token: string;
  /** Lifetime of `token` in seconds. */
  expiresIn: number;
  refreshToken: string;
  /** Lifetime of `refreshToken` in seconds. */
  refreshExpiresIn: number;
}

export interface LoginInput {
  email: string;
  password: string;
}

export interface RegisterInput {
  email: string;
  /** 8-256 characters */
  password: string;
  name: string;
}

export interface Registration extends TokenPair {
  user: CurrentUser;
}

/** A live event (`client.events()`): `id` is the same `evt_…` id webhooks send as `webhook-id`. */
export interface LearningEvent {
  id: string;
  event: EventType;
  /** ISO 8601 UTC with milliseconds. */
  timestamp: string;
  /** Set for lesson.* events. */
  lessonId: string | null;
  /** Set for user.* events. */
  userId: string | null;
  /** Set for analytics.hit. */
  path: string | null;
}

/** A verified webhook: its `webhook-id` as `id`, then the payload's fields. */
export type WebhookEvent = { id: string; timestamp: string } & (
  | { event: 'lesson.published' | 'lesson.updated'; lessonId: string }
  | { event: 'user.created' | 'user.updated'; userId: string }
  | { event: 'analytics.hit'; path: string }
  | { event: 'webhook.test' }
);
