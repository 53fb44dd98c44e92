// ADMIN management of webhook endpoints and their deliveries. This only manages rows: the
// delivery worker (dispatcher.ts) sends what is PENDING and due, and records every attempt.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/client.js';
import { forbidden, notFound } from '../../errors.js';
import type { Prisma, WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../../generated/prisma/client.js';
import { keysetPage, keysetQuery, type PageOptions } from '../../db/keyset.js';
import { parseWith } from '../../http/validation.js';
import { newId } from '../../ids.js';
import { EVENT_TYPES } from '../events/outbox.js';
import { assertDeliverableUrl, MAX_URL_LENGTH, urlFormProblem } from './url-guard.js';

export const TEST_EVENT = 'webhook.test';
/** Why an endpoint is disabled when an ADMIN turns it off by hand. */
export const DISABLED_BY_ADMIN = 'Disabled by an administrator';

const url = z
  .string()
  .trim()
  .max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`)
  .superRefine((value, ctx) => {
    const problem = urlFormProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe('Absolute http(s) URL without credentials; private and loopback targets are refused unless WEBHOOK_ALLOW_PRIVATE_TARGETS');
const events = z
  .array(z.enum(EVENT_TYPES, { error: `must be one of ${EVENT_TYPES.join(', ')}` }))
  .min(1, 'must name at least one event')
  .refine((names) => new Set(names).size === names.length, 'must not name an event twice')
  .describe('The events this endpoint receives');
const description = z.string().max(500, 'must be at most 500 characters').nullable();

export const createWebhookInput = z.strictObject({ url, events, description: description.optional() });
export const updateWebhookInput = z
  .strictObject({
    url: url.optional(),
    events: events.optional(),
    description: description.optional(),
    enabled: z.boolean().optional().describe('true re-enables the endpoint and clears disabledReason'),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'give at least one of url, events, description, enabled' });

export const webhookView = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  enabled: z.boolean(),
  disabledReason: z.string().nullable().describe('Why the endpoint is disabled (e.g. the receiver answered 410 Gone); null when enabled'),
  createdAt: z.string().describe('ISO 8601 UTC'),
  updatedAt: z.string().describe('ISO 8601 UTC'),
});
export type WebhookView = z.infer<typeof webhookView>;
export const createdWebhookView = webhookView.extend({
  secret: z.string().describe('`whsec_…`: the Standard Webhooks signing secret. Shown only in this response'),
});
export type CreatedWebhookView = z.infer<typeof createdWebhookView>;
export const webhookList = z.object({ items: z.array(webhookView) });

export const attemptView = z.object({
  at: z.string().describe('ISO 8601 UTC: when the attempt started'),
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
  nextAttemptAt: z.string().nullable().describe('ISO 8601 UTC; null once SUCCEEDED or FAILED'),
  createdAt: z.string().describe('ISO 8601 UTC'),
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
  createdAt: w.createdAt.toISOString(),
  updatedAt: w.updatedAt.toISOString(),
});

const toDeliveryView = (d: WebhookDelivery & { attempts: WebhookAttempt[] }): DeliveryView => ({
  id: d.id,
  eventId: d.eventId,
  event: d.event,
  status: d.status,
  attempts: d.attempts.map((a) => ({ at: a.at.toISOString(), statusCode: a.statusCode, durationMs: a.durationMs, error: a.error })),
  nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
  createdAt: d.createdAt.toISOString(),
});

const withAttempts = { attempts: { orderBy: [{ at: 'asc' }, { id: 'asc' }] } } satisfies Prisma.WebhookDeliveryInclude;


/** A Standard Webhooks signing secret: `whsec_` and the base64 of 32 random bytes. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

function assertAdmin(caller: Caller): void {
  if (caller.role !== 'ADMIN') throw forbidden();
}

export interface ListDeliveriesOptions extends PageOptions {
  caller: Caller;
  id: string;
}

export function createWebhookService({ db, config }: { db: Db; config: Config }) {
  const allowPrivate = () => config.webhook.allowPrivateTargets;

  async function findEndpoint(id: string): Promise<WebhookEndpoint> {
    const endpoint = await db.webhookEndpoint.findUnique({ where: { id } });
    if (!endpoint) throw notFound(`Webhook ${id}`);
    return endpoint;
  }

  /** Inserts a delivery due now: the worker picks it up. */
  async function enqueueTest(endpointId: string): Promise<DeliveryView> {
    const eventId = newId('evt');
    const now = new Date();
    const delivery = await db.webhookDelivery.create({
      data: {
        id: newId('dlv'),
        endpointId,
        eventId,
        event: TEST_EVENT,
        payload: { event: TEST_EVENT, timestamp: now.toISOString() },
        status: 'PENDING',
        nextAttemptAt: now,
        createdAt: now,
      },
      include: withAttempts,
    });
    return toDeliveryView(delivery);
  }

  return {
    /** The new endpoint, with its signing secret (the only time the secret is shown). */
    async create({ caller, input }: { caller: Caller; input: unknown }): Promise<CreatedWebhookView> {
      assertAdmin(caller);
      const data = parseWith(createWebhookInput, input, '');
      await assertDeliverableUrl(data.url, allowPrivate());
      const endpoint = await db.webhookEndpoint.create({
        data: { id: newId('whk'), url: data.url, events: data.events, description: data.description ?? null, secret: newSecret() },
      });
      return { ...toWebhookView(endpoint), secret: endpoint.secret };
    },

    /** Every endpoint, newest first, without secrets. */
    async list({ caller }: { caller: Caller }): Promise<WebhookView[]> {
      assertAdmin(caller);
      const rows = await db.webhookEndpoint.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
      return rows.map(toWebhookView);
    },

    async get({ caller, id }: { caller: Caller; id: string }): Promise<WebhookView> {
      assertAdmin(caller);
      return toWebhookView(await findEndpoint(id));
    },

    /**
     * Changes the given fields. `enabled: true` re-enables and clears disabledReason;
     * `enabled: false` on an enabled endpoint records that an ADMIN disabled it.
     */
    async update({ caller, id, input }: { caller: Caller; id: string; input: unknown }): Promise<WebhookView> {
      assertAdmin(caller);
      const data = parseWith(updateWebhookInput, input, '');
      if (data.url !== undefined) await assertDeliverableUrl(data.url, allowPrivate());
      const { enabled, ...fields } = data;
      return db.$transaction(async (tx) => {
        const current = await tx.webhookEndpoint.findUnique({ where: { id }, select: { enabled: true } });
        if (!current) throw notFound(`Webhook ${id}`);
        const state =
          enabled === true
            ? { enabled: true, disabledReason: null }
            : // Disabling a disabled endpoint keeps the first reason (e.g. the receiver's 410 Gone).
              enabled === false && current.enabled
              ? { enabled: false, disabledReason: DISABLED_BY_ADMIN }
              : {};
        return toWebhookView(await tx.webhookEndpoint.update({ where: { id }, data: { ...fields, ...state } }));
      });
    },

    /** Deletes the endpoint with its deliveries and attempts. */
    async delete({ caller, id }: { caller: Caller; id: string }): Promise<void> {
      assertAdmin(caller);
      const deleted = await db.webhookEndpoint.deleteMany({ where: { id } });
      if (deleted.count === 0) throw notFound(`Webhook ${id}`);
    },

    /** Queues a `webhook.test` ping (its own `evt_` id) to this endpoint only; the worker sends it. */
    async test({ caller, id }: { caller: Caller; id: string }): Promise<DeliveryView> {
      assertAdmin(caller);
      await findEndpoint(id);
      try {
        return await enqueueTest(id);
      } catch (error) {
        // Deleted between the check and the insert: the foreign key says so.
        if ((error as { code?: unknown }).code === 'P2003') throw notFound(`Webhook ${id}`);
        throw error;
      }
    },

    /** The endpoint's deliveries, newest first (each with its attempts, oldest first), keyset-paginated. */
    async deliveries({ caller, id, ...options }: ListDeliveriesOptions) {
      assertAdmin(caller);
      const { limit, seek, orderBy, take } = keysetQuery(options);
      await findEndpoint(id);
      const rows = await db.webhookDelivery.findMany({ where: { endpointId: id, ...seek }, orderBy, take, include: withAttempts });
      const page = keysetPage(rows, limit);
      return { ...page, items: page.items.map(toDeliveryView) };
    },

    /**
     * One more attempt now, whatever the delivery's state (PENDING, SUCCEEDED or FAILED): it is
     * due at once, and any worker's lease on it is dropped. The attempt count is kept, so a
     * delivery whose schedule is spent gets exactly one more attempt. A delivery still waiting for
     * its event to be published is left as it is (it goes out right after).
     */
    async retryDelivery({ caller, id, deliveryId }: { caller: Caller; id: string; deliveryId: string }): Promise<DeliveryView> {
      assertAdmin(caller);
      await findEndpoint(id);
      await db.webhookDelivery.updateMany({
        // Not one the relay has created but not yet made due (PENDING, nextAttemptAt null): it is
        // due as soon as its event is published, and must not go out before subscribers see it.
        where: { id: deliveryId, endpointId: id, NOT: { status: 'PENDING', nextAttemptAt: null } },
        data: { status: 'PENDING', nextAttemptAt: new Date(), lockedUntil: null },
      });
      const delivery = await db.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId: id }, include: withAttempts });
      if (!delivery) throw notFound(`Delivery ${deliveryId}`);
      return toDeliveryView(delivery);
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
