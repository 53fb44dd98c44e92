// LearningClient: one typed method per REST route (grouped as the API groups them), typed
// GraphQL operations, the live event stream. Calls resolve with the contract's JSON shapes
// and reject with the typed errors of errors.ts; the retry policy lives in transport.ts.
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import { courseCalls, enrollmentCalls, type CourseCalls, type EnrollmentCalls } from './courses.js';
import {
  CourseDocument,
  CoursesDocument,
  DocsDocument,
  LessonDocument,
  LessonsDocument,
  MeDocument,
  PageViewsDocument,
  UserDocument,
} from './documents.js';
import { EventStream, type EventStreamOptions } from './events.js';
import type { CourseQuery, CoursesQuery, LessonQuery, LessonsQuery, MeQuery, UserQuery, DocsQuery } from './generated/graphql.js';
import { paginate, segment as path } from './paginate.js';
import { Transport, type CallOptions, type TransportOptions } from './transport.js';
import { webhookEndpointCalls, type WebhookEndpointCalls } from './webhook-endpoints.js';
import type {
  ApiKey,
  CreatedApiKey,
  Session,
  CreateLessonInput,
  CurrentUser,
  Doc,
  EventListOptions,
  EventTypeInfo,
  Lesson,
  LessonCompletion,
  LessonPage,
  LoginInput,
  PageOptions,
  PageViewFilter,
  PublicUser,
  Registration,
  RegisterInput,
  RestResponse,
  StoredEvent,
  StoredEventPage,
  TokenPair,
  UpdateLessonInput,
  UpdateMeInput,
} from './types.js';

/** How to reach the API and how to behave (see TransportOptions). */
export type LearningClientOptions = TransportOptions;

/** Any typed GraphQL document: those of this library, or one made with the generated `graphql()`. */
export type TypedDocument<TResult, TVariables> = DocumentTypeDecoration<TResult, TVariables> & { toString(): string };

/** Variables may be left out when the operation has none or all are optional. */
type VariablesArgs<TVariables> = Record<string, never> extends TVariables
  ? [variables?: TVariables, options?: CallOptions]
  : [variables: TVariables, options?: CallOptions];

/** The public data of a GraphQL lesson connection page. */
export type LessonConnection = LessonsQuery['lessons'];
/** The public data of a GraphQL course connection page. */
export type CourseConnection = CoursesQuery['courses'];

/** A cursor-paginated GraphQL page: `first` (1-100, default 20) after the cursor `after`. */
type ConnectionPage = { first?: number | undefined; after?: string | undefined };

/** The typed client of the Learnstream API. */
export class LearningClient {
  private readonly transport: Transport;

  /**
   * @example
   * const client = new LearningClient({ baseUrl: 'http://127.0.0.1:4000', apiKey: process.env.LEARNSTREAM_API_KEY });
   * const me = await client.me();
   */
  constructor(options: LearningClientOptions) {
    this.transport = new Transport(options);
    this.courses = courseCalls(this.transport);
    this.enrollments = enrollmentCalls(this.transport);
    this.webhooks = webhookEndpointCalls(this.transport);
  }

  /** The base URL requests go to. */
  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** The current user of the key or token: `{id, name, email, joined, role, tier}`. */
  me(options?: CallOptions): Promise<CurrentUser> {
    return this.transport.rest('GET', '/api/v1/user/me', options);
  }

  /** Renames the current user (emits `user.updated`). */
  updateMe(input: UpdateMeInput, options?: CallOptions): Promise<CurrentUser> {
    return this.transport.rest('PATCH', '/api/v1/user/me', { ...options, body: input });
  }

  /** Sign-in, registration and sessions. These need no key or token. */
  readonly auth = {
    /** Signs in with e-mail and password; 401 AuthenticationError when either is wrong. */
    login: (input: LoginInput, options?: CallOptions): Promise<TokenPair> =>
      this.transport.rest('POST', '/api/auth/login', { ...options, body: input }),
    /** Creates an account (MEMBER, FREE) and signs in; 409 ConflictError when the e-mail is taken. */
    register: (input: RegisterInput, options?: CallOptions): Promise<Registration> =>
      this.transport.rest('POST', '/api/auth/register', { ...options, body: input }),
    /** Exchanges a refresh token for a new pair; presenting the old one again within 10 s of its first use gets another pair, later it ends the session. */
    refresh: (refreshToken: string, options?: CallOptions): Promise<TokenPair> =>
      this.transport.rest('POST', '/api/auth/refresh', { ...options, body: { refreshToken } }),
    /** Ends the session of a refresh token, and its access tokens with it. */
    logout: async (refreshToken: string, options?: CallOptions): Promise<void> => {
      await this.transport.rest('POST', '/api/auth/logout', { ...options, body: { refreshToken } });
    },
  };

