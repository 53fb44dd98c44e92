// The Learnstream client library, the entry of the @learnstream/client package (built by
// scripts/pack-client.ts): the typed REST client, typed GraphQL operations, the live event stream
// and webhook signature checks. Nothing here imports the server: the client runs with fetch,
// graphql-sse and standardwebhooks.
export { LearningClient, type CourseConnection, type LearningClientOptions, type LessonConnection, type TypedDocument } from './client.js';
export type { CourseCalls, EnrollmentCalls } from './courses.js';
export type { WebhookEndpointCalls } from './webhook-endpoints.js';
export {
  AuthenticationError,
  ConflictError,
  LearningApiError,
  LearnstreamError,
  NetworkError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ValidationError,
  WebhookVerificationError,
  type GraphQLErrorItem,
} from './errors.js';
export { EventStream, type EventStreamOptions } from './events.js';
export type { CallOptions, FetchLike } from './transport.js';
export { verifyWebhook, type WebhookHeaders } from './webhooks.js';
export * from './documents.js';
export type {
  CompleteLessonMutation,
  CourseQuery,
  CoursesQuery,
  DocsQuery,
  EnrollMutation,
  EventsSubscription,
  LessonQuery,
  LessonsQuery,
  MeQuery,
  PageViewsQuery,
  PublishLessonMutation,
  RecordPageViewMutation,
  UpdateMeMutation,
  UserQuery,
} from './generated/graphql.js';
export type * from './types.js';
