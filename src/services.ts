// The domain services, built once per app. Both adapters (REST and GraphQL) call these.
import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import type { Logger } from './logger.js';
import { createAnalyticsService } from './modules/analytics/service.js';
import { createApiKeyService } from './modules/apikeys/service.js';
import { createCredentialWatch } from './modules/auth/credential-watch.js';
import { createAuthService } from './modules/auth/service.js';
import type { EventBus } from './modules/events/bus.js';
import type { OnCommitted } from './modules/events/outbox.js';
import { createEventService } from './modules/events/service.js';
import { createEventLogService } from './modules/events/list.js';
import { createWrite, type Write } from './modules/events/write.js';
import { createDocsService } from './modules/docs/service.js';
import { createIdempotencyStore } from './modules/idempotency/store.js';
import { createLessonService } from './modules/lessons/service.js';
import { createCourseService } from './modules/courses/service.js';
import { createEnrollmentService } from './modules/enrollments/service.js';
import type { RateLimitStore } from './modules/limits/index.js';
import { createLimitService } from './modules/limits/service.js';
import { createUserService } from './modules/users/service.js';
import { createWebhookService } from './modules/webhooks/service.js';

export interface ServiceDeps {
  db: Db;
  /** Direct SQL for the hottest reads (see Database.query). */
  query: Database['query'];
  config: Config;
  /** Live events of this instance (subscriptions). */
  bus: EventBus;
  /** Rate-limit counters (in-process, or Redis shared by every instance). */
  limits: RateLimitStore;
  log: Logger;
  /** After a change's transaction commits, with its events (see OnCommitted). */
  onCommitted?: OnCommitted;
  /** An ADMIN made an endpoint's webhook deliveries due now: wake this instance's webhook worker. */
  onDeliveriesDue?: (endpointId: string) => void;
}

/** What every service is built from: the deps, and `write` (the one way to change data, events/write.ts). */
export type ServiceContext = ServiceDeps & { write: Write };

export function createServices(serviceDeps: ServiceDeps) {
  const deps: ServiceContext = { ...serviceDeps, write: createWrite(serviceDeps) };
  // Watches the credentials of open subscriptions, so revoking one ends its streams (credential-watch.ts).
  const credentials = createCredentialWatch({ query: deps.query });
  return {
    auth: createAuthService({ ...deps, credentials }),
    users: createUserService(deps),
    lessons: createLessonService(deps),
    courses: createCourseService(deps),
    enrollments: createEnrollmentService(deps),
    docs: createDocsService(deps),
    analytics: createAnalyticsService(deps),
    webhooks: createWebhookService(deps),
    apiKeys: createApiKeyService({ ...deps, credentials }),
    events: createEventService({ ...deps, credentials }),
    eventLog: createEventLogService(deps),
    limits: createLimitService(deps),
    idempotency: createIdempotencyStore(deps),
  };
}

export type Services = ReturnType<typeof createServices>;
