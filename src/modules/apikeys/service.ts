// API keys for the client library (keys.ts says what a key is; auth/authenticate.ts accepts them
// wherever a token is accepted). Every key belongs to one user: nobody, not even an ADMIN, sees
// or revokes another user's keys (they are answered 404, as unknown ones).
import type { Caller } from '../auth/caller.js';
import type { CredentialWatch } from '../auth/credential-watch.js';
import type { Db } from '../../db/client.js';
import { lockUser } from '../../db/lock-user.js';
import { AppError, assertPrecondition, notFound, type Precondition } from '../../errors.js';
import type { ApiKey } from '../../generated/prisma/client.js';
import { lookupId, newId } from '../../ids.js';
import type { Write } from '../events/write.js';
import { displayPrefix, hashApiKey, newApiKey } from './keys.js';
import type { ApiKeyView, CreateApiKeyInput, CreatedApiKeyView } from './schemas.js';

/**
 * How many keys a user may have live (not revoked) at once. It bounds what an account can add at
 * its request budget, and the list that shows them all is unpaged.
 */
export const MAX_LIVE_API_KEYS = 100;

const toApiKeyView = (k: ApiKey): ApiKeyView => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
});

interface Deps {
  db: Db;
  write: Write;
  /** Told when a key is revoked here, so the streams it opened end at once. */
  credentials?: Pick<CredentialWatch, 'checkNow'>;
}

export function createApiKeyService({ db, write, credentials }: Deps) {
  return {
    /**
     * A new key of the caller's; the response is the only place the key appears. 409 when the
     * caller already has MAX_LIVE_API_KEYS live ones: their user row is locked while counting, so
     * concurrent creations cannot all pass the count.
     */
    async create({ caller, input: { name } }: { caller: Caller; input: CreateApiKeyInput }): Promise<CreatedApiKeyView> {
      const key = newApiKey();
      const row = await write(async (tx) => {
        await lockUser(tx, caller.userId);
        const live = await tx.apiKey.count({ where: { userId: caller.userId, revokedAt: null } });
        if (live >= MAX_LIVE_API_KEYS) {
          throw new AppError('CONFLICT', `At most ${MAX_LIVE_API_KEYS} API keys can be live at once: revoke one first`, {
            details: { limit: MAX_LIVE_API_KEYS },
          });
        }
        return tx.apiKey.create({
          data: { id: newId('key'), userId: caller.userId, name, keyHash: hashApiKey(key), prefix: displayPrefix(key) },
        });
      });
      return { id: row.id, name: row.name, key, createdAt: row.createdAt.toISOString() };
    },

    /** The caller's keys that are not revoked, newest first, without the keys themselves. */
    async list({ caller }: { caller: Caller }): Promise<{ items: ApiKeyView[] }> {
      const rows = await db.apiKey.findMany({
        where: { userId: caller.userId, revokedAt: null },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      });
      return { items: rows.map(toApiKeyView) };
    },

    /** One of the caller's keys that is not revoked, as `list` shows it; anyone else's, unknown or revoked: 404. */
    async get({ caller, id }: { caller: Caller; id: string }): Promise<ApiKeyView> {
      const row = await db.apiKey.findFirst({ where: { id: lookupId('API key', id), userId: caller.userId, revokedAt: null } });
      if (!row) throw notFound(`API key ${id}`);
      return toApiKeyView(row);
    },

    /**
     * Revokes one of the caller's keys: it, and the streams it opened, stop working at once.
     * `expected`: checked against its view with its row locked.
     */
    async revoke({ caller, id, expected }: { caller: Caller; id: string; expected?: Precondition<ApiKeyView> | undefined }): Promise<void> {
      if (expected) {
        await write(async (tx) => {
          const [locked] = await tx.$queryRaw<{ id: string }[]>`
            SELECT id FROM "ApiKey" WHERE id = ${lookupId('API key', id)} AND "userId" = ${caller.userId} AND "revokedAt" IS NULL FOR UPDATE`;
          if (!locked) throw notFound(`API key ${id}`);
          assertPrecondition(expected, toApiKeyView(await tx.apiKey.findUniqueOrThrow({ where: { id } })));
          await tx.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
        });
      } else {
        const revoked = await db.apiKey.updateMany({
          where: { id: lookupId('API key', id), userId: caller.userId, revokedAt: null },
          data: { revokedAt: new Date() },
        });
        if (revoked.count === 0) throw notFound(`API key ${id}`);
      }
      credentials?.checkNow();
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
