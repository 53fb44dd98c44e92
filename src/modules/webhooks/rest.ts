// The webhook API over REST: ADMIN only (route roles), the same service as the GraphQL fields.
import { z } from 'zod';
import { defineRoute } from '../../http/route.js';
import { pageOfQuery } from '../../http/page-query.js';
import { createWebhookInput, deliveriesQuery, recoverWebhookInput, updateWebhookInput } from './inputs.js';
import { createdWebhookView, deliveryPage, deliveryView, recoveryView, rotatedSecretView, webhookList, webhookView } from './views.js';

const idParams = z.object({ id: z.string().min(1, 'must not be empty').describe('A webhook id (`whk_…`)') });
const deliveryParams = idParams.extend({ deliveryId: z.string().min(1, 'must not be empty').describe('A delivery id (`dlv_…`)') });
const common = { tag: 'webhooks', auth: true, roles: ['ADMIN'] } as const;

export const webhookRoutes = [
  defineRoute({
    ...common, method: 'POST', path: '/api/v1/webhooks', operationId: 'createWebhook',
    summary: 'ADMIN: register a webhook endpoint; the response holds its signing secret, shown only here',
    body: createWebhookInput,
    success: { status: 201, description: 'The endpoint, with `secret`', schema: createdWebhookView },
    errors: [400, 403],
    handler: async ({ body, ctx, caller }) => ctx.services.webhooks.create({ caller, input: body }),
  }),
  defineRoute({
    ...common, method: 'GET', path: '/api/v1/webhooks', operationId: 'listWebhooks',
    summary: 'ADMIN: every webhook endpoint, newest first (without secrets)',
    success: { status: 200, description: '`{items}`', schema: webhookList },
    errors: [403],
    handler: async ({ ctx, caller }) => ({ items: await ctx.services.webhooks.list({ caller }) }),
  }),
  defineRoute({
    ...common, method: 'GET', path: '/api/v1/webhooks/{id}', operationId: 'getWebhook',
    summary: 'ADMIN: one webhook endpoint (without its secret)',
    params: idParams,
    success: { status: 200, description: 'The endpoint', schema: webhookView },
    errors: [403, 404],
    handler: async ({ params, ctx, caller }) => ctx.services.webhooks.get({ caller, id: params.id }),
  }),
  defineRoute({
    ...common, method: 'PATCH', path: '/api/v1/webhooks/{id}', operationId: 'updateWebhook',
    summary: 'ADMIN: change url, events, description or enabled (re-enabling clears disabledReason and failingSince)',
    params: idParams,
    body: updateWebhookInput,
    ifMatch: true,
    success: { status: 200, description: 'The updated endpoint', schema: webhookView },
    errors: [400, 403, 404],
    handler: async ({ params, body, ctx, caller, precondition }) =>
      ctx.services.webhooks.update({ caller, id: params.id, input: body, expected: precondition }),
  }),
  defineRoute({
    ...common, method: 'DELETE', path: '/api/v1/webhooks/{id}', operationId: 'deleteWebhook',
    summary: 'ADMIN: delete a webhook endpoint with its deliveries',
    params: idParams,
    ifMatch: true,
    success: { status: 204, description: 'Deleted' },
    errors: [403, 404],
    handler: async ({ params, ctx, caller, precondition }) => ctx.services.webhooks.delete({ caller, id: params.id, expected: precondition }),
  }),
  defineRoute({
    ...common, method: 'POST', path: '/api/v1/webhooks/{id}/test', operationId: 'testWebhook',
    summary: 'ADMIN: send `{event: "webhook.test", timestamp}` with a new `evt_` id to this endpoint only',
    params: idParams,
    success: { status: 202, description: 'The queued delivery (sent by the delivery worker)', schema: deliveryView },
    errors: [403, 404],
    handler: async ({ params, ctx, caller }) => ctx.services.webhooks.test({ caller, id: params.id }),
  }),
  defineRoute({
    ...common, method: 'GET', path: '/api/v1/webhooks/{id}/deliveries', operationId: 'listWebhookDeliveries',
    summary: 'ADMIN: the deliveries to an endpoint, newest first, each with its attempts (oldest first)',
    params: idParams,
    query: deliveriesQuery,
    success: { status: 200, description: 'A page `{items, nextCursor}`', schema: deliveryPage },
    errors: [400, 403, 404],
    handler: async ({ params, query, ctx, caller }) => {
      const page = await ctx.services.webhooks.deliveries({ caller, id: params.id, page: pageOfQuery(query) });
      return { items: page.items, nextCursor: page.nextCursor };
    },
  }),
  defineRoute({
    ...common, method: 'POST', path: '/api/v1/webhooks/{id}/deliveries/{deliveryId}/retry', operationId: 'retryWebhookDelivery',
    summary: 'ADMIN: one more attempt of a delivery now, whatever its status',
    params: deliveryParams,
    success: { status: 202, description: 'The delivery, PENDING and due now', schema: deliveryView },
    errors: [403, 404],
    handler: async ({ params, ctx, caller }) =>
      ctx.services.webhooks.retryDelivery({ caller, id: params.id, deliveryId: params.deliveryId }),
  }),
  defineRoute({
    ...common, method: 'POST', path: '/api/v1/webhooks/{id}/recover', operationId: 'recoverWebhook',
    summary: 'ADMIN: one more attempt now for every FAILED delivery of the endpoint created at or after `since`',
    params: idParams,
    body: recoverWebhookInput,
    success: { status: 202, description: '`{count}`: the deliveries made PENDING, due now', schema: recoveryView },
    errors: [400, 403, 404],
    handler: async ({ params, body, ctx, caller }) => ctx.services.webhooks.recover({ caller, id: params.id, input: body }),
  }),
  defineRoute({
    ...common, method: 'POST', path: '/api/v1/webhooks/{id}/rotate-secret', operationId: 'rotateWebhookSecret',
    summary: 'ADMIN: a new signing secret; for 24 hours deliveries are signed with the new and the previous one',
    params: idParams,
    success: { status: 200, description: '`{secret}`: the new secret, shown only here', schema: rotatedSecretView },
    errors: [403, 404],
    handler: async ({ params, ctx, caller }) => ctx.services.webhooks.rotateSecret({ caller, id: params.id }),
  }),
];
