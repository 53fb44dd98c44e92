import { builder } from './builder.js';
import '../modules/users/schema.js';
import '../modules/auth/schema.js';
import '../modules/lessons/schema.js';
import '../modules/courses/schema.js';
import '../modules/enrollments/schema.js';
import '../modules/docs/schema.js';
import '../modules/analytics/schema.js';
import '../modules/webhooks/schema.js';
import '../modules/apikeys/schema.js';
import '../modules/events/schema.js';

export const schema = builder.toSchema({ sortSchema: true });
