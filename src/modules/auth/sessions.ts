// Sessions: a login and the tokens issued from it. Started by login or registration, renewed by
// refresh (with its grace for retries), ended by logout, reuse of a refresh token, or its user.
import type { Db } from '../../db/client.js';
import { lockUser } from '../../db/lock-user.js';
import { AppError, assertPrecondition, notFound, type Precondition } from '../../errors.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { lookupId, newId } from '../../ids.js';
import type { Write } from '../events/write.js';
import type { Caller } from './caller.js';
import type { CredentialWatch } from './credential-watch.js';
import type { SessionView, TokenPair } from './schemas.js';
import { hashRefreshToken, type Tokens } from './tokens.js';

/**
 * How many sessions a user keeps live: a login past it ends the least recently used. It bounds
 * the unpaged session list (and every alias of GraphQL `sessions`) however many logins are made.
 */
export const MAX_LIVE_SESSIONS = 100;

/**
 * How long after its first exchange a refresh token may be presented again and still get a fresh
 * pair of its session: two tabs refreshing at once, or a client retrying after the answer was
 * lost, must not sign the user out. Past it, presenting the token again is reuse (a copy of it in
 * someone else's hands) and ends the session. Measured on the database's clock, which every
 * instance shares.
 */
export const REFRESH_REUSE_GRACE_MS = 10_000;

/** Where a new session comes from (recorded with it). */
export interface SessionOrigin {
  userAgent?: string | undefined;
}

const invalidRefreshToken = () => new AppError('INVALID_CREDENTIALS', 'Invalid refresh token');

type SessionRow = { id: string; createdAt: Date; lastUsedAt: Date | null; userAgent: string | null };
const sessionFields = { id: true, createdAt: true, lastUsedAt: true, userAgent: true } as const;
const toSessionView = (r: SessionRow, caller: Caller): SessionView => ({
  id: r.id,
  createdAt: r.createdAt.toISOString(),
  lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  userAgent: r.userAgent,
  current: r.id === caller.sessionId,
});

/** A User-Agent as stored: printable, at most 512 characters (PostgreSQL text cannot hold NUL). */
function cleanUserAgent(userAgent: string | undefined): string | null {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const text = userAgent?.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 512);
  return text || null;
}

interface Deps {
  db: Db;
  write: Write;
  tokens: Tokens;
  refreshTokenTtl: number;
  /** Told when a session is revoked here, so the streams it opened end at once. */
  credentials?: Pick<CredentialWatch, 'checkNow'> | undefined;
}

export type Sessions = ReturnType<typeof createSessions>;

