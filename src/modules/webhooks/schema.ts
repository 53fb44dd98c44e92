// The webhook API over GraphQL: ADMIN-only fields (the `admin` scope), the same service as the
// REST routes. Deliveries are a query of their own (webhookDeliveries), not a field of
// WebhookEndpoint, so listing endpoints stays one query.
import { builder } from '../../graphql/builder.js';
import { definedInput, keysetConnection, pageCost } from '../../graphql/connection.js';
import { encodeCursor } from '../../db/keyset.js';
import { parseWith } from '../../input.js';
import { createWebhookInput, recoverWebhookInput, updateWebhookInput } from './inputs.js';
import { type CreatedWebhookView, type DeliveryView, type RecoveryView, type RotatedSecretView, type WebhookView } from './views.js';

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
type AttemptView = DeliveryView['attempts'][number];

/** The fields of an endpoint, shared by WebhookEndpoint and CreatedWebhook. */
const endpointFields = (t: PothosSchemaTypes.ObjectFieldBuilder<Types, WebhookView>) => ({
  id: t.exposeID('id'),
  url: t.exposeString('url'),
  events: t.exposeStringList('events', { description: 'Event names this endpoint receives' }),
  description: t.exposeString('description', { nullable: true }),
  enabled: t.exposeBoolean('enabled'),
  disabledReason: t.exposeString('disabledReason', {
    nullable: true,
    description: 'Why the endpoint is disabled (e.g. the receiver answered 410 Gone); null when enabled',
  }),
  lastSuccessAt: t.expose('lastSuccessAt', { type: 'DateTime', nullable: true, description: 'The last delivery answered with a 2xx; null if none yet' }),
  failingSince: t.expose('failingSince', { type: 'DateTime', nullable: true, description: 'The first failed attempt since the last success; null while healthy' }),
  createdAt: t.expose('createdAt', { type: 'DateTime' }),
  updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
});

export const WebhookEndpoint = builder.objectRef<WebhookView>('WebhookEndpoint').implement({
  description: 'A URL that receives events. Its signing secret is shown only by createWebhook.',
  fields: endpointFields,
});

export const CreatedWebhook = builder.objectRef<CreatedWebhookView>('CreatedWebhook').implement({
  description: 'A new endpoint with its signing secret: the only time the secret is shown.',
  fields: (t) => ({
    // Safe: CreatedWebhookView extends WebhookView, and these fields only read the parent.
    ...endpointFields(t as unknown as PothosSchemaTypes.ObjectFieldBuilder<Types, WebhookView>),
    secret: t.exposeString('secret', { description: '`whsec_…`: the Standard Webhooks signing secret' }),
  }),
});

const WebhookDeliveryStatus = builder.enumType('WebhookDeliveryStatus', { values: ['PENDING', 'SUCCEEDED', 'FAILED'] as const });

export const WebhookAttempt = builder.objectRef<AttemptView>('WebhookAttempt').implement({
  description: 'One attempt to deliver.',
  fields: (t) => ({
    at: t.expose('at', { type: 'DateTime' }),
    statusCode: t.exposeInt('statusCode', { nullable: true, description: "The receiver's HTTP status; null when no response came" }),
    durationMs: t.exposeInt('durationMs'),
    error: t.exposeString('error', { nullable: true, description: 'What went wrong; null on success' }),
  }),
});

