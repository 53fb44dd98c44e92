// The Learnstream client library: the entry of the @learnstream/client package
// (`npm run pack:client`, built by scripts/pack-client.ts from src/client/package.json).
// A typed client of the REST API (types generated from openapi.json by openapi-typescript into
// ./generated/openapi.ts), GraphQL operations typed by GraphQL Code Generator (./generated, committed),
// the live event stream over SSE with resume-after-reconnect, and webhook signature checks.
// Nothing here imports the server: the client runs with fetch, graphql-sse and standardwebhooks.
export { LearningClient, type LearningClientOptions, type LessonConnection, type TypedDocument } from './client.js';
export {
  AuthenticationError,
  ConflictError,
  LearningApiError,
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
  DocsQuery,
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
