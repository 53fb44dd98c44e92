import { builder } from '../../graphql/builder.js';
import { CurrentUser } from '../users/schema.js';
import type { MeView } from '../users/service.js';
import type { TokenPair } from './schemas.js';


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
    resolve: (_, args, ctx) => ctx.services.auth.login(args),
  }),
  register: t.field({
    type: RegisterPayload,
    args: {
      email: t.arg.string({ required: true }),
      password: t.arg.string({ required: true }),
      name: t.arg.string({ required: true }),
    },
    resolve: (_, args, ctx) => ctx.services.auth.register(args),
  }),
  refreshToken: t.field({
    type: AuthPayload,
    args: { refreshToken: t.arg.string({ required: true }) },
    resolve: (_, args, ctx) => ctx.services.auth.refresh(args),
  }),
  logout: t.boolean({
    description: 'Ends the session of the refresh token. Always true.',
    args: { refreshToken: t.arg.string({ required: true }) },
    resolve: async (_, args, ctx) => {
      await ctx.services.auth.logout(args);
      return true;
    },
  }),
}));
