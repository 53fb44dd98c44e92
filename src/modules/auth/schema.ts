// The auth module over GraphQL: sign-in and token exchange mutations, and the caller's sessions.
import { builder } from '../../graphql/builder.js';
import { parseWith } from '../../input.js';
import { CurrentUser } from '../users/schema.js';
import type { MeView } from '../users/views.js';
import { loginInput, refreshInput, registerInput, type SessionView, type TokenPair } from './schemas.js';

export const AuthPayload = builder.objectRef<TokenPair>('AuthPayload').implement({
  description: 'A token pair. `expiresIn` is the lifetime of `token` in seconds.',
  fields: (t) => ({
    token: t.exposeString('token'),
    expiresIn: t.exposeInt('expiresIn'),
    refreshToken: t.exposeString('refreshToken'),
    refreshExpiresIn: t.exposeInt('refreshExpiresIn'),
  }),
});

export const RegisterPayload = builder.objectRef<TokenPair & { user: MeView }>('RegisterPayload').implement({
  fields: (t) => ({
    user: t.field({ type: CurrentUser, resolve: (p) => p.user }),
    token: t.exposeString('token'),
    expiresIn: t.exposeInt('expiresIn'),
    refreshToken: t.exposeString('refreshToken'),
    refreshExpiresIn: t.exposeInt('refreshExpiresIn'),
  }),
});

builder.mutationFields((t) => ({
  login: t.field({
    type: AuthPayload,
    args: { email: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: (_, args, ctx) => ctx.services.auth.login(parseWith(loginInput, args, ''), { userAgent: ctx.userAgent }),
  }),
  register: t.field({
    type: RegisterPayload,
    args: {
      email: t.arg.string({ required: true }),
      password: t.arg.string({ required: true }),
      name: t.arg.string({ required: true }),
    },
    resolve: (_, args, ctx) => ctx.services.auth.register(parseWith(registerInput, args, ''), { userAgent: ctx.userAgent }),
  }),
  refreshToken: t.field({
    type: AuthPayload,
    args: { refreshToken: t.arg.string({ required: true }) },
    resolve: (_, args, ctx) => ctx.services.auth.refresh(parseWith(refreshInput, args, '')),
  }),
  logout: t.boolean({
    description: 'Ends the session of the refresh token. Always true.',
    args: { refreshToken: t.arg.string({ required: true }) },
    resolve: async (_, args, ctx) => {
      await ctx.services.auth.logout(parseWith(refreshInput, args, ''));
      return true;
    },
  }),
}));

export const Session = builder.objectRef<SessionView>('Session').implement({
  description: 'A login of the current user: its tokens (access and refresh) live and end with it.',
  fields: (t) => ({
    id: t.exposeID('id'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'Updated at most once a minute' }),
    userAgent: t.exposeString('userAgent', { nullable: true, description: 'The User-Agent of the login that started it' }),
    current: t.exposeBoolean('current', { description: 'Whether this is the session of the token making the request' }),
  }),
});

builder.queryFields((t) => ({
  sessions: t.withAuth({ authenticated: true }).field({
    type: [Session],
    cache: 'never',
    description: "The current user's live sessions, newest first.",
    resolve: async (_, __, ctx) => (await ctx.services.auth.listSessions({ caller: ctx.viewer() })).items,
  }),
}));

builder.mutationFields((t) => ({
  revokeSession: t.withAuth({ authenticated: true }).boolean({
    cache: 'never',
    description: "End one of your sessions: its access and refresh tokens stop working at once. NOT_FOUND for someone else's or an unknown one.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_, { id }, ctx) => {
      await ctx.services.auth.revokeSession({ caller: ctx.viewer(), id });
      return true;
    },
  }),
}));
