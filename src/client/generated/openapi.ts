/* eslint-disable */
// Generated from the OpenAPI document (/api/openapi.json, src/http/openapi.ts) by openapi-typescript,
// run by `npm run generate` (scripts/print-openapi-types.ts). Do not edit by hand: change the routes
// and regenerate.

export interface paths {
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with e-mail and password */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an account (MEMBER, FREE) and sign in */
        post: operations["register"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Exchange a refresh token for a new pair (the same token again within 10 s of its first use gets another pair; after that, reuse ends the session) */
        post: operations["refreshToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End a session: its refresh token and access tokens stop working */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The current user's live sessions (logins), newest first; `current` marks the one of the token used */
        get: operations["listSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One of the current user's live sessions, as the list shows it */
        get: operations["getSession"];
        put?: never;
        post?: never;
        /** End one of the current user's sessions: its access and refresh tokens stop working at once */
        delete: operations["revokeSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/user/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The current user of the token */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Rename the current user (emits user.updated) */
        patch: operations["updateMe"];
        trace?: never;
    };
    "/api/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A user's public data */
        get: operations["getUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/lessons": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One lesson by `id`, or without `id` a page of lessons, newest first */
        get: operations["getLessons"];
        put?: never;
        /**
         * ADMIN: create a draft lesson
         * @description Only for ADMIN (403 `Forbidden` for other users).
         */
        post: operations["createLesson"];
        delete?: never;
        options?: never;
        head?: never;
        /**
         * ADMIN: change a lesson (emits lesson.updated)
         * @description Only for ADMIN (403 `Forbidden` for other users).
         */
        patch: operations["updateLesson"];
        trace?: never;
    };
    "/api/v1/lessons/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * ADMIN: publish a draft (emits lesson.published)
         * @description Only for ADMIN (403 `Forbidden` for other users).
         */
        post: operations["publishLesson"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/courses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A page of courses, newest first (drafts only for ADMIN) */
        get: operations["listCourses"];
        put?: never;
        /**
         * ADMIN: create a draft course without lessons
         * @description Only for ADMIN (403 `Forbidden` for other users).
         */
        post: operations["createCourse"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/courses/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One course with its lesson ids in course order (a draft only for ADMIN) */
        get: operations["getCourse"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * ADMIN: change title or summary (emits course.updated when published)
         * @description Only for ADMIN (403 `Forbidden` for other users).
         */
        patch: operations["updateCourse"];
        trace?: never;
    };
    "/api/v1/courses/{id}/lessons": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * ADMIN: set the lessons and their order (1-500 distinct existing lessons; only published ones in a published course; emits course.updated when published)
         * @description Only for ADMIN (403 `Forbidden` for other users).
         */
        put: operations["setCourseLessons"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/courses/{id}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * ADMIN: publish a draft holding at least one lesson, all published (emits course.published)
         * @description Only for ADMIN (403 `Forbidden` for other users).
         */
        post: operations["publishCourse"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/courses/{id}/enrollment": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** The caller enrols in a published course (emits enrollment.created the first time, course.completed if every lesson is already completed) */
        put: operations["enroll"];
        post?: never;
        /** The caller leaves a course; their lesson completions stay */
        delete: operations["unenroll"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/enrollments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's enrollments with progress, newest first */
        get: operations["getEnrollments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/courses/{id}/enrollments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * ADMIN: a course's enrollments with progress, newest first
         * @description Only for ADMIN (403 `Forbidden` for other users).
         */
        get: operations["getCourseEnrollments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/lessons/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The caller completes a published lesson (emits lesson.completed the first time, course.completed for each course it completes) */
        post: operations["completeLesson"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/courses/{id}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * ADMIN: a course's enrolled learners, completions and completion rate, from its counters
         * @description Only for ADMIN (403 `Forbidden` for other users).
         */
        get: operations["getCourseStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/content/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** All documentation pages */
        get: operations["listDocs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/views": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Total page views of this deployment, optionally narrowed */
        get: operations["getPageViews"];
        put?: never;
        /** Record one page view (emits analytics.hit) */
        post: operations["recordPageView"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * ADMIN: every webhook endpoint, newest first (without secrets)
         * @description Only for ADMIN (403 `Forbidden` for other users).
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * ADMIN: register a webhook endpoint; the response holds its signing secret, shown only here
         * @description Only for ADMIN (403 `Forbidden` for other users).
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * ADMIN: one webhook endpoint (without its secret)
         * @description Only for ADMIN (403 `Forbidden` for other users).
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * ADMIN: delete a webhook endpoint with its deliveries
         * @description Only for ADMIN (403 `Forbidden` for other users).
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * ADMIN: change url, events, description or enabled (re-enabling clears disabledReason and failingSince)
         * @description Only for ADMIN (403 `Forbidden` for other users).
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/api/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * ADMIN: send `{event: "webhook.test", timestamp}` with a new `evt_` id to this endpoint only
         * @description Only for ADMIN (403 `Forbidden` for other users).
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * ADMIN: the deliveries to an endpoint, newest first, each with its attempts (oldest first)
         * @description Only for ADMIN (403 `Forbidden` for other users).
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries/{deliveryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * ADMIN: one more attempt of a delivery now, whatever its status
         * @description Only for ADMIN (403 `Forbidden` for other users).
         */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * ADMIN: one more attempt now for every FAILED delivery of the endpoint created at or after `since`
         * @description Only for ADMIN (403 `Forbidden` for other users).
         */
        post: operations["recoverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * ADMIN: a new signing secret; for 24 hours deliveries are signed with the new and the previous one
         * @description Only for ADMIN (403 `Forbidden` for other users).
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The current user's API keys that are not revoked, newest first (without the keys) */
        get: operations["listApiKeys"];
        put?: never;
        /** Create an API key of the current user; the response holds the key, shown only here. 409 when the user already has 100 live keys */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One of the current user's API keys that is not revoked (without the key), as the list shows it */
        get: operations["getApiKey"];
        put?: never;
        post?: never;
        /** Revoke one of the current user's API keys: it stops working at once */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The stored events, oldest first (commit order): the polling twin of Subscription.events */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/event-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every event name with the JSON Schema (2020-12) of its payload */
        get: operations["listEventTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/asyncapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The AsyncAPI 3.0 document of the events: the webhook channel and the GraphQL subscription */
        get: operations["getAsyncApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI 3.1 document */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "user.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * user.created
         * @description A user registered (POST /api/auth/register, Mutation.register). Sent as an HTTP POST to every enabled endpoint registered for `user.created`. At least once, possibly out of order: de-duplicate with `webhook-id`.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The event id (`evt_…`), the same id the event list and subscriptions show: de-duplicate with it (deliveries are at least once) */
                    "webhook-id": string;
                    /** @description When this attempt was signed, in unix seconds */
                    "webhook-timestamp": string;
                    /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` signatures (Standard Webhooks): one per secret in use, the newest first (two for 24 hours after a secret rotation). Any one that verifies makes the delivery authentic */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description The event name
                         * @constant
                         */
                        event: "user.created";
                        /**
                         * Format: date-time
                         * @description When the event happened: ISO 8601 UTC with milliseconds and Z
                         */
                        timestamp: string;
                        /** @description The user id (`usr_…`) */
                        userId: string;
                    };
                };
            };
            responses: {
                /** @description Gone: the endpoint is disabled and gets no more deliveries */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Received. Answer within WEBHOOK_TIMEOUT_MS (default 10 s); any other answer is retried */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Retried on WEBHOOK_RETRY_SCHEDULE (a Retry-After is honoured) */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "user.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * user.updated
         * @description A user changed their profile (PATCH /api/v1/user/me, Mutation.updateMe). Sent as an HTTP POST to every enabled endpoint registered for `user.updated`. At least once, possibly out of order: de-duplicate with `webhook-id`.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The event id (`evt_…`), the same id the event list and subscriptions show: de-duplicate with it (deliveries are at least once) */
                    "webhook-id": string;
                    /** @description When this attempt was signed, in unix seconds */
                    "webhook-timestamp": string;
                    /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` signatures (Standard Webhooks): one per secret in use, the newest first (two for 24 hours after a secret rotation). Any one that verifies makes the delivery authentic */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description The event name
                         * @constant
                         */
                        event: "user.updated";
                        /**
                         * Format: date-time
                         * @description When the event happened: ISO 8601 UTC with milliseconds and Z
                         */
                        timestamp: string;
                        /** @description The user id (`usr_…`) */
                        userId: string;
                    };
                };
            };
            responses: {
                /** @description Gone: the endpoint is disabled and gets no more deliveries */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Received. Answer within WEBHOOK_TIMEOUT_MS (default 10 s); any other answer is retried */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Retried on WEBHOOK_RETRY_SCHEDULE (a Retry-After is honoured) */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "lesson.published": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * lesson.published
         * @description A draft lesson was published (POST /api/v1/lessons/publish, Mutation.publishLesson). Sent as an HTTP POST to every enabled endpoint registered for `lesson.published`. At least once, possibly out of order: de-duplicate with `webhook-id`.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The event id (`evt_…`), the same id the event list and subscriptions show: de-duplicate with it (deliveries are at least once) */
                    "webhook-id": string;
                    /** @description When this attempt was signed, in unix seconds */
                    "webhook-timestamp": string;
                    /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` signatures (Standard Webhooks): one per secret in use, the newest first (two for 24 hours after a secret rotation). Any one that verifies makes the delivery authentic */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description The event name
                         * @constant
                         */
                        event: "lesson.published";
                        /**
                         * Format: date-time
                         * @description When the event happened: ISO 8601 UTC with milliseconds and Z
                         */
                        timestamp: string;
                        /** @description The lesson id (`les_…`) */
                        lessonId: string;
                    };
                };
            };
            responses: {
                /** @description Gone: the endpoint is disabled and gets no more deliveries */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Received. Answer within WEBHOOK_TIMEOUT_MS (default 10 s); any other answer is retried */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Retried on WEBHOOK_RETRY_SCHEDULE (a Retry-After is honoured) */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "lesson.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * lesson.updated
         * @description A lesson was changed (PATCH /api/v1/lessons, Mutation.updateLesson). Sent as an HTTP POST to every enabled endpoint registered for `lesson.updated`. At least once, possibly out of order: de-duplicate with `webhook-id`.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The event id (`evt_…`), the same id the event list and subscriptions show: de-duplicate with it (deliveries are at least once) */
                    "webhook-id": string;
                    /** @description When this attempt was signed, in unix seconds */
                    "webhook-timestamp": string;
                    /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` signatures (Standard Webhooks): one per secret in use, the newest first (two for 24 hours after a secret rotation). Any one that verifies makes the delivery authentic */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description The event name
                         * @constant
                         */
                        event: "lesson.updated";
                        /**
                         * Format: date-time
                         * @description When the event happened: ISO 8601 UTC with milliseconds and Z
                         */
                        timestamp: string;
                        /** @description The lesson id (`les_…`) */
                        lessonId: string;
                    };
                };
            };
            responses: {
                /** @description Gone: the endpoint is disabled and gets no more deliveries */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Received. Answer within WEBHOOK_TIMEOUT_MS (default 10 s); any other answer is retried */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Retried on WEBHOOK_RETRY_SCHEDULE (a Retry-After is honoured) */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "analytics.hit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * analytics.hit
         * @description A page view was recorded (POST /api/analytics/views, Mutation.recordPageView). Sent as an HTTP POST to every enabled endpoint registered for `analytics.hit`. At least once, possibly out of order: de-duplicate with `webhook-id`.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The event id (`evt_…`), the same id the event list and subscriptions show: de-duplicate with it (deliveries are at least once) */
                    "webhook-id": string;
                    /** @description When this attempt was signed, in unix seconds */
                    "webhook-timestamp": string;
                    /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` signatures (Standard Webhooks): one per secret in use, the newest first (two for 24 hours after a secret rotation). Any one that verifies makes the delivery authentic */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description The event name
                         * @constant
                         */
                        event: "analytics.hit";
                        /**
                         * Format: date-time
                         * @description When the event happened: ISO 8601 UTC with milliseconds and Z
                         */
                        timestamp: string;
                        /** @description The page path that was viewed, e.g. /docs/lessons */
                        path: string;
                    };
                };
            };
            responses: {
                /** @description Gone: the endpoint is disabled and gets no more deliveries */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Received. Answer within WEBHOOK_TIMEOUT_MS (default 10 s); any other answer is retried */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Retried on WEBHOOK_RETRY_SCHEDULE (a Retry-After is honoured) */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "course.published": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * course.published
         * @description A draft course was published (POST /api/v1/courses/{id}/publish, Mutation.publishCourse). Sent as an HTTP POST to every enabled endpoint registered for `course.published`. At least once, possibly out of order: de-duplicate with `webhook-id`.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The event id (`evt_…`), the same id the event list and subscriptions show: de-duplicate with it (deliveries are at least once) */
                    "webhook-id": string;
                    /** @description When this attempt was signed, in unix seconds */
                    "webhook-timestamp": string;
                    /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` signatures (Standard Webhooks): one per secret in use, the newest first (two for 24 hours after a secret rotation). Any one that verifies makes the delivery authentic */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description The event name
                         * @constant
                         */
                        event: "course.published";
                        /**
                         * Format: date-time
                         * @description When the event happened: ISO 8601 UTC with milliseconds and Z
                         */
                        timestamp: string;
                        /** @description The course id (`crs_…`) */
                        courseId: string;
                    };
                };
            };
            responses: {
                /** @description Gone: the endpoint is disabled and gets no more deliveries */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Received. Answer within WEBHOOK_TIMEOUT_MS (default 10 s); any other answer is retried */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Retried on WEBHOOK_RETRY_SCHEDULE (a Retry-After is honoured) */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "course.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * course.updated
         * @description A published course was changed: its title, summary or lessons (PATCH /api/v1/courses/{id}, PUT /api/v1/courses/{id}/lessons, Mutation.updateCourse, Mutation.setCourseLessons). Sent as an HTTP POST to every enabled endpoint registered for `course.updated`. At least once, possibly out of order: de-duplicate with `webhook-id`.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The event id (`evt_…`), the same id the event list and subscriptions show: de-duplicate with it (deliveries are at least once) */
                    "webhook-id": string;
                    /** @description When this attempt was signed, in unix seconds */
                    "webhook-timestamp": string;
                    /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` signatures (Standard Webhooks): one per secret in use, the newest first (two for 24 hours after a secret rotation). Any one that verifies makes the delivery authentic */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description The event name
                         * @constant
                         */
                        event: "course.updated";
                        /**
                         * Format: date-time
                         * @description When the event happened: ISO 8601 UTC with milliseconds and Z
                         */
                        timestamp: string;
                        /** @description The course id (`crs_…`) */
                        courseId: string;
                    };
                };
            };
            responses: {
                /** @description Gone: the endpoint is disabled and gets no more deliveries */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Received. Answer within WEBHOOK_TIMEOUT_MS (default 10 s); any other answer is retried */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Retried on WEBHOOK_RETRY_SCHEDULE (a Retry-After is honoured) */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "enrollment.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * enrollment.created
         * @description A learner enrolled in a course for the first time (PUT /api/v1/courses/{id}/enrollment, Mutation.enroll). Seen by ADMINs and that learner. Sent as an HTTP POST to every enabled endpoint registered for `enrollment.created`. At least once, possibly out of order: de-duplicate with `webhook-id`.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The event id (`evt_…`), the same id the event list and subscriptions show: de-duplicate with it (deliveries are at least once) */
                    "webhook-id": string;
                    /** @description When this attempt was signed, in unix seconds */
                    "webhook-timestamp": string;
                    /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` signatures (Standard Webhooks): one per secret in use, the newest first (two for 24 hours after a secret rotation). Any one that verifies makes the delivery authentic */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description The event name
                         * @constant
                         */
                        event: "enrollment.created";
                        /**
                         * Format: date-time
                         * @description When the event happened: ISO 8601 UTC with milliseconds and Z
                         */
                        timestamp: string;
                        /** @description The course id (`crs_…`) */
                        courseId: string;
                        /** @description The user id (`usr_…`) */
                        userId: string;
                    };
                };
            };
            responses: {
                /** @description Gone: the endpoint is disabled and gets no more deliveries */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Received. Answer within WEBHOOK_TIMEOUT_MS (default 10 s); any other answer is retried */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Retried on WEBHOOK_RETRY_SCHEDULE (a Retry-After is honoured) */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "lesson.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * lesson.completed
         * @description A learner completed a lesson for the first time (POST /api/v1/lessons/complete, Mutation.completeLesson). Seen by ADMINs and that learner. Sent as an HTTP POST to every enabled endpoint registered for `lesson.completed`. At least once, possibly out of order: de-duplicate with `webhook-id`.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The event id (`evt_…`), the same id the event list and subscriptions show: de-duplicate with it (deliveries are at least once) */
                    "webhook-id": string;
                    /** @description When this attempt was signed, in unix seconds */
                    "webhook-timestamp": string;
                    /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` signatures (Standard Webhooks): one per secret in use, the newest first (two for 24 hours after a secret rotation). Any one that verifies makes the delivery authentic */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description The event name
                         * @constant
                         */
                        event: "lesson.completed";
                        /**
                         * Format: date-time
                         * @description When the event happened: ISO 8601 UTC with milliseconds and Z
                         */
                        timestamp: string;
                        /** @description The lesson id (`les_…`) */
                        lessonId: string;
                        /** @description The user id (`usr_…`) */
                        userId: string;
                    };
                };
            };
            responses: {
                /** @description Gone: the endpoint is disabled and gets no more deliveries */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Received. Answer within WEBHOOK_TIMEOUT_MS (default 10 s); any other answer is retried */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Retried on WEBHOOK_RETRY_SCHEDULE (a Retry-After is honoured) */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "course.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * course.completed
         * @description A learner enrolled in a course completed its last lesson; once per learner and course, ever. Seen by ADMINs and that learner. Sent as an HTTP POST to every enabled endpoint registered for `course.completed`. At least once, possibly out of order: de-duplicate with `webhook-id`.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The event id (`evt_…`), the same id the event list and subscriptions show: de-duplicate with it (deliveries are at least once) */
                    "webhook-id": string;
                    /** @description When this attempt was signed, in unix seconds */
                    "webhook-timestamp": string;
                    /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` signatures (Standard Webhooks): one per secret in use, the newest first (two for 24 hours after a secret rotation). Any one that verifies makes the delivery authentic */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description The event name
                         * @constant
                         */
                        event: "course.completed";
                        /**
                         * Format: date-time
                         * @description When the event happened: ISO 8601 UTC with milliseconds and Z
                         */
                        timestamp: string;
                        /** @description The course id (`crs_…`) */
                        courseId: string;
                        /** @description The user id (`usr_…`) */
                        userId: string;
                    };
                };
            };
            responses: {
                /** @description Gone: the endpoint is disabled and gets no more deliveries */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Received. Answer within WEBHOOK_TIMEOUT_MS (default 10 s); any other answer is retried */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Retried on WEBHOOK_RETRY_SCHEDULE (a Retry-After is honoured) */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * webhook.test
         * @description A test ping to one webhook endpoint (POST /api/v1/webhooks/{id}/test). Sent to webhooks only, never to subscriptions. Sent as an HTTP POST to every enabled endpoint registered for `webhook.test` (only by POST /api/v1/webhooks/{id}/test). At least once, possibly out of order: de-duplicate with `webhook-id`.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The event id (`evt_…`), the same id the event list and subscriptions show: de-duplicate with it (deliveries are at least once) */
                    "webhook-id": string;
                    /** @description When this attempt was signed, in unix seconds */
                    "webhook-timestamp": string;
                    /** @description Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` signatures (Standard Webhooks): one per secret in use, the newest first (two for 24 hours after a secret rotation). Any one that verifies makes the delivery authentic */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description The event name
                         * @constant
                         */
                        event: "webhook.test";
                        /**
                         * Format: date-time
                         * @description When the event happened: ISO 8601 UTC with milliseconds and Z
                         */
                        timestamp: string;
                    };
                };
            };
            responses: {
                /** @description Gone: the endpoint is disabled and gets no more deliveries */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Received. Answer within WEBHOOK_TIMEOUT_MS (default 10 s); any other answer is retried */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Retried on WEBHOOK_RETRY_SCHEDULE (a Retry-After is honoured) */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        Error: {
            /** @constant */
            error: true;
            /** @enum {integer} */
            code: 400 | 401 | 403 | 404 | 405 | 409 | 412 | 413 | 415 | 422 | 429 | 500 | 503;
            message: string;
            details?: {
                [key: string]: unknown;
            } | undefined;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The caller's quota, `"<policy>";q=<limit>;w=<window seconds>` (draft-ietf-httpapi-ratelimit-headers-11), e.g. `"free";q=100;w=60` */
        "RateLimit-Policy": string;
        /** @description `"<policy>";r=<remaining>;t=<seconds until a slot frees>` (draft-ietf-httpapi-ratelimit-headers-11), e.g. `"free";r=97;t=58` */
        RateLimit: string;
        /** @description Requests allowed per rolling window */
        "X-RateLimit-Limit": number;
        /** @description Requests left in the window */
        "X-RateLimit-Remaining": number;
        /** @description When the next slot frees (unix seconds) */
        "X-RateLimit-Reset": number;
        /** @description Seconds to wait before retrying */
        "Retry-After": number;
        /** @description The strong entity tag of this answer (a digest of its JSON): send it as If-None-Match to get a 304 while it is current, or as If-Match to change the resource only if it still is */
        ETag: string;
        /** @description `true` when this is the stored response of an earlier request with the same Idempotency-Key, replayed byte for byte: nothing was changed again */
        "Idempotent-Replayed": "true";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description A token pair */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Access token (JWT), sent as `Authorization: Bearer <token>` */
                        token: string;
                        /** @description Lifetime of `token` in seconds (exp - iat) */
                        expiresIn: number;
                        refreshToken: string;
                        /** @description Lifetime of `refreshToken` in seconds */
                        refreshExpiresIn: number;
                    };
                };
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    register: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    password: string;
                    name: string;
                };
            };
        };
        responses: {
            /** @description The new user and a token pair */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Access token (JWT), sent as `Authorization: Bearer <token>` */
                        token: string;
                        /** @description Lifetime of `token` in seconds (exp - iat) */
                        expiresIn: number;
                        refreshToken: string;
                        /** @description Lifetime of `refreshToken` in seconds */
                        refreshExpiresIn: number;
                        user: {
                            id: string;
                            name: string;
                            /**
                             * Format: date
                             * @description YYYY-MM-DD (UTC)
                             */
                            joined: string;
                            email: string;
                            /** @enum {string} */
                            role: "ADMIN" | "MEMBER";
                            /** @enum {string} */
                            tier: "FREE" | "PRO" | "ENTERPRISE";
                        };
                    };
                };
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    refreshToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    refreshToken: string;
                };
            };
        };
        responses: {
            /** @description A new token pair */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Access token (JWT), sent as `Authorization: Bearer <token>` */
                        token: string;
                        /** @description Lifetime of `token` in seconds (exp - iat) */
                        expiresIn: number;
                        refreshToken: string;
                        /** @description Lifetime of `refreshToken` in seconds */
                        refreshExpiresIn: number;
                    };
                };
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Invalid credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    refreshToken: string;
                };
            };
        };
        responses: {
            /** @description Signed out (also for an unknown or revoked token) */
            204: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSessions: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag of an earlier answer: 304 (without a body, costing no rate-limit budget) while it is current */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{items}` */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** @description `ses_…` */
                            id: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC: the login (or registration) that started it
                             */
                            createdAt: string;
                            /** @description ISO 8601 UTC: when one of its tokens was last used, updated at most once a minute */
                            lastUsedAt: string | null;
                            /** @description The User-Agent of the login that started it */
                            userAgent: string | null;
                            /** @description Whether this is the session of the token making the request */
                            current: boolean;
                        }[];
                    };
                };
            };
            /** @description Not modified: the If-None-Match named the current ETag (costs no rate-limit budget) */
            304: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag of an earlier answer: 304 (without a body, costing no rate-limit budget) while it is current */
                "If-None-Match"?: string;
            };
            path: {
                /** @description A session id (`ses_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description `ses_…` */
                        id: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC: the login (or registration) that started it
                         */
                        createdAt: string;
                        /** @description ISO 8601 UTC: when one of its tokens was last used, updated at most once a minute */
                        lastUsedAt: string | null;
                        /** @description The User-Agent of the login that started it */
                        userAgent: string | null;
                        /** @description Whether this is the session of the token making the request */
                        current: boolean;
                    };
                };
            };
            /** @description Not modified: the If-None-Match named the current ETag (costs no rate-limit budget) */
            304: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the resource as last read (its GET), or `*`: the change is made only if it is still current, otherwise 412 and nothing changes */
                "If-Match"?: string;
                /** @description 1-255 printable ASCII characters, unique per request you mean: for 24 hours the same request with the same key gets the first 2xx response again (`Idempotent-Replayed: true`) and changes nothing; another request with it is 422, one while the first runs 409. Failed requests are not stored: retry them with their key */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description A session id (`ses_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ended */
            204: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Precondition failed: the If-Match named no current version of the resource; nothing was changed */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used for another request (another method, path or body) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag of an earlier answer: 304 (without a body, costing no rate-limit budget) while it is current */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The current user */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        /**
                         * Format: date
                         * @description YYYY-MM-DD (UTC)
                         */
                        joined: string;
                        email: string;
                        /** @enum {string} */
                        role: "ADMIN" | "MEMBER";
                        /** @enum {string} */
                        tier: "FREE" | "PRO" | "ENTERPRISE";
                    };
                };
            };
            /** @description Not modified: the If-None-Match named the current ETag (costs no rate-limit budget) */
            304: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateMe: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the resource as last read (its GET), or `*`: the change is made only if it is still current, otherwise 412 and nothing changes */
                "If-Match"?: string;
                /** @description 1-255 printable ASCII characters, unique per request you mean: for 24 hours the same request with the same key gets the first 2xx response again (`Idempotent-Replayed: true`) and changes nothing; another request with it is 422, one while the first runs 409. Failed requests are not stored: retry them with their key */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description The updated user */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        /**
                         * Format: date
                         * @description YYYY-MM-DD (UTC)
                         */
                        joined: string;
                        email: string;
                        /** @enum {string} */
                        role: "ADMIN" | "MEMBER";
                        /** @enum {string} */
                        tier: "FREE" | "PRO" | "ENTERPRISE";
                    };
                };
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Precondition failed: the If-Match named no current version of the resource; nothing was changed */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used for another request (another method, path or body) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag of an earlier answer: 304 (without a body, costing no rate-limit budget) while it is current */
                "If-None-Match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Public data only */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        /**
                         * Format: date
                         * @description YYYY-MM-DD (UTC)
                         */
                        joined: string;
                    };
                };
            };
            /** @description Not modified: the If-None-Match named the current ETag (costs no rate-limit budget) */
            304: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getLessons: {
        parameters: {
            query?: {
                /** @description A lesson id: answers that lesson instead of a page */
                id?: string;
                /** @description Page size, 1-100 (default 20) */
                limit?: string;
                /** @description nextCursor of the previous page */
                cursor?: string;
            };
            header?: {
                /** @description An ETag of an earlier answer: 304 (without a body, costing no rate-limit budget) while it is current */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The lesson (with id) or a page `{items, nextCursor}` (without) */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        title: string;
                        summary: string | null;
                        body: string;
                        /** @enum {string} */
                        status: "DRAFT" | "PUBLISHED";
                        authorId: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        createdAt: string;
                        /** @description ISO 8601 UTC; null for a draft */
                        publishedAt: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        updatedAt: string;
                    } | {
                        items: {
                            id: string;
                            title: string;
                            summary: string | null;
                            body: string;
                            /** @enum {string} */
                            status: "DRAFT" | "PUBLISHED";
                            authorId: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC
                             */
                            createdAt: string;
                            /** @description ISO 8601 UTC; null for a draft */
                            publishedAt: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC
                             */
                            updatedAt: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Not modified: the If-None-Match named the current ETag (costs no rate-limit budget) */
            304: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createLesson: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1-255 printable ASCII characters, unique per request you mean: for 24 hours the same request with the same key gets the first 2xx response again (`Idempotent-Replayed: true`) and changes nothing; another request with it is 422, one while the first runs 409. Failed requests are not stored: retry them with their key */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title: string;
                    summary?: string | null | undefined;
                    body: string;
                };
            };
        };
        responses: {
            /** @description The draft */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        title: string;
                        summary: string | null;
                        body: string;
                        /** @enum {string} */
                        status: "DRAFT" | "PUBLISHED";
                        authorId: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        createdAt: string;
                        /** @description ISO 8601 UTC; null for a draft */
                        publishedAt: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used for another request (another method, path or body) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateLesson: {
        parameters: {
            query: {
                id: string;
            };
            header?: {
                /** @description The ETag of the resource as last read (its GET), or `*`: the change is made only if it is still current, otherwise 412 and nothing changes */
                "If-Match"?: string;
                /** @description 1-255 printable ASCII characters, unique per request you mean: for 24 hours the same request with the same key gets the first 2xx response again (`Idempotent-Replayed: true`) and changes nothing; another request with it is 422, one while the first runs 409. Failed requests are not stored: retry them with their key */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title?: string | undefined;
                    summary?: string | null | undefined;
                    body?: string | undefined;
                };
            };
        };
        responses: {
            /** @description The updated lesson */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        title: string;
                        summary: string | null;
                        body: string;
                        /** @enum {string} */
                        status: "DRAFT" | "PUBLISHED";
                        authorId: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        createdAt: string;
                        /** @description ISO 8601 UTC; null for a draft */
                        publishedAt: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Precondition failed: the If-Match named no current version of the resource; nothing was changed */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used for another request (another method, path or body) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    publishLesson: {
        parameters: {
            query: {
                id: string;
            };
            header?: {
                /** @description The ETag of the resource as last read (its GET), or `*`: the change is made only if it is still current, otherwise 412 and nothing changes */
                "If-Match"?: string;
                /** @description 1-255 printable ASCII characters, unique per request you mean: for 24 hours the same request with the same key gets the first 2xx response again (`Idempotent-Replayed: true`) and changes nothing; another request with it is 422, one while the first runs 409. Failed requests are not stored: retry them with their key */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The published lesson */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        title: string;
                        summary: string | null;
                        body: string;
                        /** @enum {string} */
                        status: "DRAFT" | "PUBLISHED";
                        authorId: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        createdAt: string;
                        /** @description ISO 8601 UTC; null for a draft */
                        publishedAt: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Precondition failed: the If-Match named no current version of the resource; nothing was changed */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used for another request (another method, path or body) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCourses: {
        parameters: {
            query?: {
                /** @description Page size, 1-100 (default 20) */
                limit?: string;
                /** @description nextCursor of the previous page */
                cursor?: string;
            };
            header?: {
                /** @description An ETag of an earlier answer: 304 (without a body, costing no rate-limit budget) while it is current */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page `{items, nextCursor}` */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            id: string;
                            title: string;
                            summary: string | null;
                            /** @enum {string} */
                            status: "DRAFT" | "PUBLISHED";
                            authorId: string;
                            /** @description The lessons, in course order */
                            lessonIds: string[];
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC
                             */
                            createdAt: string;
                            /** @description ISO 8601 UTC; null for a draft */
                            publishedAt: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC
                             */
                            updatedAt: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Not modified: the If-None-Match named the current ETag (costs no rate-limit budget) */
            304: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createCourse: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1-255 printable ASCII characters, unique per request you mean: for 24 hours the same request with the same key gets the first 2xx response again (`Idempotent-Replayed: true`) and changes nothing; another request with it is 422, one while the first runs 409. Failed requests are not stored: retry them with their key */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title: string;
                    summary?: string | null | undefined;
                };
            };
        };
        responses: {
            /** @description The draft */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        title: string;
                        summary: string | null;
                        /** @enum {string} */
                        status: "DRAFT" | "PUBLISHED";
                        authorId: string;
                        /** @description The lessons, in course order */
                        lessonIds: string[];
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        createdAt: string;
                        /** @description ISO 8601 UTC; null for a draft */
                        publishedAt: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used for another request (another method, path or body) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCourse: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag of an earlier answer: 304 (without a body, costing no rate-limit budget) while it is current */
                "If-None-Match"?: string;
            };
            path: {
                /** @description A course id (`crs_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The course */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        title: string;
                        summary: string | null;
                        /** @enum {string} */
                        status: "DRAFT" | "PUBLISHED";
                        authorId: string;
                        /** @description The lessons, in course order */
                        lessonIds: string[];
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        createdAt: string;
                        /** @description ISO 8601 UTC; null for a draft */
                        publishedAt: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        updatedAt: string;
                    };
                };
            };
            /** @description Not modified: the If-None-Match named the current ETag (costs no rate-limit budget) */
            304: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateCourse: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the resource as last read (its GET), or `*`: the change is made only if it is still current, otherwise 412 and nothing changes */
                "If-Match"?: string;
                /** @description 1-255 printable ASCII characters, unique per request you mean: for 24 hours the same request with the same key gets the first 2xx response again (`Idempotent-Replayed: true`) and changes nothing; another request with it is 422, one while the first runs 409. Failed requests are not stored: retry them with their key */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description A course id (`crs_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    title?: string | undefined;
                    summary?: string | null | undefined;
                };
            };
        };
        responses: {
            /** @description The updated course */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        title: string;
                        summary: string | null;
                        /** @enum {string} */
                        status: "DRAFT" | "PUBLISHED";
                        authorId: string;
                        /** @description The lessons, in course order */
                        lessonIds: string[];
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        createdAt: string;
                        /** @description ISO 8601 UTC; null for a draft */
                        publishedAt: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Precondition failed: the If-Match named no current version of the resource; nothing was changed */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used for another request (another method, path or body) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setCourseLessons: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the resource as last read (its GET), or `*`: the change is made only if it is still current, otherwise 412 and nothing changes */
                "If-Match"?: string;
                /** @description 1-255 printable ASCII characters, unique per request you mean: for 24 hours the same request with the same key gets the first 2xx response again (`Idempotent-Replayed: true`) and changes nothing; another request with it is 422, one while the first runs 409. Failed requests are not stored: retry them with their key */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description A course id (`crs_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    lessonIds: string[];
                };
            };
        };
        responses: {
            /** @description The course */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        title: string;
                        summary: string | null;
                        /** @enum {string} */
                        status: "DRAFT" | "PUBLISHED";
                        authorId: string;
                        /** @description The lessons, in course order */
                        lessonIds: string[];
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        createdAt: string;
                        /** @description ISO 8601 UTC; null for a draft */
                        publishedAt: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Precondition failed: the If-Match named no current version of the resource; nothing was changed */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used for another request (another method, path or body) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    publishCourse: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the resource as last read (its GET), or `*`: the change is made only if it is still current, otherwise 412 and nothing changes */
                "If-Match"?: string;
                /** @description 1-255 printable ASCII characters, unique per request you mean: for 24 hours the same request with the same key gets the first 2xx response again (`Idempotent-Replayed: true`) and changes nothing; another request with it is 422, one while the first runs 409. Failed requests are not stored: retry them with their key */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description A course id (`crs_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The published course */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        title: string;
                        summary: string | null;
                        /** @enum {string} */
                        status: "DRAFT" | "PUBLISHED";
                        authorId: string;
                        /** @description The lessons, in course order */
                        lessonIds: string[];
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        createdAt: string;
                        /** @description ISO 8601 UTC; null for a draft */
                        publishedAt: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Precondition failed: the If-Match named no current version of the resource; nothing was changed */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used for another request (another method, path or body) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    enroll: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1-255 printable ASCII characters, unique per request you mean: for 24 hours the same request with the same key gets the first 2xx response again (`Idempotent-Replayed: true`) and changes nothing; another request with it is 422, one while the first runs 409. Failed requests are not stored: retry them with their key */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description A course id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Already enrolled: the same enrollment (nothing changed) */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        courseId: string;
                        userId: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC: the latest time the learner enrolled
                         */
                        enrolledAt: string;
                        /** @description ISO 8601 UTC: when the learner completed the course (final); null until then */
                        completedAt: string | null;
                        progress: {
                            /** @description How many of the course's lessons the learner has completed (whenever) */
                            completed: number;
                            /** @description How many lessons the course has now */
                            total: number;
                        };
                    };
                };
            };
            /** @description Enrolled now: the enrollment */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        courseId: string;
                        userId: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC: the latest time the learner enrolled
                         */
                        enrolledAt: string;
                        /** @description ISO 8601 UTC: when the learner completed the course (final); null until then */
                        completedAt: string | null;
                        progress: {
                            /** @description How many of the course's lessons the learner has completed (whenever) */
                            completed: number;
                            /** @description How many lessons the course has now */
                            total: number;
                        };
                    };
                };
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used for another request (another method, path or body) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    unenroll: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1-255 printable ASCII characters, unique per request you mean: for 24 hours the same request with the same key gets the first 2xx response again (`Idempotent-Replayed: true`) and changes nothing; another request with it is 422, one while the first runs 409. Failed requests are not stored: retry them with their key */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description A course id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Left the course */
            204: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used for another request (another method, path or body) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEnrollments: {
        parameters: {
            query?: {
                /** @description Page size, 1-100 (default 20) */
                limit?: string;
                /** @description nextCursor of the previous page */
                cursor?: string;
            };
            header?: {
                /** @description An ETag of an earlier answer: 304 (without a body, costing no rate-limit budget) while it is current */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page `{items, nextCursor}` */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            courseId: string;
                            userId: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC: the latest time the learner enrolled
                             */
                            enrolledAt: string;
                            /** @description ISO 8601 UTC: when the learner completed the course (final); null until then */
                            completedAt: string | null;
                            progress: {
                                /** @description How many of the course's lessons the learner has completed (whenever) */
                                completed: number;
                                /** @description How many lessons the course has now */
                                total: number;
                            };
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Not modified: the If-None-Match named the current ETag (costs no rate-limit budget) */
            304: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCourseEnrollments: {
        parameters: {
            query?: {
                /** @description Page size, 1-100 (default 20) */
                limit?: string;
                /** @description nextCursor of the previous page */
                cursor?: string;
            };
            header?: {
                /** @description An ETag of an earlier answer: 304 (without a body, costing no rate-limit budget) while it is current */
                "If-None-Match"?: string;
            };
            path: {
                /** @description A course id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page `{items, nextCursor}` */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            courseId: string;
                            userId: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC: the latest time the learner enrolled
                             */
                            enrolledAt: string;
                            /** @description ISO 8601 UTC: when the learner completed the course (final); null until then */
                            completedAt: string | null;
                            progress: {
                                /** @description How many of the course's lessons the learner has completed (whenever) */
                                completed: number;
                                /** @description How many lessons the course has now */
                                total: number;
                            };
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Not modified: the If-None-Match named the current ETag (costs no rate-limit budget) */
            304: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    completeLesson: {
        parameters: {
            query: {
                /** @description A lesson id */
                id: string;
            };
            header?: {
                /** @description 1-255 printable ASCII characters, unique per request you mean: for 24 hours the same request with the same key gets the first 2xx response again (`Idempotent-Replayed: true`) and changes nothing; another request with it is 422, one while the first runs 409. Failed requests are not stored: retry them with their key */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The completion (the first one when completed before) */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        lessonId: string;
                        userId: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC: the first completion
                         */
                        completedAt: string;
                    };
                };
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used for another request (another method, path or body) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCourseStats: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag of an earlier answer: 304 (without a body, costing no rate-limit budget) while it is current */
                "If-None-Match"?: string;
            };
            path: {
                /** @description A course id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stats; lessons in course order */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Learners enrolled now */
                        enrolled: number;
                        /** @description Of them, those whose enrollment is completed */
                        completed: number;
                        /** @description completed ÷ enrolled; 0 when nobody is enrolled */
                        completionRate: number;
                        /** @description The course's lessons, in course order */
                        lessons: {
                            lessonId: string;
                            /** @description Enrolled learners who completed it */
                            completed: number;
                        }[];
                    };
                };
            };
            /** @description Not modified: the If-None-Match named the current ETag (costs no rate-limit budget) */
            304: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDocs: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag of an earlier answer: 304 (without a body, costing no rate-limit budget) while it is current */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An array of pages */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        slug: string;
                        title: string;
                        url: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        updatedAt: string;
                    }[];
                };
            };
            /** @description Not modified: the If-None-Match named the current ETag (costs no rate-limit budget) */
            304: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPageViews: {
        parameters: {
            query?: {
                path?: string;
                /** @description Inclusive lower bound (ISO 8601 date or UTC date-time) */
                from?: string;
                /** @description Exclusive upper bound (ISO 8601 date or UTC date-time) */
                to?: string;
            };
            header?: {
                /** @description An ETag of an earlier answer: 304 (without a body, costing no rate-limit budget) while it is current */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The total */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        total: number;
                    };
                };
            };
            /** @description Not modified: the If-None-Match named the current ETag (costs no rate-limit budget) */
            304: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    recordPageView: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    path: string;
                };
            };
        };
        responses: {
            /** @description Recorded */
            202: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag of an earlier answer: 304 (without a body, costing no rate-limit budget) while it is current */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{items}` */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            id: string;
                            url: string;
                            events: string[];
                            description: string | null;
                            enabled: boolean;
                            /** @description Why the endpoint is disabled (e.g. the receiver answered 410 Gone); null when enabled */
                            disabledReason: string | null;
                            /** @description ISO 8601 UTC: the last delivery the receiver answered with a 2xx; null if none yet */
                            lastSuccessAt: string | null;
                            /** @description ISO 8601 UTC: the first failed attempt since the last success; null while healthy */
                            failingSince: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC
                             */
                            createdAt: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC
                             */
                            updatedAt: string;
                        }[];
                    };
                };
            };
            /** @description Not modified: the If-None-Match named the current ETag (costs no rate-limit budget) */
            304: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1-255 printable ASCII characters, unique per request you mean: for 24 hours the same request with the same key gets the first 2xx response again (`Idempotent-Replayed: true`) and changes nothing; another request with it is 422, one while the first runs 409. Failed requests are not stored: retry them with their key */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Absolute http(s) URL without credentials; private and loopback targets are refused unless WEBHOOK_ALLOW_PRIVATE_TARGETS */
                    url: string;
                    /** @description The events this endpoint receives */
                    events: ("user.created" | "user.updated" | "lesson.published" | "lesson.updated" | "analytics.hit" | "course.published" | "course.updated" | "enrollment.created" | "lesson.completed" | "course.completed")[];
                    description?: string | null | undefined;
                };
            };
        };
        responses: {
            /** @description The endpoint, with `secret` */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        url: string;
                        events: string[];
                        description: string | null;
                        enabled: boolean;
                        /** @description Why the endpoint is disabled (e.g. the receiver answered 410 Gone); null when enabled */
                        disabledReason: string | null;
                        /** @description ISO 8601 UTC: the last delivery the receiver answered with a 2xx; null if none yet */
                        lastSuccessAt: string | null;
                        /** @description ISO 8601 UTC: the first failed attempt since the last success; null while healthy */
                        failingSince: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        updatedAt: string;
                        /** @description `whsec_…`: the Standard Webhooks signing secret. Shown only in this response */
                        secret: string;
                    };
                };
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used for another request (another method, path or body) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag of an earlier answer: 304 (without a body, costing no rate-limit budget) while it is current */
                "If-None-Match"?: string;
            };
            path: {
                /** @description A webhook id (`whk_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        url: string;
                        events: string[];
                        description: string | null;
                        enabled: boolean;
                        /** @description Why the endpoint is disabled (e.g. the receiver answered 410 Gone); null when enabled */
                        disabledReason: string | null;
                        /** @description ISO 8601 UTC: the last delivery the receiver answered with a 2xx; null if none yet */
                        lastSuccessAt: string | null;
                        /** @description ISO 8601 UTC: the first failed attempt since the last success; null while healthy */
                        failingSince: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        updatedAt: string;
                    };
                };
            };
            /** @description Not modified: the If-None-Match named the current ETag (costs no rate-limit budget) */
            304: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the resource as last read (its GET), or `*`: the change is made only if it is still current, otherwise 412 and nothing changes */
                "If-Match"?: string;
                /** @description 1-255 printable ASCII characters, unique per request you mean: for 24 hours the same request with the same key gets the first 2xx response again (`Idempotent-Replayed: true`) and changes nothing; another request with it is 422, one while the first runs 409. Failed requests are not stored: retry them with their key */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description A webhook id (`whk_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Precondition failed: the If-Match named no current version of the resource; nothing was changed */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used for another request (another method, path or body) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the resource as last read (its GET), or `*`: the change is made only if it is still current, otherwise 412 and nothing changes */
                "If-Match"?: string;
                /** @description 1-255 printable ASCII characters, unique per request you mean: for 24 hours the same request with the same key gets the first 2xx response again (`Idempotent-Replayed: true`) and changes nothing; another request with it is 422, one while the first runs 409. Failed requests are not stored: retry them with their key */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description A webhook id (`whk_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Absolute http(s) URL without credentials; private and loopback targets are refused unless WEBHOOK_ALLOW_PRIVATE_TARGETS */
                    url?: string | undefined;
                    /** @description The events this endpoint receives */
                    events?: ("user.created" | "user.updated" | "lesson.published" | "lesson.updated" | "analytics.hit" | "course.published" | "course.updated" | "enrollment.created" | "lesson.completed" | "course.completed")[] | undefined;
                    description?: string | null | undefined;
                    /** @description true re-enables a disabled endpoint and clears disabledReason and failingSince */
                    enabled?: boolean | undefined;
                };
            };
        };
        responses: {
            /** @description The updated endpoint */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        url: string;
                        events: string[];
                        description: string | null;
                        enabled: boolean;
                        /** @description Why the endpoint is disabled (e.g. the receiver answered 410 Gone); null when enabled */
                        disabledReason: string | null;
                        /** @description ISO 8601 UTC: the last delivery the receiver answered with a 2xx; null if none yet */
                        lastSuccessAt: string | null;
                        /** @description ISO 8601 UTC: the first failed attempt since the last success; null while healthy */
                        failingSince: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        updatedAt: string;
                    };
                };
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Precondition failed: the If-Match named no current version of the resource; nothing was changed */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used for another request (another method, path or body) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1-255 printable ASCII characters, unique per request you mean: for 24 hours the same request with the same key gets the first 2xx response again (`Idempotent-Replayed: true`) and changes nothing; another request with it is 422, one while the first runs 409. Failed requests are not stored: retry them with their key */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description A webhook id (`whk_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The queued delivery (sent by the delivery worker) */
            202: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @description The event id, sent as `webhook-id` */
                        eventId: string;
                        event: string;
                        /** @enum {string} */
                        status: "PENDING" | "SUCCEEDED" | "FAILED";
                        /** @description Oldest first */
                        attempts: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC: when the attempt started
                             */
                            at: string;
                            /** @description The receiver's HTTP status; null when no response came */
                            statusCode: number | null;
                            durationMs: number;
                            /** @description What went wrong (timeout, connection refused, non-2xx); null on success */
                            error: string | null;
                        }[];
                        /** @description ISO 8601 UTC; null once SUCCEEDED or FAILED */
                        nextAttemptAt: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        createdAt: string;
                    };
                };
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used for another request (another method, path or body) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Page size, 1-100 (default 20) */
                limit?: string;
                /** @description nextCursor of the previous page */
                cursor?: string;
            };
            header?: {
                /** @description An ETag of an earlier answer: 304 (without a body, costing no rate-limit budget) while it is current */
                "If-None-Match"?: string;
            };
            path: {
                /** @description A webhook id (`whk_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page `{items, nextCursor}` */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            id: string;
                            /** @description The event id, sent as `webhook-id` */
                            eventId: string;
                            event: string;
                            /** @enum {string} */
                            status: "PENDING" | "SUCCEEDED" | "FAILED";
                            /** @description Oldest first */
                            attempts: {
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC: when the attempt started
                                 */
                                at: string;
                                /** @description The receiver's HTTP status; null when no response came */
                                statusCode: number | null;
                                durationMs: number;
                                /** @description What went wrong (timeout, connection refused, non-2xx); null on success */
                                error: string | null;
                            }[];
                            /** @description ISO 8601 UTC; null once SUCCEEDED or FAILED */
                            nextAttemptAt: string | null;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC
                             */
                            createdAt: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Not modified: the If-None-Match named the current ETag (costs no rate-limit budget) */
            304: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1-255 printable ASCII characters, unique per request you mean: for 24 hours the same request with the same key gets the first 2xx response again (`Idempotent-Replayed: true`) and changes nothing; another request with it is 422, one while the first runs 409. Failed requests are not stored: retry them with their key */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description A webhook id (`whk_…`) */
                id: string;
                /** @description A delivery id (`dlv_…`) */
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, PENDING and due now */
            202: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @description The event id, sent as `webhook-id` */
                        eventId: string;
                        event: string;
                        /** @enum {string} */
                        status: "PENDING" | "SUCCEEDED" | "FAILED";
                        /** @description Oldest first */
                        attempts: {
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC: when the attempt started
                             */
                            at: string;
                            /** @description The receiver's HTTP status; null when no response came */
                            statusCode: number | null;
                            durationMs: number;
                            /** @description What went wrong (timeout, connection refused, non-2xx); null on success */
                            error: string | null;
                        }[];
                        /** @description ISO 8601 UTC; null once SUCCEEDED or FAILED */
                        nextAttemptAt: string | null;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        createdAt: string;
                    };
                };
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used for another request (another method, path or body) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    recoverWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1-255 printable ASCII characters, unique per request you mean: for 24 hours the same request with the same key gets the first 2xx response again (`Idempotent-Replayed: true`) and changes nothing; another request with it is 422, one while the first runs 409. Failed requests are not stored: retry them with their key */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description A webhook id (`whk_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description ISO 8601 date or UTC date-time, not in the future: FAILED deliveries created at or after it get one more attempt. One older than the delivery log retention (WEBHOOK_LOG_RETENTION_DAYS) means every FAILED delivery still kept */
                    since: string;
                };
            };
        };
        responses: {
            /** @description `{count}`: the deliveries made PENDING, due now */
            202: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description How many FAILED deliveries were made PENDING, due now */
                        count: number;
                    };
                };
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used for another request (another method, path or body) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1-255 printable ASCII characters, unique per request you mean: for 24 hours the same request with the same key gets the first 2xx response again (`Idempotent-Replayed: true`) and changes nothing; another request with it is 422, one while the first runs 409. Failed requests are not stored: retry them with their key */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description A webhook id (`whk_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{secret}`: the new secret, shown only here */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description `whsec_…`: the new signing secret. The previous one also signs deliveries for 24 hours */
                        secret: string;
                    };
                };
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used for another request (another method, path or body) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag of an earlier answer: 304 (without a body, costing no rate-limit budget) while it is current */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{items}` */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            id: string;
                            name: string;
                            /** @description The first 8 characters after `lp_`, to tell keys apart */
                            prefix: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC
                             */
                            createdAt: string;
                            /** @description ISO 8601 UTC, updated at most once a minute; null when never used */
                            lastUsedAt: string | null;
                        }[];
                    };
                };
            };
            /** @description Not modified: the If-None-Match named the current ETag (costs no rate-limit budget) */
            304: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1-255 printable ASCII characters, unique per request you mean: for 24 hours the same request with the same key gets the first 2xx response again (`Idempotent-Replayed: true`) and changes nothing; another request with it is 422, one while the first runs 409. Failed requests are not stored: retry them with their key */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description What the key is for (1-100 characters) */
                    name: string;
                };
            };
        };
        responses: {
            /** @description `{id, name, key, createdAt}` */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        /** @description `lp_…`: the key itself, shown only in this response */
                        key: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        createdAt: string;
                    };
                };
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used for another request (another method, path or body) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag of an earlier answer: 304 (without a body, costing no rate-limit budget) while it is current */
                "If-None-Match"?: string;
            };
            path: {
                /** @description An API key id (`key_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        name: string;
                        /** @description The first 8 characters after `lp_`, to tell keys apart */
                        prefix: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC
                         */
                        createdAt: string;
                        /** @description ISO 8601 UTC, updated at most once a minute; null when never used */
                        lastUsedAt: string | null;
                    };
                };
            };
            /** @description Not modified: the If-None-Match named the current ETag (costs no rate-limit budget) */
            304: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description The ETag of the resource as last read (its GET), or `*`: the change is made only if it is still current, otherwise 412 and nothing changes */
                "If-Match"?: string;
                /** @description 1-255 printable ASCII characters, unique per request you mean: for 24 hours the same request with the same key gets the first 2xx response again (`Idempotent-Replayed: true`) and changes nothing; another request with it is 422, one while the first runs 409. Failed requests are not stored: retry them with their key */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description An API key id (`key_…`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            204: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Precondition failed: the If-Match named no current version of the resource; nothing was changed */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The Idempotency-Key was used for another request (another method, path or body) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Comma-separated event names (user.created, user.updated, lesson.published, lesson.updated, analytics.hit, course.published, course.updated, enrollment.created, lesson.completed, course.completed); absent means all */
                types?: string;
                /** @description An event id (`evt_…`): only the events after it in commit order (exclusive). Pass `nextCursor` here for the next page */
                after?: string;
                /** @description An ISO 8601 date or UTC date-time: only events whose timestamp is at or after it. With `after`, both apply (the events after `after` that are also that new), so keep `since` while paging or drop it: the cursor alone continues */
                since?: string;
                /** @description Page size, 1-1000 (default 100) */
                limit?: string;
            };
            header?: {
                /** @description An ETag of an earlier answer: 304 (without a body, costing no rate-limit budget) while it is current */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the events the caller may see (an ADMIN: all; anyone else: not those about a draft, nor those about another user but `user.created` and `user.updated`). `nextCursor` is null on the last page; to poll for newer events later, pass the last id you saw as `after`. An `after` naming an event hidden from the caller is refused as an unknown one */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: ({
                            /**
                             * @description The event name
                             * @constant
                             */
                            event: "user.created";
                            /**
                             * Format: date-time
                             * @description When the event happened: ISO 8601 UTC with milliseconds and Z
                             */
                            timestamp: string;
                            /** @description The user id (`usr_…`) */
                            userId: string;
                            /** @description The event id (`evt_…`), the same one webhooks send as `webhook-id` */
                            id: string;
                        } | {
                            /**
                             * @description The event name
                             * @constant
                             */
                            event: "user.updated";
                            /**
                             * Format: date-time
                             * @description When the event happened: ISO 8601 UTC with milliseconds and Z
                             */
                            timestamp: string;
                            /** @description The user id (`usr_…`) */
                            userId: string;
                            /** @description The event id (`evt_…`), the same one webhooks send as `webhook-id` */
                            id: string;
                        } | {
                            /**
                             * @description The event name
                             * @constant
                             */
                            event: "lesson.published";
                            /**
                             * Format: date-time
                             * @description When the event happened: ISO 8601 UTC with milliseconds and Z
                             */
                            timestamp: string;
                            /** @description The lesson id (`les_…`) */
                            lessonId: string;
                            /** @description The event id (`evt_…`), the same one webhooks send as `webhook-id` */
                            id: string;
                        } | {
                            /**
                             * @description The event name
                             * @constant
                             */
                            event: "lesson.updated";
                            /**
                             * Format: date-time
                             * @description When the event happened: ISO 8601 UTC with milliseconds and Z
                             */
                            timestamp: string;
                            /** @description The lesson id (`les_…`) */
                            lessonId: string;
                            /** @description The event id (`evt_…`), the same one webhooks send as `webhook-id` */
                            id: string;
                        } | {
                            /**
                             * @description The event name
                             * @constant
                             */
                            event: "analytics.hit";
                            /**
                             * Format: date-time
                             * @description When the event happened: ISO 8601 UTC with milliseconds and Z
                             */
                            timestamp: string;
                            /** @description The page path that was viewed, e.g. /docs/lessons */
                            path: string;
                            /** @description The event id (`evt_…`), the same one webhooks send as `webhook-id` */
                            id: string;
                        } | {
                            /**
                             * @description The event name
                             * @constant
                             */
                            event: "course.published";
                            /**
                             * Format: date-time
                             * @description When the event happened: ISO 8601 UTC with milliseconds and Z
                             */
                            timestamp: string;
                            /** @description The course id (`crs_…`) */
                            courseId: string;
                            /** @description The event id (`evt_…`), the same one webhooks send as `webhook-id` */
                            id: string;
                        } | {
                            /**
                             * @description The event name
                             * @constant
                             */
                            event: "course.updated";
                            /**
                             * Format: date-time
                             * @description When the event happened: ISO 8601 UTC with milliseconds and Z
                             */
                            timestamp: string;
                            /** @description The course id (`crs_…`) */
                            courseId: string;
                            /** @description The event id (`evt_…`), the same one webhooks send as `webhook-id` */
                            id: string;
                        } | {
                            /**
                             * @description The event name
                             * @constant
                             */
                            event: "enrollment.created";
                            /**
                             * Format: date-time
                             * @description When the event happened: ISO 8601 UTC with milliseconds and Z
                             */
                            timestamp: string;
                            /** @description The course id (`crs_…`) */
                            courseId: string;
                            /** @description The user id (`usr_…`) */
                            userId: string;
                            /** @description The event id (`evt_…`), the same one webhooks send as `webhook-id` */
                            id: string;
                        } | {
                            /**
                             * @description The event name
                             * @constant
                             */
                            event: "lesson.completed";
                            /**
                             * Format: date-time
                             * @description When the event happened: ISO 8601 UTC with milliseconds and Z
                             */
                            timestamp: string;
                            /** @description The lesson id (`les_…`) */
                            lessonId: string;
                            /** @description The user id (`usr_…`) */
                            userId: string;
                            /** @description The event id (`evt_…`), the same one webhooks send as `webhook-id` */
                            id: string;
                        } | {
                            /**
                             * @description The event name
                             * @constant
                             */
                            event: "course.completed";
                            /**
                             * Format: date-time
                             * @description When the event happened: ISO 8601 UTC with milliseconds and Z
                             */
                            timestamp: string;
                            /** @description The course id (`crs_…`) */
                            courseId: string;
                            /** @description The user id (`usr_…`) */
                            userId: string;
                            /** @description The event id (`evt_…`), the same one webhooks send as `webhook-id` */
                            id: string;
                        })[];
                        /** @description The last item's id when there are more events after it; null on the last page */
                        nextCursor: string | null;
                    };
                };
            };
            /** @description Not modified: the If-None-Match named the current ETag (costs no rate-limit budget) */
            304: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEventTypes: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag of an earlier answer: 304 (without a body, costing no rate-limit budget) while it is current */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event-type catalogue */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            /** @enum {string} */
                            name: "user.created" | "user.updated" | "lesson.published" | "lesson.updated" | "analytics.hit" | "course.published" | "course.updated" | "enrollment.created" | "lesson.completed" | "course.completed";
                            description: string;
                            /** @description The JSON Schema (2020-12) of the payload */
                            schema: {
                                [key: string]: unknown;
                            };
                        }[];
                    };
                };
            };
            /** @description Not modified: the If-None-Match named the current ETag (costs no rate-limit budget) */
            304: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid token, or not allowed */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAsyncApiDocument: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag of an earlier answer: 304 (without a body, costing no rate-limit budget) while it is current */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The AsyncAPI document */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not modified: the If-None-Match named the current ETag (costs no rate-limit budget) */
            304: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag of an earlier answer: 304 (without a body, costing no rate-limit budget) while it is current */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI document */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not modified: the If-None-Match named the current ETag (costs no rate-limit budget) */
            304: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid input: the message names the field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded (see Retry-After) */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
