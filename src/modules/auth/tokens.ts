// Tokens: the signing keys (rotated by config), access tokens (JWTs naming their session) and the
// refresh tokens stored, as their SHA-256, with their session.
import { createHash, randomBytes, webcrypto } from 'node:crypto';
import { SignJWT, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Config } from '../../config.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { newId } from '../../ids.js';
import type { TokenPair } from './schemas.js';

/** A signing key's public name (`kid`): 12 characters of its SHA-256, which tell keys apart and reveal nothing usable. */
export const keyId = (raw: Uint8Array) => createHash('sha256').update(raw).digest('base64url').slice(0, 12);

/** What is stored of a refresh token, and looked up. */
export const hashRefreshToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The claims of a verified access token: its user, its session, and when it expires (seconds since the epoch). */
export interface AccessClaims {
  sub: string;
  sid: string;
  exp: number;
}

export type Tokens = ReturnType<typeof createTokens>;

export function createTokens(config: Pick<Config, 'jwtKeys' | 'accessTokenTtl' | 'refreshTokenTtl'>) {
  // Imported once (jose would otherwise import a key on every sign and verify). The first key
  // signs and every key verifies: keys rotate by listing the new one first and dropping the old
  // one once its tokens have expired (or at once, to end them).
  const keys = Promise.all(
    config.jwtKeys.map(async (raw) => ({
      kid: keyId(raw),
      key: await webcrypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']),
    })),
  );
  /** The key a token names; a token that names none is checked with the signing key. */
  const keyFor: JWTVerifyGetKey = async ({ kid }) => {
    const all = await keys;
    const found = kid === undefined ? all[0] : all.find((k) => k.kid === kid);
    if (!found) throw new Error('unknown signing key');
    return found.key;
  };
  // Keyed by the whole token, so a forged one never gets in: clients send one token for many
  // requests. `exp` is still checked on every use, and revocation against the database.
  const verified = new LRUCache<string, AccessClaims>({ max: 10_000 });

  async function signAccessToken(userId: string, sessionId: string): Promise<{ token: string; exp: number }> {
    const iat = Math.floor(Date.now() / 1000);
    const [signing] = await keys;
    const exp = iat + config.accessTokenTtl;
    const token = await new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: signing!.kid })
      // Every token is distinct, even two issued for one session in the same second.
      .setJti(randomBytes(12).toString('base64url'))
      .setSubject(userId)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(signing!.key);
    return { token, exp };
  }

  return {
    /** The claims of a valid, unexpired access token; null for any other string. */
    async verifyAccessToken(token: string): Promise<AccessClaims | null> {
      const cached = verified.get(token);
      if (cached) return cached.exp > Date.now() / 1000 ? cached : null;
      try {
        const { payload } = await jwtVerify(token, keyFor, { algorithms: ['HS256'], requiredClaims: ['sub', 'exp', 'iat'] });
        if (typeof payload.sid !== 'string' || !payload.sub || typeof payload.exp !== 'number') return null;
        const claims = { sub: payload.sub, sid: payload.sid, exp: payload.exp };
        verified.set(token, claims);
        return claims;
      } catch {
        return null;
      }
    },

    /**
     * Issues a refresh token in `tx` for the session and an access token naming it. The session
     * lives until both have expired, so that while any of its tokens works it is listed and can
     * be revoked (whichever of ACCESS_TOKEN_TTL and REFRESH_TOKEN_TTL is longer).
     */
    async issuePair(tx: Prisma.TransactionClient, userId: string, sessionId: string): Promise<TokenPair> {
      const refreshToken = `rt_${randomBytes(32).toString('base64url')}`;
      const refreshExpiresAt = new Date(Date.now() + config.refreshTokenTtl * 1000);
      await tx.refreshToken.create({
        data: { id: newId('rt'), sessionId, tokenHash: hashRefreshToken(refreshToken), expiresAt: refreshExpiresAt },
      });
      const access = await signAccessToken(userId, sessionId);
      const expiresAt = new Date(Math.max(refreshExpiresAt.getTime(), access.exp * 1000));
      await tx.session.update({ where: { id: sessionId }, data: { expiresAt } });
      return { token: access.token, expiresIn: config.accessTokenTtl, refreshToken, refreshExpiresIn: config.refreshTokenTtl };
    },
  };
}
