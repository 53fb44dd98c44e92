// API keys over GraphQL: the same service as the REST routes. Every field needs a valid token
// (or key); a caller only ever sees and revokes its own keys.
import { builder } from '../../graphql/builder.js';
import { parseWith } from '../../input.js';
import { createApiKeyInput, type ApiKeyView, type CreatedApiKeyView } from './schemas.js';
import { MAX_LIVE_API_KEYS } from './service.js';

export const ApiKey = builder.objectRef<ApiKeyView>('ApiKey').implement({
  description: 'An API key of the current user, without the key itself.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    prefix: t.exposeString('prefix', { description: 'The first 8 characters after `lp_`, to tell keys apart' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'Updated at most once a minute; null when never used' }),
  }),
});

export const CreatedApiKey = builder.objectRef<CreatedApiKeyView>('CreatedApiKey').implement({
  description: 'A new API key with the key itself: the only time it is shown.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    key: t.exposeString('key', { description: '`lp_…`: send it as `Authorization: Bearer lp_…` or `X-API-Key: lp_…`' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  apiKeys: t.withAuth({ authenticated: true }).field({
    type: [ApiKey],
    cache: 'never',
    description: "The current user's API keys that are not revoked, newest first.",
    resolve: async (_, __, ctx) => (await ctx.services.apiKeys.list({ caller: ctx.viewer() })).items,
  }),
}));

builder.mutationFields((t) => ({
  createApiKey: t.withAuth({ authenticated: true }).field({
    type: CreatedApiKey,
    cache: 'never',
    description:
      `Create an API key (name: 1-100 characters). The response holds the key, shown only here. CONFLICT when you already have ${MAX_LIVE_API_KEYS} live keys: revoke one first.`,
    args: { name: t.arg.string({ required: true }) },
    resolve: (_, args, ctx) => ctx.services.apiKeys.create({ caller: ctx.viewer(), input: parseWith(createApiKeyInput, args, '') }),
  }),
  revokeApiKey: t.withAuth({ authenticated: true }).boolean({
    cache: 'never',
    description: 'Revoke one of your API keys: it stops working at once. true when revoked; NOT_FOUND when unknown.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_, { id }, ctx) => {
      await ctx.services.apiKeys.revoke({ caller: ctx.viewer(), id });
      return true;
    },
  }),
}));
