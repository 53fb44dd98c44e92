// ADMIN management of webhook endpoints and their deliveries. This only manages rows: the
// delivery worker (dispatch/loop.ts) sends what is PENDING and due, and records every attempt.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Config } from '../../config.js';
import type { Caller } from '../auth/caller.js';
import type { Db } from '../../db/client.js';
import { firstMillisecond, isoInstant, lowerBound } from '../../dates.js';
import { assertPrecondition, badInput, notFound, type Precondition } from '../../errors.js';
import { lookupId } from '../../ids.js';
import type { Prisma, WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../../generated/prisma/client.js';
import { keysetPage, keysetQuery, type PageOptions } from '../../db/keyset.js';
import { parseWith } from '../../input.js';
import { newId } from '../../ids.js';
import { assertAdmin } from '../auth/roles.js';
import { EVENT_TYPES } from '../events/outbox.js';
import { assertDeliverableUrl, MAX_URL_LENGTH, urlFormProblem } from './url-guard.js';

export const TEST_EVENT = 'webhook.test';
/** How long a rotated-out secret still signs deliveries, beside the new one. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 3_600_000;
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
    enabled: z.boolean().optional().describe('true re-enables a disabled endpoint and clears disabledReason and failingSince'),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'give at least one of url, events, description, enabled' });

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

export const recoverWebhookInput = z.strictObject({
  // The instants every date field takes (src/dates.ts): a date means its midnight UTC.
  since: isoInstant.describe(
    'ISO 8601 date or UTC date-time, not in the future: FAILED deliveries created at or after it get one more attempt. ' +
      'One older than the delivery log retention (WEBHOOK_LOG_RETENTION_DAYS) means every FAILED delivery still kept',
  ),
});
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

/**
 * The one rule for "one more attempt now", for retry (one delivery) and recover (many): PENDING,
 * due at once, any worker's lease dropped. A delivery that had ended (FAILED or SUCCEEDED) gets
 * exactly that one attempt: its place in the retry schedule (attemptCount) is set to the
 * schedule's end, so if the attempt fails it is FAILED again, not retried on the rest of a
 * schedule it had left early (a 410, a success). A PENDING one keeps its place: its next attempt
 * is only brought forward. A delivery the relay has created but not yet made due (PENDING,
 * nextAttemptAt null) is left as it is: it is due as soon as its event is published, and must not
 * go out before subscribers see the event.
 */
const oneMoreAttempt = {
  where: { NOT: { status: 'PENDING', nextAttemptAt: null } },
  data: (scheduleEnd?: number) => ({
    status: 'PENDING',
    nextAttemptAt: new Date(),
    lockedUntil: null,
    ...(scheduleEnd === undefined ? {} : { attemptCount: scheduleEnd }),
  }),
} satisfies {
  where: Prisma.WebhookDeliveryWhereInput;
  data: (scheduleEnd?: number) => Prisma.WebhookDeliveryUpdateManyMutationInput;
};

export interface ListDeliveriesOptions extends PageOptions {
  caller: Caller;
  id: string;
}

/**
 * `onDeliveriesDue`: told when an ADMIN made deliveries due now (a test, a retry, a recovery, an
 * endpoint enabled again), so this instance's worker sends them at once instead of at its next look.
 */
export function createWebhookService({ db, config, onDeliveriesDue }: { db: Db; config: Config; onDeliveriesDue?: (endpointId: string) => void }) {
  const allowPrivate = () => config.webhook.allowPrivateTargets;
  const scheduleEnd = config.webhook.retryScheduleMs.length;

  /**
   * An ADMIN asked for an attempt now (a test, a retry, a recovery): the endpoint's throttle (a
   * receiver's Retry-After, up to a day) is lifted, in the database for every instance and in
   * this instance's worker, which is told. Asking is saying the receiver is ready; left in place,
   * the throttle held the attempt back, with nothing to show why.
   */
  async function attemptNow(id: string): Promise<void> {
    await db.webhookEndpoint.updateMany({ where: { id, throttledUntil: { not: null } }, data: { throttledUntil: null } });
    onDeliveriesDue?.(id);
  }
  /**
   * Deliveries with their attempts, read in one snapshot. Prisma reads the attempts with a second
   * query, and the worker records an attempt and its delivery's new state in one statement: that
   * statement committing between the two paired a delivery's old state (PENDING, due before the
   * attempt was made) with its new attempt.
   */
  const inOneSnapshot = <T>(read: (tx: Prisma.TransactionClient) => Promise<T>) => db.$transaction(read, { isolationLevel: 'RepeatableRead' });

  async function findEndpoint(id: string): Promise<WebhookEndpoint> {
    const endpoint = await db.webhookEndpoint.findUnique({ where: { id: lookupId('Webhook', id) } });
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
     * Changes the given fields. `enabled: true` on a disabled endpoint re-enables it and clears
     * disabledReason and failingSince; `enabled: false` on an enabled endpoint records that an
     * ADMIN disabled it.
     */
    async update({ caller, id, input, expected }: { caller: Caller; id: string; input: unknown; expected?: Precondition<WebhookView> }): Promise<WebhookView> {
      assertAdmin(caller);
      const data = parseWith(updateWebhookInput, input, '');
      if (data.url !== undefined) await assertDeliverableUrl(data.url, allowPrivate());
      const { enabled, ...fields } = data;
      const updated = await db.$transaction(async (tx) => {
        // Locked as it is read: what `enabled` changes depends on the current state, so a
        // concurrent PATCH must not change it (its answer showed the other request's state, and
        // the loser's `enabled` was lost) nor a DELETE remove the row (the update failed: 500)
        // between this read and the update. A DELETE that committed first: 404.
        const [current] = await tx.$queryRaw<{ enabled: boolean }[]>`
          SELECT enabled FROM "WebhookEndpoint" WHERE id = ${lookupId('Webhook', id)} FOR NO KEY UPDATE`;
        if (!current) throw notFound(`Webhook ${id}`);
        if (expected) assertPrecondition(expected, toWebhookView(await tx.webhookEndpoint.findUniqueOrThrow({ where: { id } })));
        const state =
          enabled === true && !current.enabled
            ? // A fresh start: the health clock that disables an endpoint starts again at its next
              // failure. (On an endpoint that is enabled, `enabled: true` changes nothing: it does
              // not reset the clock of one that is failing.)
              { enabled: true, disabledReason: null, failingSince: null }
            : // Disabling a disabled endpoint keeps the first reason (e.g. the receiver's 410 Gone).
              enabled === false && current.enabled
              ? { enabled: false, disabledReason: DISABLED_BY_ADMIN }
              : {};
        return { view: toWebhookView(await tx.webhookEndpoint.update({ where: { id }, data: { ...fields, ...state } })), enabledAgain: 'enabled' in state && state.enabled };
      });
      if (updated.enabledAgain) onDeliveriesDue?.(id);
      return updated.view;
    },

    /** Deletes the endpoint with its deliveries and attempts. */
    async delete({ caller, id, expected }: { caller: Caller; id: string; expected?: Precondition<WebhookView> }): Promise<void> {
      assertAdmin(caller);
      if (expected) {
        // Checked with its row locked: no change slips between the check and the delete.
        return db.$transaction(async (tx) => {
          const [locked] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "WebhookEndpoint" WHERE id = ${lookupId('Webhook', id)} FOR UPDATE`;
          if (!locked) throw notFound(`Webhook ${id}`);
          assertPrecondition(expected, toWebhookView(await tx.webhookEndpoint.findUniqueOrThrow({ where: { id } })));
          await tx.webhookEndpoint.delete({ where: { id } });
        });
      }
      const deleted = await db.webhookEndpoint.deleteMany({ where: { id: lookupId('Webhook', id) } });
      if (deleted.count === 0) throw notFound(`Webhook ${id}`);
    },

    /** Queues a `webhook.test` ping (its own `evt_` id) to this endpoint only; the worker sends it. */
    async test({ caller, id }: { caller: Caller; id: string }): Promise<DeliveryView> {
      assertAdmin(caller);
      await findEndpoint(id);
      try {
        const queued = await enqueueTest(id);
        await attemptNow(id);
        return queued;
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
      const rows = await inOneSnapshot((tx) => tx.webhookDelivery.findMany({ where: { endpointId: id, ...seek }, orderBy, take, include: withAttempts }));
      const page = keysetPage(rows, limit);
      return { ...page, items: page.items.map(toDeliveryView) };
    },

    /**
     * One more attempt now (oneMoreAttempt), whatever the delivery's state (PENDING, SUCCEEDED or
     * FAILED). A delivery still waiting for its event to be published is left as it is (it goes
     * out right after).
     */
    async retryDelivery({ caller, id, deliveryId }: { caller: Caller; id: string; deliveryId: string }): Promise<DeliveryView> {
      assertAdmin(caller);
      await findEndpoint(id);
      lookupId('Delivery', deliveryId);
      // At most one of the two matches (in this order, the second cannot match what the first
      // made PENDING): a PENDING delivery gets its next attempt sooner, an ended one its one attempt.
      await db.webhookDelivery.updateMany({
        where: { id: deliveryId, endpointId: id, status: 'PENDING', ...oneMoreAttempt.where },
        data: oneMoreAttempt.data(),
      });
      await db.webhookDelivery.updateMany({
        where: { id: deliveryId, endpointId: id, status: { not: 'PENDING' } },
        data: oneMoreAttempt.data(scheduleEnd),
      });
      const delivery = await inOneSnapshot((tx) => tx.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId: id }, include: withAttempts }));
      if (!delivery) throw notFound(`Delivery ${deliveryId}`);
      await attemptNow(id);
      return toDeliveryView(delivery);
    },

    /**
     * Bulk retry, as Svix's recover: every FAILED delivery of the endpoint created at or after
     * `since` gets one more attempt now (oneMoreAttempt), in one statement. `since` may not be in
     * the future (nothing could match: surely a mistake). One older than the delivery log
     * retention is accepted and means "every FAILED delivery still kept": older ones are deleted.
     * On a disabled endpoint the recovered deliveries wait, due, until it is enabled again (the
     * worker sends only to enabled endpoints).
     */
    async recover({ caller, id, input }: { caller: Caller; id: string; input: unknown }): Promise<RecoveryView> {
      assertAdmin(caller);
      const { since } = parseWith(recoverWebhookInput, input, '');
      // Read as every date bound is (src/dates.ts): from its first whole millisecond; before year 1
      // it bounds nothing (every FAILED delivery still kept).
      if (firstMillisecond(since) > Date.now()) throw badInput('since', 'must not be in the future');
      const from = lowerBound(since);
      await findEndpoint(id);
      const { count } = await db.webhookDelivery.updateMany({
        where: { endpointId: id, status: 'FAILED', ...(from ? { createdAt: { gte: from } } : {}) },
        data: oneMoreAttempt.data(scheduleEnd),
      });
      if (count) await attemptNow(id);
      return { count };
    },

    /**
     * A new signing secret. The one it replaces keeps signing deliveries beside it (the new one
     * first) for PREVIOUS_SECRET_TTL_MS, so receivers can switch without losing a delivery.
     *
     * Rotating again within those 24 hours: the secret being replaced (the one the last rotation
     * made) becomes previousSecret, with a new 24 hours, and the one before it stops verifying at
     * once. Deliveries carry at most two signatures, and the secret a receiver most likely still
     * uses is the one it was last given; an admin rotating twice in a row is usually replacing a
     * secret that leaked, and then the oldest one must not stay valid.
     *
     * One statement, so two rotations at once cannot both move the same secret aside.
     */
    async rotateSecret({ caller, id }: { caller: Caller; id: string }): Promise<RotatedSecretView> {
      assertAdmin(caller);
      const secret = newSecret();
      // The expiry on the database's clock (now()), the one the worker's SQL compares leases and due times with.
      const rotated = await db.$executeRaw`
        UPDATE "WebhookEndpoint"
           SET "previousSecret" = secret, secret = ${secret},
               "previousSecretExpiresAt" = now() + ${PREVIOUS_SECRET_TTL_MS}::float8 * interval '1 millisecond', "updatedAt" = now()
         WHERE id = ${lookupId('Webhook', id)}`;
      if (rotated === 0) throw notFound(`Webhook ${id}`);
      return { secret };
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
