// The users' GraphQL types (the public User, the CurrentUser), `me`, `user(id)` and `updateMe`.
import { builder, type GraphQLContext } from '../../graphql/builder.js';
import { parseWith } from '../../input.js';
import { updateMeInput } from './inputs.js';
import type { MeView, PublicUserView } from './views.js';

export const Role = builder.enumType('Role', { values: ['ADMIN', 'MEMBER'] as const });
export const Tier = builder.enumType('Tier', { values: ['FREE', 'PRO', 'ENTERPRISE'] as const });

/**
 * A user's public face: what anyone may see. A plain object type, not a loadable one: `user(id)`
 * returns the whole object, and the fields that return a user by id batch their own loads
 * (`Lesson.author`: loadPublicUsers), so a request that resolves no such field makes no DataLoader.
 */
export const PublicUser = builder.objectRef<PublicUserView>('User');

/** The public data of these users, in the order of `ids`, in one query (an Error for an unknown id). */
export async function loadPublicUsers(ids: readonly string[], ctx: GraphQLContext): Promise<(PublicUserView | Error)[]> {
  const rows = await ctx.services.users.publicUsers({ ids });
  return ids.map((id) => rows.get(id) ?? new Error(`User ${id} not found`));
}

PublicUser.implement({
  description: 'Public data of a user.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    joined: t.exposeString('joined', { description: 'YYYY-MM-DD (UTC)' }),
  }),
});

export const CurrentUser = builder.objectRef<MeView>('CurrentUser').implement({
  description: 'The signed-in user, with private fields.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    email: t.exposeString('email'),
    joined: t.exposeString('joined', { description: 'YYYY-MM-DD (UTC)' }),
    role: t.field({ type: Role, resolve: (u) => u.role }),
    tier: t.field({ type: Tier, resolve: (u) => u.tier }),
  }),
});

builder.queryFields((t) => ({
  me: t.withAuth({ authenticated: true }).field({
    type: CurrentUser,
    cache: 'never',
    resolve: (_, __, ctx) => ctx.services.users.me({ caller: ctx.viewer() }),
  }),
  user: t.field({
    type: PublicUser,
    nullable: true,
    description: 'Public data of a user; null with a NOT_FOUND error when there is no such user.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => ctx.services.users.publicUser({ id }),
  }),
}));

builder.mutationFields((t) => ({
  updateMe: t.withAuth({ authenticated: true }).field({
    type: CurrentUser,
    cache: 'never',
    args: { name: t.arg.string({ required: true }) },
    resolve: (_, args, ctx) => ctx.services.users.updateMe({ caller: ctx.viewer(), input: parseWith(updateMeInput, args, '') }),
  }),
}));

