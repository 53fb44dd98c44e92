// The login throttle: at most LOGIN_MAX_FAILURES password checks per e-mail per window, however
// many attempts arrive at once, on every instance (the attempts are rows in LoginFailure).
import type { Db } from '../../db/client.js';
import { AppError } from '../../errors.js';
import type { Prisma } from '../../generated/prisma/client.js';

export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
/** How long an attempt that finds the window full of attempts still being checked waits for them, and how often it looks. */
const CLAIM_MAX_WAIT_MS = 10_000;
const CLAIM_POLL_MS = 50;
/** An attempt still pending after this long was left by a process that stopped mid-check: it counts as a failure. */
const STALE_ATTEMPT_MS = 60_000;

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

export function createLoginThrottle({ db }: { db: Db }) {
  return {
    /**
     * Records an attempt for `email` before its password is checked (pending), so concurrent
     * guesses cannot all slip under the limit: it goes on to its check only while fewer than
     * LOGIN_MAX_FAILURES attempts recorded before it are in the window. One that finds the window
     * full of attempts still being checked waits for them, since a right password among them
     * clears the failures; pending attempts are not failures, or concurrent logins with the right
     * password would refuse each other. It is refused with 429 (and forgotten) only once
     * LOGIN_MAX_FAILURES of them are real failures. Returns the attempt's id for `failed` or `succeeded`.
     */
    async claim(email: string): Promise<bigint> {
      const attempt = await db.loginFailure.create({ data: { email, pending: true }, select: { id: true } });
      const waitUntil = Date.now() + CLAIM_MAX_WAIT_MS;
      // Failures older than the window count for nothing, whoever's: each attempt deletes them
      // (through the index on `at`), so the table holds one window of attempts.
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
    },

    /** A wrong password (or an unknown e-mail): the attempt stays, as a failure. */
    async failed(attempt: bigint): Promise<void> {
      await db.loginFailure.updateMany({ where: { id: attempt }, data: { pending: false } });
    },

    /**
     * A right password, in the transaction that starts the session: the e-mail's failures go, and
     * this attempt; others still being checked stay, to settle themselves.
     */
    async succeeded(tx: Prisma.TransactionClient, email: string, attempt: bigint): Promise<void> {
      await tx.loginFailure.deleteMany({ where: { email, OR: [{ pending: false }, { id: attempt }] } });
    },

    /** The check did not happen (e.g. the database failed): the attempt is forgotten, not a failure. */
    async forget(attempt: bigint): Promise<void> {
      await db.loginFailure.deleteMany({ where: { id: attempt } }).catch(() => undefined);
    },
  };
}
