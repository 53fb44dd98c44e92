// The auth module's REST routes: sign-in and token exchange under /api/auth, sessions under /api/v1.
import { z } from 'zod';
import { defineRoute } from '../../http/route.js';
import { loginInput, refreshInput, registerInput, registerResult, sessionList, sessionView, tokenPair } from './schemas.js';

const sessionParams = z.object({ id: z.string().min(1, 'must not be empty').describe('A session id (`ses_…`)') });

export const authRoutes = [
  defineRoute({
    method: 'POST', path: '/api/auth/login', operationId: 'login', tag: 'auth', auth: false,
    summary: 'Sign in with e-mail and password',
    body: loginInput,
    success: { status: 200, description: 'A token pair', schema: tokenPair },
    errors: [400, 401, 429],
    handler: ({ body, ctx }) => ctx.services.auth.login(body, { userAgent: ctx.userAgent }),
  }),
  defineRoute({
    method: 'POST', path: '/api/auth/register', operationId: 'register', tag: 'auth', auth: false,
    summary: 'Create an account (MEMBER, FREE) and sign in',
    body: registerInput,
    success: { status: 201, description: 'The new user and a token pair', schema: registerResult },
    errors: [400, 409],
    handler: ({ body, ctx }) => ctx.services.auth.register(body, { userAgent: ctx.userAgent }),
  }),
  defineRoute({
    method: 'POST', path: '/api/auth/refresh', operationId: 'refreshToken', tag: 'auth', auth: false,
    summary: 'Exchange a refresh token for a new pair (the same token again within 10 s of its first use gets another pair; after that, reuse ends the session)',
    body: refreshInput,
    success: { status: 200, description: 'A new token pair', schema: tokenPair },
    errors: [400, 401],
    handler: ({ body, ctx }) => ctx.services.auth.refresh(body),
  }),
  defineRoute({
    method: 'POST', path: '/api/auth/logout', operationId: 'logout', tag: 'auth', auth: false,
    summary: "End a session: its refresh token and access tokens stop working",
    body: refreshInput,
    success: { status: 204, description: 'Signed out (also for an unknown or revoked token)' },
    errors: [400],
    handler: ({ body, ctx }) => ctx.services.auth.logout(body),
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/sessions', operationId: 'listSessions', tag: 'auth', auth: true,
    summary: "The current user's live sessions (logins), newest first; `current` marks the one of the token used",
    success: { status: 200, description: '`{items}`', schema: sessionList },
    errors: [403],
    handler: async ({ ctx, caller }) => ctx.services.auth.listSessions({ caller }),
  }),
  defineRoute({
    method: 'GET', path: '/api/v1/sessions/{id}', operationId: 'getSession', tag: 'auth', auth: true,
    summary: "One of the current user's live sessions, as the list shows it",
    params: sessionParams,
    success: { status: 200, description: 'The session', schema: sessionView },
    errors: [403, 404],
    handler: async ({ params, ctx, caller }) => ctx.services.auth.getSession({ caller, id: params.id }),
  }),
  defineRoute({
    method: 'DELETE', path: '/api/v1/sessions/{id}', operationId: 'revokeSession', tag: 'auth', auth: true,
    summary: "End one of the current user's sessions: its access and refresh tokens stop working at once",
    params: sessionParams,
    ifMatch: true,
    success: { status: 204, description: 'Ended' },
    errors: [403, 404],
    handler: async ({ params, ctx, caller, precondition }) => ctx.services.auth.revokeSession({ caller, id: params.id, expected: precondition }),
  }),
];
