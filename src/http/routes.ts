import { z } from 'zod';
import { analyticsRoutes } from '../modules/analytics/rest.js';
import { apiKeyRoutes } from '../modules/apikeys/rest.js';
import { authRoutes } from '../modules/auth/rest.js';
import { docsRoutes } from '../modules/docs/rest.js';
import { eventRoutes } from '../modules/events/rest.js';
import { lessonRoutes } from '../modules/lessons/rest.js';
import { courseRoutes } from '../modules/courses/rest.js';
import { enrollmentRoutes } from '../modules/enrollments/rest.js';
import { userRoutes } from '../modules/users/rest.js';
import { webhookRoutes } from '../modules/webhooks/rest.js';
import { openApiDocument } from './openapi.js';
import { defineRoute, type RouteDefinition } from './route.js';

let openApi: ReturnType<typeof openApiDocument> | undefined;
/** The document itself, built once (it never changes while the process runs). */
const openApiRoute = defineRoute({
  method: 'GET', path: '/api/openapi.json', operationId: 'getOpenApiDocument', tag: 'meta', auth: false,
  summary: 'This OpenAPI 3.1 document',
  success: { status: 200, description: 'The OpenAPI document', schema: z.record(z.string(), z.unknown()) },
  errors: [],
  handler: async () => (openApi ??= openApiDocument(apiRoutes)),
});

/** Every REST route of the service, in the order the OpenAPI document lists them. */
export const apiRoutes: RouteDefinition[] = [
  ...authRoutes, ...userRoutes, ...lessonRoutes, ...courseRoutes, ...enrollmentRoutes, ...docsRoutes, ...analyticsRoutes, ...webhookRoutes, ...apiKeyRoutes, ...eventRoutes, openApiRoute,
];