  readonly users = {
    /** A user's public data `{id, name, joined}`; NotFoundError when unknown. */
    get: (id: string, options?: CallOptions): Promise<PublicUser> => this.transport.rest('GET', `/api/users/${path(id)}`, options),
  };

  readonly lessons = {
    /** One lesson; NotFoundError when unknown, or a draft the caller may not see. */
    get: (id: string, options?: CallOptions): Promise<Lesson> => this.transport.rest('GET', '/api/v1/lessons', { ...options, query: { id } }),
    /** One page of lessons, newest first. */
    list: (page: PageOptions = {}, options?: CallOptions): Promise<LessonPage> =>
      this.transport.rest('GET', '/api/v1/lessons', { ...options, query: { limit: page.limit, cursor: page.cursor } }),
    /** Every lesson, newest first, fetching pages of `limit` as the loop goes. */
    all: (page: Omit<PageOptions, 'cursor'> = {}, options?: CallOptions): AsyncGenerator<Lesson, void, undefined> =>
      paginate((cursor) => this.lessons.list({ ...page, cursor }, options)),
    /** ADMIN: creates a draft. */
    create: (input: CreateLessonInput, options?: CallOptions): Promise<Lesson> =>
      this.transport.rest('POST', '/api/v1/lessons', { ...options, body: input }),
    /** ADMIN: changes a lesson (emits `lesson.updated`). */
    update: (id: string, input: UpdateLessonInput, options?: CallOptions): Promise<Lesson> =>
      this.transport.rest('PATCH', '/api/v1/lessons', { ...options, query: { id }, body: input }),
    /** ADMIN: publishes a draft (emits `lesson.published`); ConflictError when already published. */
    publish: (id: string, options?: CallOptions): Promise<Lesson> =>
      this.transport.rest('POST', '/api/v1/lessons/publish', { ...options, query: { id } }),
    /**
     * The caller completes a published lesson (emits `lesson.completed` once, and `course.completed`
     * for each enrolled course it completes). Idempotent: again, the first `completedAt`.
     */
    complete: (id: string, options?: CallOptions): Promise<LessonCompletion> =>
      this.transport.rest('POST', '/api/v1/lessons/complete', { ...options, query: { id } }),
  };

  /** Courses: list, get, enrol and leave; for an ADMIN also create, update, setLessons, publish, enrollments, stats. */
  readonly courses: CourseCalls;

  /** The caller's enrollments with their progress. */
  readonly enrollments: EnrollmentCalls;

  readonly docs = {
    /** Every documentation page. */
    list: (options?: CallOptions): Promise<Doc[]> => this.transport.rest('GET', '/api/content/docs', options),
  };

  readonly analytics = {
    /** Records one page view (emits `analytics.hit`). */
    recordPageView: async (pagePath: string, options?: CallOptions): Promise<void> => {
      await this.transport.rest('POST', '/api/analytics/views', { ...options, body: { path: pagePath } });
    },
    /** The total page views of the deployment, optionally for one path and within [from, to). */
    getPageViews: async (filter: PageViewFilter = {}, options?: CallOptions): Promise<number> => {
      const { total } = await this.transport.rest<RestResponse<'getPageViews', 200>>('GET', '/api/analytics/views', {
        ...options,
        query: { path: filter.path, from: filter.from, to: filter.to },
      });
      return total;
    },
  };

  /** ADMIN: webhook endpoints and their deliveries. */
  readonly webhooks: WebhookEndpointCalls;

  /** The current user's API keys. */
  readonly apiKeys = {
    /** Creates a key; the result holds the key itself (`lp_…`), shown only here. */
    create: (name: string, options?: CallOptions): Promise<CreatedApiKey> =>
      this.transport.rest('POST', '/api/v1/api-keys', { ...options, body: { name } }),
    /** The keys that are not revoked, newest first (without the keys). */
    list: async (options?: CallOptions): Promise<ApiKey[]> =>
      (await this.transport.rest<RestResponse<'listApiKeys', 200>>('GET', '/api/v1/api-keys', options)).items,
    /** One key (without the key itself); revoked or someone else's: 404. */
    get: (id: string, options?: CallOptions): Promise<ApiKey> =>
      this.transport.rest<RestResponse<'getApiKey', 200>>('GET', `/api/v1/api-keys/${path(id)}`, options),
    /** Revokes a key: it stops working at once. */
    revoke: async (id: string, options?: CallOptions): Promise<void> => {
      await this.transport.rest('DELETE', `/api/v1/api-keys/${path(id)}`, options);
    },
  };

