// API keys for the client library: `lp_` + 32 random bytes (base64url), shown once at creation
// and stored only as their SHA-256. A key acts as its owner wherever a token is accepted (the
// lookup is in auth/service.ts). Every key belongs to one user: nobody, not even an ADMIN, sees
// or revokes another user's keys (they are answered 404, as unknown ones).
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Caller } from '../auth/caller.js';
import type { CredentialWatch } from '../auth/credential-watch.js';
import { lockUser, type Db } from '../../db/client.js';
import { AppError, assertPrecondition, notFound, type Precondition } from '../../errors.js';
import type { ApiKey } from '../../generated/prisma/client.js';
import { parseWith } from '../../input.js';
import { lookupId, newId } from '../../ids.js';

export const API_KEY_PREFIX = 'lp_';
/** How many characters after `lp_` are kept for display. */
export const DISPLAY_PREFIX_LENGTH = 8;

/**
 * How many keys a user may have live (not revoked) at once. Without a bound, anyone with an account
 * could add keys at their request budget for good, and the list that shows them all is unpaged.
 */
export const MAX_LIVE_API_KEYS = 100;

/** SHA-256 hex: what is stored and looked up. */
export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');
const newKey = () => `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;

export const createApiKeyInput = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').describe('What the key is for (1-100 characters)'),
});

export const apiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe('The first 8 characters after `lp_`, to tell keys apart'),
  createdAt: z.iso.datetime().describe('ISO 8601 UTC'),
  lastUsedAt: z.iso.datetime().nullable().describe('ISO 8601 UTC, updated at most once a minute; null when never used'),
});
export type ApiKeyView = z.infer<typeof apiKeyView>;
export const apiKeyList = z.object({ items: z.array(apiKeyView) });
export const createdApiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  key: z.string().describe('`lp_…`: the key itself, shown only in this response'),
  createdAt: z.iso.datetime().describe('ISO 8601 UTC'),
});
export type CreatedApiKeyView = z.infer<typeof createdApiKeyView>;

const toApiKeyView = (k: ApiKey): ApiKeyView => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
});

export function createApiKeyService({ db, credentials }: { db: Db; credentials?: Pick<CredentialWatch, 'checkNow'> }) {
  return {
    /**
     * A new key of the caller's; the response is the only place the key appears. 409 when the
     * caller already has MAX_LIVE_API_KEYS live ones: their user row is locked while counting, so
     * concurrent creations cannot all pass the count.
     */
    async create({ caller, input }: { caller: Caller; input: unknown }): Promise<CreatedApiKeyView> {
      const { name } = parseWith(createApiKeyInput, input, '');
      const key = newKey();
      const row = await db.$transaction(async (tx) => {
        await lockUser(tx, caller.userId);
        const live = await tx.apiKey.count({ where: { userId: caller.userId, revokedAt: null } });
        if (live >= MAX_LIVE_API_KEYS) {
          throw new AppError('CONFLICT', `At most ${MAX_LIVE_API_KEYS} API keys can be live at once: revoke one first`, {
            details: { limit: MAX_LIVE_API_KEYS },
          });
        }
        return tx.apiKey.create({
          data: {
            id: newId('key'),
            userId: caller.userId,
            name,
            keyHash: hashApiKey(key),
            prefix: key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + DISPLAY_PREFIX_LENGTH),
          },
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

    /** Revokes one of the caller's keys: it stops working at once. `expected`: checked against its view with its row locked. */
    async revoke({ caller, id, expected }: { caller: Caller; id: string; expected?: Precondition<ApiKeyView> }): Promise<void> {
      if (expected) {
        await db.$transaction(async (tx) => {
          const [locked] = await tx.$queryRaw<{ id: string }[]>`
            SELECT id FROM "ApiKey" WHERE id = ${lookupId('API key', id)} AND "userId" = ${caller.userId} AND "revokedAt" IS NULL FOR UPDATE`;
          if (!locked) throw notFound(`API key ${id}`);
          assertPrecondition(expected, toApiKeyView(await tx.apiKey.findUniqueOrThrow({ where: { id } })));
          await tx.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
        });
        credentials?.checkNow();
        return;
      }
      const revoked = await db.apiKey.updateMany({
        where: { id: lookupId('API key', id), userId: caller.userId, revokedAt: null },
        data: { revokedAt: new Date() },
      });
      if (revoked.count === 0) throw notFound(`API key ${id}`);
      credentials?.checkNow(); // the streams it opened end at once
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