export function createSessions({ db, write, tokens, refreshTokenTtl, credentials }: Deps) {
  /** Ends the live sessions `where` selects, with `reason`; how many it ended. */
  async function revokeWhere(where: Prisma.SessionWhereInput, reason: string): Promise<number> {
    const { count } = await db.session.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: new Date(), revokedReason: reason } });
    // Their open streams end now on this instance (credential-watch.ts), elsewhere within seconds.
    if (count) credentials?.checkNow();
    return count;
  }

  return {
    /**
     * Starts a session in `tx`, and ends the user's least recently used ones beyond
     * MAX_LIVE_SESSIONS. The user's row is locked first, so concurrent logins of one user cannot
     * each leave one more.
     */
    async start(tx: Prisma.TransactionClient, userId: string, { userAgent }: SessionOrigin): Promise<TokenPair> {
      const now = new Date();
      await lockUser(tx, userId);
      await tx.$executeRaw`
        UPDATE "Session" SET "revokedAt" = now(), "revokedReason" = ${`more than ${MAX_LIVE_SESSIONS} live sessions`}
         WHERE id IN (SELECT id FROM "Session"
                       WHERE "userId" = ${userId} AND "revokedAt" IS NULL AND "expiresAt" > now()
                       ORDER BY COALESCE("lastUsedAt", "createdAt") DESC, id DESC
                       OFFSET ${MAX_LIVE_SESSIONS - 1})`;
      const session = await tx.session.create({
        data: {
          id: newId('ses'),
          userId,
          expiresAt: new Date(now.getTime() + refreshTokenTtl * 1000),
          userAgent: cleanUserAgent(userAgent),
          // One clock for both: a new session's lastUsedAt is never before its createdAt.
          createdAt: now,
          lastUsedAt: now,
        },
      });
      return tokens.issuePair(tx, userId, session.id);
    },

    /**
     * Exchanges a refresh token for a new pair of its session. The same token again within
     * REFRESH_REUSE_GRACE_MS of its first exchange gets another new pair and revokes nothing;
     * later, it is reuse and revokes its whole session.
     */
    async refresh(refreshToken: string): Promise<TokenPair> {
      const stored = await db.refreshToken.findUnique({
        where: { tokenHash: hashRefreshToken(refreshToken) },
        select: { id: true, sessionId: true, expiresAt: true, session: { select: { userId: true, revokedAt: true } } },
      });
      if (!stored || stored.session.revokedAt || stored.expiresAt <= new Date()) throw invalidRefreshToken();
      const pair = await write(async (tx) => {
        // One conditional update decides, on the database's clock: the first exchange records
        // when it happened, and one within the grace finds that time recent. Concurrent exchanges
        // (on any instance) wait for each other's row lock and see the time the first recorded.
        const claimed = await tx.$executeRaw`
          UPDATE "RefreshToken" SET "usedAt" = COALESCE("usedAt", now())
           WHERE id = ${stored.id}
             AND ("usedAt" IS NULL OR "usedAt" > now() - ${REFRESH_REUSE_GRACE_MS}::float8 * interval '1 millisecond')`;
        if (claimed === 0) return null;
        return tokens.issuePair(tx, stored.session.userId, stored.sessionId);
      });
      if (!pair) {
        await revokeWhere({ id: stored.sessionId }, 'refresh token reuse');
        throw invalidRefreshToken();
      }
      return pair;
    },

    /**
     * Ends the session of a refresh token; its access tokens stop working at once. Always
     * succeeds. An expired token ends nothing, as an unknown one: housekeeping deletes expired
     * tokens, and the answer must not depend on whether it has run yet.
     */
    async logout(refreshToken: string): Promise<void> {
      const stored = await db.refreshToken.findUnique({ where: { tokenHash: hashRefreshToken(refreshToken) }, select: { sessionId: true, expiresAt: true } });
      if (stored && stored.expiresAt > new Date()) await revokeWhere({ id: stored.sessionId }, 'logout');
    },

    /** The caller's live sessions (not revoked, not expired), newest first; `current` is the caller's own. */
    async list({ caller }: { caller: Caller }): Promise<{ items: SessionView[] }> {
      const rows = await db.session.findMany({
        where: { userId: caller.userId, revokedAt: null, expiresAt: { gt: new Date() } },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        select: sessionFields,
      });
      return { items: rows.map((r) => toSessionView(r, caller)) };
    },

    /** One of the caller's live sessions, as `list` shows it; anyone else's, unknown or ended: 404. */
    async get({ caller, id }: { caller: Caller; id: string }): Promise<SessionView> {
      const row = await db.session.findFirst({
        where: { id: lookupId('Session', id), userId: caller.userId, revokedAt: null, expiresAt: { gt: new Date() } },
        select: sessionFields,
      });
      if (!row) throw notFound('Session');
      return toSessionView(row, caller);
    },

    /**
     * Ends one of the caller's sessions: its access and refresh tokens stop working at once, on
     * every instance (each request reads its session). Someone else's, unknown or already ended:
     * 404. `expected`: checked against its view with its row locked, so no use that moves
     * lastUsedAt slips between.
     */
    async revoke({ caller, id, expected }: { caller: Caller; id: string; expected?: Precondition<SessionView> | undefined }): Promise<void> {
      if (!expected) {
        const ended = await revokeWhere({ id: lookupId('Session', id), userId: caller.userId, expiresAt: { gt: new Date() } }, 'revoked by its user');
        if (ended === 0) throw notFound('Session');
        return;
      }
      await write(async (tx) => {
        const [row] = await tx.$queryRaw<SessionRow[]>`
          SELECT id, "createdAt", "lastUsedAt", "userAgent" FROM "Session"
           WHERE id = ${lookupId('Session', id)} AND "userId" = ${caller.userId} AND "revokedAt" IS NULL AND "expiresAt" > now()
             FOR UPDATE`;
        if (!row) throw notFound('Session');
        assertPrecondition(expected, toSessionView({ ...row, createdAt: new Date(row.createdAt), lastUsedAt: row.lastUsedAt && new Date(row.lastUsedAt) }, caller));
        await tx.session.update({ where: { id }, data: { revokedAt: new Date(), revokedReason: 'revoked by its user' } });
      });
      credentials?.checkNow();
    },
  };
}
