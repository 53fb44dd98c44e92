// The sign-in records' housekeeping, run by every instance as it starts and then every
// SESSION_HOUSEKEEPING_EVERY_MS (several instances at once only wait on each other's row locks).
//
// Every refresh adds a refresh token row, every login a session and every new API key a key, and
// nothing else deletes them: an account refreshing in a loop, at its address's request budget,
// would add 144,000 rows a day for good. This deletes what no request can use any more:
//
// - Refresh tokens past their expiry. Presenting one is `Invalid refresh token` whether its row is
//   there or not (refresh checks the expiry before reuse), and logout ends nothing with one
//   (service.ts), so deleting it changes no answer. A live session keeps its used tokens until
//   they expire, which is what reuse detection needs.
// - Sessions that ended (revoked, or expired) more than ACCESS_TOKEN_TTL ago, with their refresh
//   tokens (ON DELETE CASCADE). By then none of their access tokens can be used either way: a
//   revoked session's are refused at once, and an expired one's last access token has expired
//   too. The streams a revoked session opened ended within seconds of its revocation
//   (credential-watch.ts), long before this.
// - API keys revoked more than a day ago. A revoked key is refused, and never listed, whether its
//   row is there or not; its streams ended within seconds of the revocation.
// - Idempotency keys older than their 24 hours (src/modules/idempotency/store.ts). An expired key
//   is a new key whether its row is there or not.
//
// In chunks, so a first pass over a large backlog does not hold one long transaction; what a pass
// leaves waits for the next one.
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
