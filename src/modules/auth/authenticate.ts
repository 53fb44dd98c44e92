// Credentials to a Caller: a Bearer access token or an API key, checked against the database on
// every request, so a revoked session or key stops working at once.
import type { Database, Db } from '../../db/client.js';
import type { Logger } from '../../logger.js';
import { API_KEY_PREFIX, hashApiKey } from '../apikeys/keys.js';
import type { Caller, CallerAccount } from './caller.js';
import { lastUsedBefore, lastUsedRecorder } from './last-used.js';
import type { Tokens } from './tokens.js';

export type Authenticate = (authorization: string | undefined, apiKey?: string) => Promise<Caller | null>;

export function createAuthenticate({ db, query, tokens, log }: { db: Db; query: Database['query']; tokens: Tokens; log?: Logger | undefined }): Authenticate {
  const touchApiKey = lastUsedRecorder('API key', (id, now, before) =>
    db.apiKey.updateMany({ where: { id, OR: lastUsedBefore(before) }, data: { lastUsedAt: now } }), log);
  const touchSession = lastUsedRecorder('session', (id, now, before) =>
    db.session.updateMany({ where: { id, OR: lastUsedBefore(before) }, data: { lastUsedAt: now } }), log);

  /** The caller an API key (`lp_…`) acts for: its owner. null when unknown or revoked. */
  async function byApiKey(key: string): Promise<Caller | null> {
    // On every request made with a key: one direct query for the key and its owner, prepared.
    const [row] = await query<CallerAccount & { keyId: string; lastUsedAt: Date | null }>(
      `SELECT u.id, u.name, u.email, u.role, u.tier, u."createdAt", k.id AS "keyId", k."lastUsedAt"
         FROM "ApiKey" k JOIN "User" u ON u.id = k."userId"
        WHERE k."keyHash" = $1 AND k."revokedAt" IS NULL`,
      [hashApiKey(key)],
      { prepare: true },
    );
    if (!row) return null;
    const { keyId, lastUsedAt, ...user } = row;
    await touchApiKey(keyId, lastUsedAt === null ? null : new Date(lastUsedAt));
    return { userId: user.id, role: user.role, tier: user.tier, sessionId: keyId, user };
  }

  /** The caller of an access token: its session's user. null when invalid, expired or revoked. */
  async function byAccessToken(token: string): Promise<Caller | null> {
    const claims = await tokens.verifyAccessToken(token);
    if (!claims) return null;
    const { sub, sid, exp } = claims;
    // On every request made with a token: one direct query for the session and its user, prepared.
    const [row] = await query<CallerAccount & { revokedAt: Date | null; lastUsedAt: Date | null }>(
      `SELECT u.id, u.name, u.email, u.role, u.tier, u."createdAt", s."revokedAt", s."lastUsedAt"
         FROM "Session" s JOIN "User" u ON u.id = s."userId"
        WHERE s.id = $1 AND s."userId" = $2`,
      [sid, sub],
      { prepare: true },
    );
    if (!row || row.revokedAt) return null;
    const { revokedAt: _revoked, lastUsedAt, ...user } = row;
    await touchSession(sid, lastUsedAt === null ? null : new Date(lastUsedAt));
    return { userId: sub, role: user.role, tier: user.tier, sessionId: sid, expiresAt: exp * 1000, user };
  }

  /**
   * The Authorization header (a Bearer access token or API key), else the X-API-Key header (an
   * API key). null for no credentials and for invalid ones alike (malformed, bad signature, alg
   * none, expired, revoked, deleted user, unknown key).
   */
  return async (authorization, apiKey) => {
    if (!authorization) {
      const key = apiKey?.trim();
      return key?.startsWith(API_KEY_PREFIX) ? byApiKey(key) : null;
    }
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    if (!bearer) return null;
    return bearer.startsWith(API_KEY_PREFIX) ? byApiKey(bearer) : byAccessToken(bearer);
  };
}
