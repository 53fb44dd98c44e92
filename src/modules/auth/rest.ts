import { defineRoute } from '../../http/route.js';
import { loginInput, refreshInput, registerInput, registerResult, tokenPair } from './schemas.js';

export const authRoutes = [
  defineRoute({
    method: 'POST', path: '/api/auth/login', operationId: 'login', tag: 'auth', auth: false,
    summary: 'Sign in with e-mail and password',
    body: loginInput,
    success: { status: 200, description: 'A token pair', schema: tokenPair },
    errors: [400, 401, 429],
    handler: ({ body, ctx }) => ctx.services.auth.login(body, ctx.ip),
  }),
  defineRoute({
    method: 'POST', path: '/api/auth/register', operationId: 'register', tag: 'auth', auth: false,
    summary: 'Create an account (MEMBER, FREE) and sign in',
    body: registerInput,
    success: { status: 201, description: 'The new user and a token pair', schema: registerResult },
    errors: [400, 409],
    handler: ({ body, ctx }) => ctx.services.auth.register(body, ctx.ip),
  }),
  defineRoute({
    method: 'POST', path: '/api/auth/refresh', operationId: 'refreshToken', tag: 'auth', auth: false,
    summary: 'Exchange a refresh token for a new pair (the old one stops working)',
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
];
