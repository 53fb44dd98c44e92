import { createHash, randomBytes, webcrypto } from 'node:crypto';
import { SignJWT, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { Caller, CallerAccount } from './caller.js';
import type { Config } from '../../config.js';
import { lockUser, type Database, type Db } from '../../db/client.js';
import { AppError, assertPrecondition, conflict, notFound, type Precondition } from '../../errors.js';
import { Prisma } from '../../generated/prisma/client.js';
import { parseWith } from '../../input.js';
import { lookupId, newId } from '../../ids.js';
import type { Logger } from '../../logger.js';
import { API_KEY_PREFIX, hashApiKey } from '../apikeys/service.js';
import { recordEvent, type OnCommitted } from '../events/outbox.js';
import type { CredentialWatch } from './credential-watch.js';
import { toMe, type MeView } from '../users/service.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { loginInput, refreshInput, registerInput, type TokenPair } from './schemas.js';

/** What a session's view is made of. */
const sessionFields = { id: true, createdAt: true, lastUsedAt: true, userAgent: true } as const;
const toSessionView = (r: { id: string; createdAt: Date; lastUsedAt: Date | null; userAgent: string | null }, caller: Caller): SessionView => ({
  id: r.id,
  createdAt: r.createdAt.toISOString(),
  lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  userAgent: r.userAgent,
  current: r.id === caller.sessionId,
});

/** Where a new session comes from (recorded with it). */
export interface SessionOrigin {
  userAgent?: string | undefined;
}

export const sessionView = z.object({
  id: z.string().describe('`ses_…`'),
  createdAt: z.iso.datetime().describe('ISO 8601 UTC: the login (or registration) that started it'),
  lastUsedAt: z.iso.datetime().nullable().describe('ISO 8601 UTC: when one of its tokens was last used, updated at most once a minute'),
  userAgent: z.string().nullable().describe('The User-Agent of the login that started it'),
  current: z.boolean().describe('Whether this is the session of the token making the request'),
});
export type SessionView = z.infer<typeof sessionView>;
export const sessionList = z.object({ items: z.array(sessionView) });

/** A User-Agent as stored: printable, at most 512 characters (PostgreSQL text cannot hold NUL). */
function cleanUserAgent(userAgent: string | undefined): string | null {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const text = userAgent?.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 512);
  return text || null;
}

export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
/** How long an attempt that finds the window full of attempts still being checked waits for them, and how often it looks. */
const CLAIM_MAX_WAIT_MS = 10_000;
const CLAIM_POLL_MS = 50;
/** An attempt still pending after this long was left by a process that stopped mid-check: it counts as a failure. */
const STALE_ATTEMPT_MS = 60_000;
/**
 * How many sessions a user keeps live: a login past it ends the least recently used. Without a
 * bound, logins (at the login limit, from many addresses) could grow the unpaged session list,
 * and every alias of GraphQL `sessions`, without end.
 */
export const MAX_LIVE_SESSIONS = 100;
/** An API key's or a session's lastUsedAt is written at most this often. */
export const LAST_USED_INTERVAL_MS = 60_000;
/**
 * How long after its first exchange a refresh token may be presented again and still get a fresh
 * pair of its session: two tabs refreshing at once, or a client retrying after the answer was
 * lost, must not sign the user out. Past it, presenting the token again is reuse (a copy of it
 * in someone else's hands) and ends the session. Measured on the database's clock, which every
 * instance shares.
 */
export const REFRESH_REUSE_GRACE_MS = 10_000;

const invalidCredentials = () => new AppError('INVALID_CREDENTIALS', 'Invalid email or password');
const invalidRefreshToken = () => new AppError('INVALID_CREDENTIALS', 'Invalid refresh token');
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** A signing key's public name (`kid`): 12 characters of its SHA-256, which tell keys apart and reveal nothing usable. */
export const keyId = (raw: Uint8Array) => createHash('sha256').update(raw).digest('base64url').slice(0, 12);

interface Deps {
  db: Db;
  query: Database['query'];
  config: Pick<Config, 'jwtKeys' | 'accessTokenTtl' | 'refreshTokenTtl'>;
  log?: Logger;
  onCommitted?: OnCommitted;
  /** Told when a session is revoked here, so the streams it opened end at once. */
  credentials?: Pick<CredentialWatch, 'checkNow'>;
}