  /** The current user's sessions (logins). */
  readonly sessions = {
    /** The live sessions, newest first; `current` marks the one of this client's token. */
    list: async (options?: CallOptions): Promise<Session[]> =>
      (await this.transport.rest<RestResponse<'listSessions', 200>>('GET', '/api/v1/sessions', options)).items,
    /** One of the caller's live sessions; ended or someone else's: 404. */
    get: (id: string, options?: CallOptions): Promise<Session> =>
      this.transport.rest<RestResponse<'getSession', 200>>('GET', `/api/v1/sessions/${path(id)}`, options),
    /** Ends a session: its access and refresh tokens stop working at once. */
    revoke: async (id: string, options?: CallOptions): Promise<void> => {
      await this.transport.rest('DELETE', `/api/v1/sessions/${path(id)}`, options);
    },
  };

  /**
   * Runs a GraphQL query or mutation and resolves with its typed `data`; rejects with a
   * LearningApiError (code: `extensions.code`) when the response has errors.
   *
   * @example
   * const { lesson } = await client.query(LessonDocument, { id });
   */
  query<TResult, TVariables>(document: TypedDocument<TResult, TVariables>, ...[variables, options]: VariablesArgs<TVariables>): Promise<TResult> {
    return this.transport.graphql<TResult>(document.toString(), variables as Record<string, unknown> | undefined, options);
  }

  /** Typed GraphQL operations (the documents in documents.ts). Not-found is a NotFoundError, as over REST. */
  readonly graphql = {
    me: async (options?: CallOptions): Promise<MeQuery['me']> => (await this.query(MeDocument, {}, options)).me,
    user: async (id: string, options?: CallOptions): Promise<NonNullable<UserQuery['user']>> =>
      nonNull((await this.query(UserDocument, { id }, options)).user),
    lesson: async (id: string, options?: CallOptions): Promise<NonNullable<LessonQuery['lesson']>> =>
      nonNull((await this.query(LessonDocument, { id }, options)).lesson),
    /** A page of the lessons connection, newest first: `first` (1-100, default 20) after the cursor `after`. */
    lessons: async (page: ConnectionPage = {}, options?: CallOptions): Promise<LessonConnection> =>
      (await this.query(LessonsDocument, page, options)).lessons,
    /** A course with its author, the first page of its lessons (with the caller's completion) and the caller's enrollment. */
    course: async (id: string, lessons: ConnectionPage = {}, options?: CallOptions): Promise<NonNullable<CourseQuery['course']>> =>
      nonNull((await this.query(CourseDocument, { id, firstLessons: lessons.first, afterLesson: lessons.after }, options)).course),
    /** A page of the courses connection, newest first (drafts only for an ADMIN). */
    courses: async (page: ConnectionPage = {}, options?: CallOptions): Promise<CourseConnection> =>
      (await this.query(CoursesDocument, page, options)).courses,
    docs: async (options?: CallOptions): Promise<DocsQuery['docs']> => (await this.query(DocsDocument, {}, options)).docs,
    pageViews: async (filter: PageViewFilter = {}, options?: CallOptions): Promise<number> => {
      const iso = (d: string | Date | undefined) => (d instanceof Date ? d.toISOString() : d);
      return (await this.query(PageViewsDocument, { path: filter.path, from: iso(filter.from), to: iso(filter.to) }, options)).pageViews;
    },
  };

  /**
   * One page of the stored events, oldest first (commit order): the polling twin of `events()`,
   * with the same ids. Pass `nextCursor` as `after` for the next page; it is null on the last
   * page, and to poll for newer events later pass the last id you saw.
   */
  listEvents(options: EventListOptions = {}, callOptions?: CallOptions): Promise<StoredEventPage> {
    const { types, after, since, limit } = options;
    // No names is every event, as for events() and Query.events (`types=` with nothing is a 400).
    return this.transport.rest('GET', '/api/v1/events', { ...callOptions, query: { types: types?.length ? types.join(',') : undefined, after, since, limit } });
  }

  /** Every stored event from `after` (or the oldest) on, fetching pages of `limit` as the loop goes. */
  allEvents(options: EventListOptions = {}, callOptions?: CallOptions): AsyncGenerator<StoredEvent, void, undefined> {
    return paginate((cursor) => this.listEvents(cursor === undefined ? options : { ...options, after: cursor }, callOptions));
  }

  /** The event-type catalogue: every event name with the JSON Schema (2020-12) of its payload. */
  async eventTypes(options?: CallOptions): Promise<EventTypeInfo[]> {
    return (await this.transport.rest<RestResponse<'listEventTypes', 200>>('GET', '/api/v1/event-types', options)).items;
  }

  /**
   * The live event stream. It reconnects by itself after a dropped connection, resuming after
   * the last event it handed out, so no event is missed or repeated.
   *
   * @example
   * for await (const event of client.events({ types: ['lesson.published'] })) console.log(event.lessonId);
   */
  events(options: EventStreamOptions = {}): EventStream {
    return new EventStream(this.transport, options);
  }
}

/** The server answers null only together with an error, which has been thrown by then. */
function nonNull<T>(value: T | null): T {
  if (value === null) throw new Error('GraphQL: null without an error');
  return value;
}
