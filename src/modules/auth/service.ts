// The auth service: sign-in (login, registration), sessions and their tokens, and resolving a
// request's credentials to its Caller. It composes the parts in this folder, one concept each.
import type { Config } from '../../config.js';
import type { Database, Db } from '../../db/client.js';
import { AppError, conflict, type Precondition } from '../../errors.js';
import { newId } from '../../ids.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { Logger } from '../../logger.js';
import type { Write } from '../events/write.js';
import { toMe, type MeView } from '../users/views.js';
import { createAuthenticate } from './authenticate.js';
import type { Caller } from './caller.js';
import type { CredentialWatch } from './credential-watch.js';
import { createLoginThrottle } from './login-throttle.js';
import { hashPassword, verifyPassword } from './passwords.js';
import type { LoginInput, RefreshInput, RegisterInput, SessionView, TokenPair } from './schemas.js';
import { createSessions, type SessionOrigin } from './sessions.js';
import { createTokens } from './tokens.js';

interface Deps {
  db: Db;
  query: Database['query'];
  config: Pick<Config, 'jwtKeys' | 'accessTokenTtl' | 'refreshTokenTtl'>;
  write: Write;
  log?: Logger;
  /** Told when a session is revoked here, so the streams it opened end at once. */
  credentials?: Pick<CredentialWatch, 'checkNow'>;
}

const invalidCredentials = () => new AppError('INVALID_CREDENTIALS', 'Invalid email or password');

export function createAuthService({ db, query, config, write, log, credentials }: Deps) {
  const tokens = createTokens(config);
  const sessions = createSessions({ db, write, tokens, refreshTokenTtl: config.refreshTokenTtl, credentials });
  const throttle = createLoginThrottle({ db });

  return {
    /** A new session for the right e-mail and password; too many wrong ones for an e-mail: 429. */
    async login({ email, password }: LoginInput, origin: SessionOrigin = {}): Promise<TokenPair> {
      const attempt = await throttle.claim(email);
      let wrongPassword = false;
      try {
        const user = await db.user.findUnique({ where: { email }, select: { id: true, passwordHash: true } });
        if (!(await verifyPassword(user?.passwordHash, password)) || !user) {
          wrongPassword = true;
          await throttle.failed(attempt);
          throw invalidCredentials();
        }
        return await write(async (tx) => {
          await throttle.succeeded(tx, email, attempt);
          return sessions.start(tx, user.id, origin);
        });
      } catch (error) {
        if (!wrongPassword) await throttle.forget(attempt);
        throw error;
      }
    },

    /** A new account (MEMBER, FREE) and its first session; an e-mail already taken: 409. */
    async register({ email, password, name }: RegisterInput, origin: SessionOrigin = {}): Promise<TokenPair & { user: MeView }> {
      const passwordHash = await hashPassword(password);
      try {
        return await write(async (tx, record) => {
          const user = await tx.user.create({ data: { id: newId('usr'), email, name, passwordHash } });
          await record('user.created', { userId: user.id });
          return { user: toMe(user), ...(await sessions.start(tx, user.id, origin)) };
        });
      } catch (error) {
        if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
          throw conflict('An account with this email already exists');
        }
        throw error;
      }
    },

    refresh: ({ refreshToken }: RefreshInput): Promise<TokenPair> => sessions.refresh(refreshToken),
    logout: ({ refreshToken }: RefreshInput): Promise<void> => sessions.logout(refreshToken),

    /** The caller of a request's credentials (see createAuthenticate); null for none or invalid ones. */
    authenticate: createAuthenticate({ db, query, tokens, log }),

    listSessions: (options: { caller: Caller }): Promise<{ items: SessionView[] }> => sessions.list(options),
    getSession: (options: { caller: Caller; id: string }): Promise<SessionView> => sessions.get(options),
    revokeSession: (options: { caller: Caller; id: string; expected?: Precondition<SessionView> | undefined }): Promise<void> => sessions.revoke(options),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
