// ADMIN management of webhook endpoints: create, list, read, change, delete.
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { assertPrecondition, notFound, type Precondition } from '../../errors.js';
import type { WebhookEndpoint } from '../../generated/prisma/client.js';
import { lookupId, newId } from '../../ids.js';
import type { Caller } from '../auth/caller.js';
import { assertAdmin } from '../auth/roles.js';
import type { Write } from '../events/write.js';
import type { CreateWebhookInput, UpdateWebhookInput } from './inputs.js';
import { newSecret } from './signing-secret.js';
import { assertDeliverableUrl } from './url-guard.js';
import { toWebhookView, type CreatedWebhookView, type WebhookView } from './views.js';

/** Why an endpoint is disabled when an ADMIN turns it off by hand. */
export const DISABLED_BY_ADMIN = 'Disabled by an administrator';

/** The endpoint, or NOT_FOUND. */
export async function findEndpoint(db: Db, id: string): Promise<WebhookEndpoint> {
  const endpoint = await db.webhookEndpoint.findUnique({ where: { id: lookupId('Webhook', id) } });
  if (!endpoint) throw notFound(`Webhook ${id}`);
  return endpoint;
}

export interface EndpointDeps {
  db: Db;
  config: Config;
  write: Write;
  /** Told when an endpoint is enabled again: its due deliveries can go out at once. */
  onDeliveriesDue?: (endpointId: string) => void;
}

export function createEndpoints({ db, config, write, onDeliveriesDue }: EndpointDeps) {
  const allowPrivate = () => config.webhook.allowPrivateTargets;

  return {
    /** The new endpoint, with its signing secret (the only time the secret is shown). */
    async create({ caller, input }: { caller: Caller; input: CreateWebhookInput }): Promise<CreatedWebhookView> {
      assertAdmin(caller);
      await assertDeliverableUrl(input.url, allowPrivate());
      const endpoint = await db.webhookEndpoint.create({
        data: { id: newId('whk'), url: input.url, events: input.events, description: input.description ?? null, secret: newSecret() },
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
      return toWebhookView(await findEndpoint(db, id));
    },

    /**
     * Changes the given fields. `enabled: true` on a disabled endpoint re-enables it and clears
     * disabledReason and failingSince; `enabled: false` on an enabled endpoint records that an
     * ADMIN disabled it.
     */
    async update({ caller, id, input, expected }: { caller: Caller; id: string; input: UpdateWebhookInput; expected?: Precondition<WebhookView> }): Promise<WebhookView> {
      assertAdmin(caller);
      if (input.url !== undefined) await assertDeliverableUrl(input.url, allowPrivate());
      const { enabled, ...fields } = input;
      const updated = await write(async (tx) => {
        // Locked as it is read: what `enabled` changes depends on the current state, so neither a
        // concurrent PATCH (whose `enabled` would be lost) nor a DELETE (the update would fail)
        // may come between this read and the update. A DELETE that committed first: 404.
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
        return write(async (tx) => {
          const [locked] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "WebhookEndpoint" WHERE id = ${lookupId('Webhook', id)} FOR UPDATE`;
          if (!locked) throw notFound(`Webhook ${id}`);
          assertPrecondition(expected, toWebhookView(await tx.webhookEndpoint.findUniqueOrThrow({ where: { id } })));
          await tx.webhookEndpoint.delete({ where: { id } });
        });
      }
      const deleted = await db.webhookEndpoint.deleteMany({ where: { id: lookupId('Webhook', id) } });
      if (deleted.count === 0) throw notFound(`Webhook ${id}`);
    },
  };
}
