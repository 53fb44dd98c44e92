// The users' REST routes: the caller's account, and a user's public data.
import { z } from 'zod';
import { defineRoute } from '../../http/route.js';
import { updateMeInput } from './inputs.js';
import { meView, publicUserView } from './views.js';

export const userRoutes = [
  defineRoute({
    method: 'GET', path: '/api/v1/user/me', operationId: 'getMe', tag: 'users', auth: true,
    summary: 'The current user of the token',
    success: { status: 200, description: 'The current user', schema: meView },
    errors: [403],
    handler: ({ ctx, caller }) => ctx.services.users.me({ caller }),
  }),
  defineRoute({
    method: 'PATCH', path: '/api/v1/user/me', operationId: 'updateMe', tag: 'users', auth: true,
    summary: 'Rename the current user (emits user.updated)',
    body: updateMeInput,
    ifMatch: true,
    success: { status: 200, description: 'The updated user', schema: meView },
    errors: [400, 403],
    handler: ({ body, ctx, caller, precondition }) => ctx.services.users.updateMe({ caller, input: body, expected: precondition }),
  }),
  defineRoute({
    method: 'GET', path: '/api/users/{id}', operationId: 'getUser', tag: 'users', auth: false,
    summary: "A user's public data",
    params: z.object({ id: z.string().min(1) }),
    success: { status: 200, description: 'Public data only', schema: publicUserView },
    errors: [404],
    handler: ({ params, ctx }) => ctx.services.users.publicUser({ id: params.id }),
    // Public, the same for every caller: read through the response cache; user.updated drops it.
    cached: (user) => [{ typename: 'User', id: user.id }],
  }),
];
