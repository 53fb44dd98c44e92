// Webhook signing secrets: a new one, and rotating to a new one while the old one still signs.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client.js';
import { notFound } from '../../errors.js';
import { lookupId } from '../../ids.js';
import type { Caller } from '../auth/caller.js';
import { assertAdmin } from '../auth/roles.js';
import type { RotatedSecretView } from './views.js';

/** How long a rotated-out secret still signs deliveries, beside the new one. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 3_600_000;

/** A Standard Webhooks signing secret: `whsec_` and the base64 of 32 random bytes. */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export function createSecretRotation({ db }: { db: Db }) {
  return {
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
