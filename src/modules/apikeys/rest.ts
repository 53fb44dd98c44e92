// The API keys module's REST routes: the current user's keys under /api/v1/api-keys.
import { z } from 'zod';
import { defineRoute } from '../../http/route.js';
import { apiKeyList, apiKeyView, createApiKeyInput, createdApiKeyView } from './schemas.js';
import { MAX_LIVE_API_KEYS } from './service.js';

const idParams = z.object({ id: z.string().min(1, 'must not be empty').describe('An API key id (`key_…`)') });
const common = { tag: 'api-keys', auth: true } as const;

export const apiKeyRoutes = [
  defineRoute({
    ...common, method: 'POST', path: '/api/v1/api-keys', operationId: 'createApiKey',
    summary: `Create an API key of the current user; the response holds the key, shown only here. 409 when the user already has ${MAX_LIVE_API_KEYS} live keys`,
    body: createApiKeyInput,
    success: { status: 201, description: '`{id, name, key, createdAt}`', schema: createdApiKeyView },
    errors: [400, 403, 409],
    handler: async ({ body, ctx, caller }) => ctx.services.apiKeys.create({ caller, input: body }),
  }),
  defineRoute({
    ...common, method: 'GET', path: '/api/v1/api-keys', operationId: 'listApiKeys',
    summary: "The current user's API keys that are not revoked, newest first (without the keys)",
    success: { status: 200, description: '`{items}`', schema: apiKeyList },
    errors: [403],
    handler: async ({ ctx, caller }) => ctx.services.apiKeys.list({ caller }),
  }),
  defineRoute({
    ...common, method: 'GET', path: '/api/v1/api-keys/{id}', operationId: 'getApiKey',
    summary: "One of the current user's API keys that is not revoked (without the key), as the list shows it",
    params: idParams,
    success: { status: 200, description: 'The key', schema: apiKeyView },
    errors: [403, 404],
    handler: async ({ params, ctx, caller }) => ctx.services.apiKeys.get({ caller, id: params.id }),
  }),
  defineRoute({
    ...common, method: 'DELETE', path: '/api/v1/api-keys/{id}', operationId: 'revokeApiKey',
    summary: 'Revoke one of the current user\'s API keys: it stops working at once',
    params: idParams,
    ifMatch: true,
    success: { status: 204, description: 'Revoked' },
    errors: [403, 404],
    handler: async ({ params, ctx, caller, precondition }) => ctx.services.apiKeys.revoke({ caller, id: params.id, expected: precondition }),
  }),
];
