import { analyticsRoutes } from '../modules/analytics/rest.js';
import { authRoutes } from '../modules/auth/rest.js';
import { docsRoutes } from '../modules/docs/rest.js';
import { lessonRoutes } from '../modules/lessons/rest.js';
import { userRoutes } from '../modules/users/rest.js';
import type { RouteDefinition } from './route.js';

/** Every REST route of the service, in the order the OpenAPI document lists them. */
export const apiRoutes: RouteDefinition[] = [...authRoutes, ...userRoutes, ...lessonRoutes, ...docsRoutes, ...analyticsRoutes];