export function createAuthService({ db, query, config, log, onCommitted, credentials }: Deps) {
  // CryptoKeys imported once (jose would otherwise import one on every sign and verify), each named
  // by its `kid`: the first key signs, every key verifies, so keys rotate by listing the new one
  // first and dropping the old one once its tokens have expired (or at once, to end them).
  const keys = Promise.all(
    config.jwtKeys.map(async (raw) => ({
      kid: keyId(raw),
      key: await webcrypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']),
    })),
  );
  /** The key a token names; a token from before `kid`s (none named) is checked with the signing key. */
  const keyFor: JWTVerifyGetKey = async ({ kid }) => {
    const all = await keys;
    const found = kid === undefined ? all[0] : all.find((k) => k.kid === kid);
    if (!found) throw new Error('unknown signing key');
    return found.key;
  };
  // Tokens whose signature was verified, keyed by the whole token (so a forged one never gets
  // in): clients send one token for many requests. `exp` is still checked on every use, and
  // revocation is checked against the database every time.
  const verifiedTokens = new LRUCache<string, { sub: string; sid: string; exp: number }>({ max: 10_000 });

  async function verifyAccessToken(token: string): Promise<{ sub: string; sid: string; exp: number } | null> {
    const cached = verifiedTokens.get(token);
    if (cached) return cached.exp > Date.now() / 1000 ? cached : null;
    try {
      const { payload } = await jwtVerify(token, keyFor, { algorithms: ['HS256'], requiredClaims: ['sub', 'exp', 'iat'] });
      if (typeof payload.sid !== 'string' || !payload.sub || typeof payload.exp !== 'number') return null;
      const claims = { sub: payload.sub, sid: payload.sid, exp: payload.exp };
      verifiedTokens.set(token, claims);
      return claims;
    } catch {
      return null;
    }
  }
  /**
   * Records that an API key or a session was used, at most once a minute each: this instance
   * remembers when it last wrote (or saw) each one's lastUsedAt, and the write is conditional, so
   * concurrent instances write it once a minute too. Not one write per request.
   */
  function lastUsedRecorder(what: string, write: (id: string, now: Date, before: Date) => Promise<unknown>) {
    const touchedAt = new LRUCache<string, number>({ max: 10_000 });
    return async (id: string, lastUsedAt: Date | null): Promise<void> => {
      const now = Date.now();
      const known = Math.max(lastUsedAt?.getTime() ?? 0, touchedAt.get(id) ?? 0);
      if (now - known < LAST_USED_INTERVAL_MS) return;
      touchedAt.set(id, now);
      try {
        await write(id, new Date(now), new Date(now - LAST_USED_INTERVAL_MS));
      } catch (error) {
        // Bookkeeping only: the request goes on.
        log?.warn({ err: error, id }, `could not record ${what} use`);
      }
    };
  }
  const lastUsedOr = (before: Date) => [{ lastUsedAt: null }, { lastUsedAt: { lt: before } }];
  const touchApiKey = lastUsedRecorder('API key', (id, now, before) =>
    db.apiKey.updateMany({ where: { id, OR: lastUsedOr(before) }, data: { lastUsedAt: now } }),
  );
  const touchSession = lastUsedRecorder('session', (id, now, before) =>
    db.session.updateMany({ where: { id, OR: lastUsedOr(before) }, data: { lastUsedAt: now } }),
  );

  /** The caller an API key (`lp_…`) acts for: its owner. null when unknown or revoked. */
  async function authenticateApiKey(key: string): Promise<Caller | null> {
    // One direct query for the key and its owner's account, prepared (Database.query).
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

  async function signAccessToken(userId: string, sessionId: string): Promise<{ token: string; exp: number }> {
    const iat = Math.floor(Date.now() / 1000);
    // jti: every token is distinct, even two issued for one session in the same second.
    const [signing] = await keys;
    const exp = iat + config.accessTokenTtl;
    const token = await new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: signing!.kid })
      .setJti(randomBytes(12).toString('base64url'))
      .setSubject(userId)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(signing!.key);
    return { token, exp };
  }

  /**
   * Issues a refresh token in `tx` for the session and an access token naming the session. The
   * session lives until both have expired: with ACCESS_TOKEN_TTL above REFRESH_TOKEN_TTL it used
   * to end with the refresh token while its access token still worked, and then it was neither
   * listed nor revocable (404), so nothing could end that token before its `exp`.
   */
  async function issuePair(tx: Prisma.TransactionClient, userId: string, sessionId: string): Promise<TokenPair> {
    const refreshToken = `rt_${randomBytes(32).toString('base64url')}`;
    const refreshExpiresAt = new Date(Date.now() + config.refreshTokenTtl * 1000);
    await tx.refreshToken.create({
      data: { id: newId('rt'), sessionId, tokenHash: sha256(refreshToken), expiresAt: refreshExpiresAt },
    });
    const access = await signAccessToken(userId, sessionId);
    const expiresAt = new Date(Math.max(refreshExpiresAt.getTime(), access.exp * 1000));
    await tx.session.update({ where: { id: sessionId }, data: { expiresAt } });
    return {
      token: access.token,
      expiresIn: config.accessTokenTtl,
      refreshToken,
      refreshExpiresIn: config.refreshTokenTtl,
    };
  }

  /**
   * Starts a session, and ends the user's least recently used ones beyond MAX_LIVE_SESSIONS (their
   * streams end within the credential watch's interval). The user's row is locked first, so
   * concurrent logins of one user cannot each leave one more.
   */
  async function startSession(tx: Prisma.TransactionClient, userId: string, { userAgent }: SessionOrigin): Promise<TokenPair> {
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
        expiresAt: new Date(now.getTime() + config.refreshTokenTtl * 1000),
        userAgent: cleanUserAgent(userAgent),
        // One clock for both: the database's default put createdAt after (or, on another host,
        // anywhere near) the lastUsedAt stamped here.
        createdAt: now,
        lastUsedAt: now,
      },
    });
    return issuePair(tx, userId, session.id);
  }

  /** Ends the live sessions `where` selects, with `reason`; how many it ended. */
  async function revokeSessions(where: Prisma.SessionWhereInput, reason: string): Promise<number> {
    const { count } = await db.session.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: new Date(), revokedReason: reason } });
    // Their open subscriptions end now on this instance (credential-watch.ts), elsewhere within seconds.
    if (count) credentials?.checkNow();
    return count;
  }
  const revokeSession = (sessionId: string, reason: string) => revokeSessions({ id: sessionId }, reason);

  /**
   * Records a login attempt for `email` before the password is checked (pending), so that
   * concurrent guesses cannot all slip under the limit: an attempt goes on to its password check
   * only while fewer than LOGIN_MAX_FAILURES attempts recorded before it are in the window, hence
   * at most that many checks per window, however many arrive at once. One that finds the window
   * full of attempts still being checked waits for them (a right password among them clears the
   * failures, and then it goes on); it is refused with 429 (and forgotten) only once
   * LOGIN_MAX_FAILURES of them are real failures. Counting pending attempts as failures refused
   * concurrent logins with the right password, of one account, with "Too many failed login attempts".
   * Returns the attempt's id: a wrong password keeps it as a failure, a right one clears them.
   */
  async function claimAttempt(email: string): Promise<bigint> {
    const attempt = await db.loginFailure.create({ data: { email, pending: true }, select: { id: true } });
    const waitUntil = Date.now() + CLAIM_MAX_WAIT_MS;
    // Failures older than the window count for nothing, whoever's: each attempt forgets them, so
    // the table holds one window of attempts (failures for e-mails tried once stayed forever).
    // Read through the index on `at`: without it, every login read the whole table (49 ms at a
    // million rows, against 0.1 ms).
    await db.loginFailure.deleteMany({ where: { at: { lte: new Date(Date.now() - LOGIN_FAILURE_WINDOW_MS) } } });
    for (;;) {
      const since = new Date(Date.now() - LOGIN_FAILURE_WINDOW_MS);
      const before = await db.loginFailure.findMany({
        where: { email, at: { gt: since }, id: { lt: attempt.id } },
        orderBy: { id: 'desc' },
        take: LOGIN_MAX_FAILURES,
        select: { at: true },
      });
      if (before.length < LOGIN_MAX_FAILURES) return attempt.id;
      // An attempt pending for longer than any check takes was left by a process that stopped: a failure.
      const stale = new Date(Date.now() - STALE_ATTEMPT_MS);
      const failures = await db.loginFailure.findMany({
        where: { email, at: { gt: since }, id: { lt: attempt.id }, OR: [{ pending: false }, { at: { lt: stale } }] },
        orderBy: { id: 'desc' },
        take: LOGIN_MAX_FAILURES,
        select: { at: true },
      });
      if (failures.length >= LOGIN_MAX_FAILURES || Date.now() >= waitUntil) {
        await db.loginFailure.deleteMany({ where: { id: attempt.id } });
        // The window frees when the oldest of the last LOGIN_MAX_FAILURES failures leaves it.
        const oldest = Math.min(...(failures.length ? failures : before).map((r) => r.at.getTime()));
        const retryAfter = Math.min(
          LOGIN_FAILURE_WINDOW_MS / 1000,
          Math.max(1, Math.ceil((oldest + LOGIN_FAILURE_WINDOW_MS - Date.now()) / 1000)),
        );
        throw new AppError('RATE_LIMITED', 'Too many failed login attempts', {
          headers: { 'retry-after': String(retryAfter) },
          details: { retryAfter },
        });
      }
      await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
    }
  }

  /**
   * A wrong password: the attempt stays, as a failure. (A right password clears only settled
   * failures and its own attempt, so a pending one is still there to settle.)
   */
  async function keepAsFailure(attempt: bigint): Promise<void> {
    await db.loginFailure.updateMany({ where: { id: attempt }, data: { pending: false } });
  }

  return {
    async login(input: unknown, origin: SessionOrigin = {}): Promise<TokenPair> {
      const { email, password } = parseWith(loginInput, input, '');
      const attempt = await claimAttempt(email);
      let wrongPassword = false;
      try {
        const user = await db.user.findUnique({ where: { email }, select: { id: true, passwordHash: true } });
        if (!(await verifyPassword(user?.passwordHash, password)) || !user) {
          // A wrong password (or an unknown e-mail): the recorded attempt stays, as the failure.
          wrongPassword = true;
          await keepAsFailure(attempt);
          throw invalidCredentials();
        }
        return await db.$transaction(async (tx) => {
          // The failures go, and this attempt; others still being checked stay, to settle themselves.
          await tx.loginFailure.deleteMany({ where: { email, OR: [{ pending: false }, { id: attempt }] } });
          return startSession(tx, user.id, origin);
        });
      } catch (error) {
        // Anything else (e.g. the database failing) is not a failed attempt.
        if (!wrongPassword) await db.loginFailure.deleteMany({ where: { id: attempt } }).catch(() => undefined);
        throw error;
      }
    },

    async register(input: unknown, origin: SessionOrigin = {}): Promise<TokenPair & { user: MeView }> {
      const { email, password, name } = parseWith(registerInput, input, '');
      const passwordHash = await hashPassword(password);
      try {
        const { event, ...registered } = await db.$transaction(async (tx) => {
          const user = await tx.user.create({ data: { id: newId('usr'), email, name, passwordHash } });
          const event = await recordEvent(tx, 'user.created', { userId: user.id });
          return { event, user: toMe(user), ...(await startSession(tx, user.id, origin)) };
        });
        await onCommitted?.([event.payload]);
        return registered;
      } catch (error) {
        if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
          throw conflict('An account with this email already exists');
        }
        throw error;
      }
    },

    /**
     * Exchanges a refresh token for a new pair of its session. The same token again within
     * REFRESH_REUSE_GRACE_MS of its first exchange gets another new pair and revokes nothing;
     * later, it is reuse and revokes its whole session (reuse detection).
     */
    async refresh(input: unknown): Promise<TokenPair> {
      const { refreshToken } = parseWith(refreshInput, input, '');
      const stored = await db.refreshToken.findUnique({
        where: { tokenHash: sha256(refreshToken) },
        select: { id: true, sessionId: true, expiresAt: true, session: { select: { userId: true, revokedAt: true } } },
      });
      if (!stored || stored.session.revokedAt || stored.expiresAt <= new Date()) throw invalidRefreshToken();
      const pair = await db.$transaction(async (tx) => {
        // One conditional update decides, on the database's clock: the first exchange records
        // when it happened, and one within the grace finds that time recent. Concurrent exchanges
        // (on any instance) wait for each other's row lock and see the time the first recorded.
        const claimed = await tx.$executeRaw`
          UPDATE "RefreshToken" SET "usedAt" = COALESCE("usedAt", now())
           WHERE id = ${stored.id}
             AND ("usedAt" IS NULL OR "usedAt" > now() - ${REFRESH_REUSE_GRACE_MS}::float8 * interval '1 millisecond')`;
        if (claimed === 0) return null;
        return issuePair(tx, stored.session.userId, stored.sessionId);
      });
      if (!pair) {
        await revokeSession(stored.sessionId, 'refresh token reuse');
        throw invalidRefreshToken();
      }
      return pair;
    },

    /**
     * Ends the session of a refresh token; its access tokens stop working at once. Always succeeds.
     * An expired token ends nothing, as an unknown one: housekeeping deletes expired tokens
     * (housekeeping.ts), so that the answer does not depend on whether it has run yet.
     */
    async logout(input: unknown): Promise<void> {
      const { refreshToken } = parseWith(refreshInput, input, '');
      const stored = await db.refreshToken.findUnique({ where: { tokenHash: sha256(refreshToken) }, select: { sessionId: true, expiresAt: true } });
      if (stored && stored.expiresAt > new Date()) await revokeSession(stored.sessionId, 'logout');
    },

    /**
     * Resolves the credentials of a request to its caller: the Authorization header (a Bearer
     * access token or API key), else the X-API-Key header (an API key). null for no credentials
     * and for invalid ones alike (missing, malformed, bad signature, alg none, expired, revoked,
     * deleted user, unknown key).
     */
    async authenticate(authorization: string | undefined, apiKey?: string): Promise<Caller | null> {
      if (!authorization) {
        const key = apiKey?.trim();
        return key?.startsWith(API_KEY_PREFIX) ? authenticateApiKey(key) : null;
      }
      const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      if (!m) return null;
      if (m[1]!.startsWith(API_KEY_PREFIX)) return authenticateApiKey(m[1]!);
      const claims = await verifyAccessToken(m[1]!);
      if (!claims) return null;
      const { sub, sid, exp } = claims;
      // Runs on every authenticated request: one direct query for the session and its account,
      // prepared (Database.query).
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
    },

    /** The caller's live sessions (not revoked, not expired), newest first; `current` is the caller's own. */
    async listSessions(caller: Caller): Promise<{ items: SessionView[] }> {
      const rows = await db.session.findMany({
        where: { userId: caller.userId, revokedAt: null, expiresAt: { gt: new Date() } },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        select: sessionFields,
      });
      return { items: rows.map((r) => toSessionView(r, caller)) };
    },

    /** One of the caller's live sessions, as listSessions shows it; anyone else's, unknown or ended: 404. */
    async getSessionOf(caller: Caller, id: string): Promise<SessionView> {
      const row = await db.session.findFirst({
        where: { id: lookupId('Session', id), userId: caller.userId, revokedAt: null, expiresAt: { gt: new Date() } },
        select: sessionFields,
      });
      if (!row) throw notFound('Session');
      return toSessionView(row, caller);
    },

    /**
     * Ends one of the caller's sessions: its access and refresh tokens stop working at once, on
     * every instance (each request reads its session). Someone else's, unknown or already ended: 404.
     */
    async revokeSessionOf(caller: Caller, id: string, expected?: Precondition<SessionView>): Promise<void> {
      if (expected) {
        // Its view checked with its row locked, so no change (a use that moves lastUsedAt) slips between.
        const ended = await db.$transaction(async (tx) => {
          const [row] = await tx.$queryRaw<{ id: string; createdAt: Date; lastUsedAt: Date | null; userAgent: string | null }[]>`
            SELECT id, "createdAt", "lastUsedAt", "userAgent" FROM "Session"
             WHERE id = ${lookupId('Session', id)} AND "userId" = ${caller.userId} AND "revokedAt" IS NULL AND "expiresAt" > now()
               FOR UPDATE`;
          if (!row) throw notFound('Session');
          assertPrecondition(expected, toSessionView({ ...row, createdAt: new Date(row.createdAt), lastUsedAt: row.lastUsedAt && new Date(row.lastUsedAt) }, caller));
          await tx.session.update({ where: { id }, data: { revokedAt: new Date(), revokedReason: 'revoked by its user' } });
          return 1;
        });
        if (ended) credentials?.checkNow();
        return;
      }
      const ended = await revokeSessions({ id: lookupId('Session', id), userId: caller.userId, expiresAt: { gt: new Date() } }, 'revoked by its user');
      if (ended === 0) throw notFound('Session');
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
