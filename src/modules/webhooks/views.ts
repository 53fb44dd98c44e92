// What the webhook API answers: the response schemas (REST and the OpenAPI document) and the
// mapping of rows to them.
import { z } from 'zod';
import type { Prisma, WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../../generated/prisma/client.js';

export const webhookView = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  enabled: z.boolean(),
  disabledReason: z.string().nullable().describe('Why the endpoint is disabled (e.g. the receiver answered 410 Gone); null when enabled'),
  lastSuccessAt: z.iso.datetime().nullable().describe('ISO 8601 UTC: the last delivery the receiver answered with a 2xx; null if none yet'),
  failingSince: z.iso.datetime().nullable().describe('ISO 8601 UTC: the first failed attempt since the last success; null while healthy'),
  createdAt: z.iso.datetime().describe('ISO 8601 UTC'),
  updatedAt: z.iso.datetime().describe('ISO 8601 UTC'),
});
export type WebhookView = z.infer<typeof webhookView>;
export const createdWebhookView = webhookView.extend({
  secret: z.string().describe('`whsec_…`: the Standard Webhooks signing secret. Shown only in this response'),
});
export type CreatedWebhookView = z.infer<typeof createdWebhookView>;
export const webhookList = z.object({ items: z.array(webhookView) });

export const recoveryView = z.object({ count: z.number().int().describe('How many FAILED deliveries were made PENDING, due now') });
export type RecoveryView = z.infer<typeof recoveryView>;
export const rotatedSecretView = z.object({
  secret: z.string().describe('`whsec_…`: the new signing secret. The previous one also signs deliveries for 24 hours'),
});
export type RotatedSecretView = z.infer<typeof rotatedSecretView>;

export const attemptView = z.object({
  at: z.iso.datetime().describe('ISO 8601 UTC: when the attempt started'),
  statusCode: z.number().int().nullable().describe("The receiver's HTTP status; null when no response came"),
  durationMs: z.number().int(),
  error: z.string().nullable().describe('What went wrong (timeout, connection refused, non-2xx); null on success'),
});
export const deliveryView = z.object({
  id: z.string(),
  eventId: z.string().describe('The event id, sent as `webhook-id`'),
  event: z.string(),
  status: z.enum(['PENDING', 'SUCCEEDED', 'FAILED']),
  attempts: z.array(attemptView).describe('Oldest first'),
  nextAttemptAt: z.iso.datetime().nullable().describe('ISO 8601 UTC; null once SUCCEEDED or FAILED'),
  createdAt: z.iso.datetime().describe('ISO 8601 UTC'),
});
export type DeliveryView = z.infer<typeof deliveryView>;
export const deliveryPage = z.object({ items: z.array(deliveryView), nextCursor: z.string().nullable() });

export const toWebhookView = (w: WebhookEndpoint): WebhookView => ({
  id: w.id,
  url: w.url,
  events: w.events,
  description: w.description,
  enabled: w.enabled,
  disabledReason: w.enabled ? null : w.disabledReason,
  lastSuccessAt: w.lastSuccessAt?.toISOString() ?? null,
  failingSince: w.failingSince?.toISOString() ?? null,
  createdAt: w.createdAt.toISOString(),
  updatedAt: w.updatedAt.toISOString(),
});

export const toDeliveryView = (d: WebhookDelivery & { attempts: WebhookAttempt[] }): DeliveryView => ({
  id: d.id,
  eventId: d.eventId,
  event: d.event,
  status: d.status,
  attempts: d.attempts.map((a) => ({ at: a.at.toISOString(), statusCode: a.statusCode, durationMs: a.durationMs, error: a.error })),
  nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
  createdAt: d.createdAt.toISOString(),
});

/** A delivery read with its attempts, oldest first, as its view lists them. */
export const withAttempts = { attempts: { orderBy: [{ at: 'asc' }, { id: 'asc' }] } } satisfies Prisma.WebhookDeliveryInclude;