export const WebhookDelivery = builder.objectRef<DeliveryView>('WebhookDelivery').implement({
  description: 'One event (or test ping) sent to one endpoint, with every attempt.',
  fields: (t) => ({
    id: t.exposeID('id'),
    eventId: t.exposeID('eventId', { description: 'The event id, sent as `webhook-id`' }),
    event: t.exposeString('event'),
    status: t.field({ type: WebhookDeliveryStatus, resolve: (d) => d.status }),
    attempts: t.field({ type: [WebhookAttempt], description: 'Oldest first', resolve: (d) => d.attempts }),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true, description: 'null once SUCCEEDED or FAILED' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const RecoverWebhookPayload = builder.objectRef<RecoveryView>('RecoverWebhookPayload').implement({
  description: 'What recoverWebhook did.',
  fields: (t) => ({ count: t.exposeInt('count', { description: 'How many FAILED deliveries were made PENDING, due now' }) }),
});

const RotateWebhookSecretPayload = builder.objectRef<RotatedSecretView>('RotateWebhookSecretPayload').implement({
  description: 'The new signing secret, shown only here.',
  fields: (t) => ({
    secret: t.exposeString('secret', { description: '`whsec_…`. The previous secret also signs deliveries for 24 hours' }),
  }),
});

const CreateWebhookInput = builder.inputType('CreateWebhookInput', {
  fields: (t) => ({
    url: t.string({ required: true }),
    events: t.stringList({ required: true, description: 'Event names, e.g. "lesson.published"' }),
    description: t.string(),
  }),
});
const UpdateWebhookInput = builder.inputType('UpdateWebhookInput', {
  fields: (t) => ({
    url: t.string(),
    events: t.stringList(),
    description: t.string({ description: 'null clears it' }),
    enabled: t.boolean({ description: 'true re-enables a disabled endpoint and clears disabledReason and failingSince' }),
  }),
});

builder.queryFields((t) => ({
  webhooks: t.withAuth({ admin: true }).field({
    type: [WebhookEndpoint],
    cache: 'never',
    description: 'ADMIN: every webhook endpoint, newest first.',
    resolve: (_, __, ctx) => ctx.services.webhooks.list({ caller: ctx.viewer() }),
  }),
  webhook: t.withAuth({ admin: true }).field({
    type: WebhookEndpoint,
    nullable: true,
    cache: 'never',
    description: 'ADMIN: one webhook endpoint; null with a NOT_FOUND error when unknown.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => ctx.services.webhooks.get({ caller: ctx.viewer(), id }),
  }),
  webhookDeliveries: t.withAuth({ admin: true }).connection({
    type: WebhookDelivery,
    cache: 'never',
    description: 'ADMIN: the deliveries to an endpoint, newest first. Forward pagination: first (1-100, default 20) and after.',
    args: { webhookId: t.arg.id({ required: true }) },
    complexity: pageCost(),
    resolve: (_, args, ctx) =>
      keysetConnection(
        args,
        (page) => ctx.services.webhooks.deliveries({ caller: ctx.viewer(), id: args.webhookId, page }),
        (delivery) => encodeCursor({ id: delivery.id, createdAt: new Date(delivery.createdAt) }),
      ),
  }),
}));

builder.mutationFields((t) => ({
  createWebhook: t.withAuth({ admin: true }).field({
    type: CreatedWebhook,
    cache: 'never',
    description: 'ADMIN: register an endpoint. The response holds its signing secret, shown only here.',
    args: { input: t.arg({ type: CreateWebhookInput, required: true }) },
    resolve: (_, { input }, ctx) =>
      ctx.services.webhooks.create({ caller: ctx.viewer(), input: parseWith(createWebhookInput, definedInput(input, ['description']), '') }),
  }),
  updateWebhook: t.withAuth({ admin: true }).field({
    type: WebhookEndpoint,
    cache: 'never',
    description: 'ADMIN: change url, events, description or enabled (re-enabling clears disabledReason and failingSince).',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateWebhookInput, required: true }) },
    resolve: (_, { id, input }, ctx) =>
      ctx.services.webhooks.update({ caller: ctx.viewer(), id, input: parseWith(updateWebhookInput, definedInput(input, ['description']), '') }),
  }),
  deleteWebhook: t.withAuth({ admin: true }).boolean({
    cache: 'never',
    description: 'ADMIN: delete an endpoint with its deliveries. true when deleted; NOT_FOUND when unknown.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_, { id }, ctx) => {
      await ctx.services.webhooks.delete({ caller: ctx.viewer(), id });
      return true;
    },
  }),
  testWebhook: t.withAuth({ admin: true }).field({
    type: WebhookDelivery,
    cache: 'never',
    description: 'ADMIN: queue a `webhook.test` ping (a new `evt_` id) to this endpoint only; the delivery worker sends it.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => ctx.services.webhooks.test({ caller: ctx.viewer(), id }),
  }),
  retryWebhookDelivery: t.withAuth({ admin: true }).field({
    type: WebhookDelivery,
    cache: 'never',
    description: 'ADMIN: one more attempt of a delivery now, whatever its status.',
    args: { webhookId: t.arg.id({ required: true }), deliveryId: t.arg.id({ required: true }) },
    resolve: (_, { webhookId, deliveryId }, ctx) =>
      ctx.services.webhooks.retryDelivery({ caller: ctx.viewer(), id: webhookId, deliveryId }),
  }),
  recoverWebhook: t.withAuth({ admin: true }).field({
    type: RecoverWebhookPayload,
    cache: 'never',
    description: 'ADMIN: one more attempt now for every FAILED delivery of the endpoint created at or after `since` (not in the future).',
    args: { id: t.arg.id({ required: true }), since: t.arg({ type: 'DateTime', required: true }) },
    resolve: (_, { id, since }, ctx) =>
      ctx.services.webhooks.recover({ caller: ctx.viewer(), id, input: parseWith(recoverWebhookInput, { since: since.toISOString() }, '') }),
  }),
  rotateWebhookSecret: t.withAuth({ admin: true }).field({
    type: RotateWebhookSecretPayload,
    cache: 'never',
    description: 'ADMIN: a new signing secret. For 24 hours deliveries are signed with the new and the previous one (new first).',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => ctx.services.webhooks.rotateSecret({ caller: ctx.viewer(), id }),
  }),
}));
