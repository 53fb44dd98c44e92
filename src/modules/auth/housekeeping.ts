// Deletes the sign-in records no request can use any more, on every instance as it starts and then
// every SESSION_HOUSEKEEPING_EVERY_MS (instances running at once only wait on each other's row
// locks). Nothing else deletes them, and every refresh, login and new key adds a row. Deleting
// changes no answer:
//
// - Refresh tokens past their expiry: presenting one is `Invalid refresh token` and logout ends
//   nothing with one, whether its row is there or not. A live session keeps its used tokens until
//   they expire, which reuse detection needs.
// - Sessions that ended (revoked or expired) more than ACCESS_TOKEN_TTL ago, with their refresh
//   tokens (ON DELETE CASCADE): none of their access tokens can be used by then, and the streams
//   of a revoked one ended within seconds of its revocation (credential-watch.ts).
// - API keys revoked more than a day ago: refused and never listed, row or not.
// - Idempotency keys older than their 24 hours (src/modules/idempotency/store.ts): an expired key
//   is a new key, row or not.
//
// In chunks, so a large backlog is not one long transaction; what a pass leaves waits for the next.
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { Logger } from '../../logger.js';
import type { Worker } from '../../worker.js';
import { DELETE_EXPIRED_KEYS_SQL as DELETE_EXPIRED_IDEMPOTENCY_KEYS_SQL } from '../idempotency/store.js';

export const SESSION_HOUSEKEEPING_EVERY_MS = 10 * 60_000;
/** Rows deleted per statement, and statements per kind per pass. */
const DELETE_CHUNK = 5_000;
const MAX_CHUNKS_PER_PASS = 20;

// Each reads one index: RefreshToken(expiresAt), Session(expiresAt), Session(revokedAt), ApiKey(revokedAt).
const DELETE_EXPIRED_TOKENS_SQL = `
DELETE FROM "RefreshToken" WHERE id IN (
  SELECT id FROM "RefreshToken" WHERE "expiresAt" < now() LIMIT ${DELETE_CHUNK})`;
const DELETE_EXPIRED_SESSIONS_SQL = `
DELETE FROM "Session" WHERE id IN (
  SELECT id FROM "Session" WHERE "expiresAt" < now() - $1::float8 * interval '1 second' LIMIT ${DELETE_CHUNK})`;
const DELETE_REVOKED_KEYS_SQL = `
DELETE FROM "ApiKey" WHERE id IN (
  SELECT id FROM "ApiKey" WHERE "revokedAt" < now() - interval '1 day' LIMIT ${DELETE_CHUNK})`;
const DELETE_REVOKED_SESSIONS_SQL = `
DELETE FROM "Session" WHERE id IN (
  SELECT id FROM "Session" WHERE "revokedAt" < now() - $1::float8 * interval '1 second' LIMIT ${DELETE_CHUNK})`;

/** Deletes what a pass may of one kind; how many rows. */
async function deleteInChunks(db: Database, sql: string, params: unknown[]): Promise<number> {
  let deleted = 0;
  for (let chunk = 0; chunk < MAX_CHUNKS_PER_PASS; chunk++) {
    const rows = await db.query<{ id: string }>(`${sql} RETURNING id`, params);
    deleted += rows.length;
    if (rows.length < DELETE_CHUNK) break;
  }
  return deleted;
}

/** One pass: what it deleted. */
export async function pruneSignIns(db: Database, accessTokenTtl: number): Promise<{ refreshTokens: number; sessions: number; apiKeys: number; idempotencyKeys: number }> {
  const refreshTokens = await deleteInChunks(db, DELETE_EXPIRED_TOKENS_SQL, []);
  const sessions =
    (await deleteInChunks(db, DELETE_EXPIRED_SESSIONS_SQL, [accessTokenTtl])) + (await deleteInChunks(db, DELETE_REVOKED_SESSIONS_SQL, [accessTokenTtl]));
  const apiKeys = await deleteInChunks(db, DELETE_REVOKED_KEYS_SQL, []);
  let idempotencyKeys = 0;
  for (let chunk = 0; chunk < MAX_CHUNKS_PER_PASS; chunk++) {
    const rows = await db.query(DELETE_EXPIRED_IDEMPOTENCY_KEYS_SQL, [DELETE_CHUNK]);
    idempotencyKeys += rows.length;
    if (rows.length < DELETE_CHUNK) break;
  }
  return { refreshTokens, sessions, apiKeys, idempotencyKeys };
}

export function createSessionHousekeeping({ db, config, log }: { db: Database; config: Pick<Config, 'accessTokenTtl'>; log: Logger }): Worker {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;

  async function pass(): Promise<void> {
    if (stopped) return;
    try {
      const deleted = await pruneSignIns(db, config.accessTokenTtl);
      if (deleted.refreshTokens || deleted.sessions || deleted.apiKeys || deleted.idempotencyKeys) {
        log.info(deleted, 'expired refresh tokens, ended sessions, revoked API keys and expired idempotency keys deleted');
      }
    } catch (error) {
      log.warn({ err: error }, 'session housekeeping failed');
    }
    if (!stopped) timer = setTimeout(() => (running = pass()), SESSION_HOUSEKEEPING_EVERY_MS);
  }

  return {
    start(): void {
      stopped = false;
      running = pass();
    },
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
