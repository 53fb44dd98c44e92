// Long-lived uses of a credential: a subscription checks its caller's session (or API key) when it
// starts and may then stream for hours, yet revoking the credential must stop it at once. Each
// instance checks the credentials of its open streams every CHECK_INTERVAL_MS (one query, none
// while no stream is open), and at once when it revokes one itself; a stream opened with an access
// token also ends when the token expires, as every other use of it does (the client resumes with
// a fresh token and `after`).
import type { Database } from '../../db/client.js';
import type { Caller } from './caller.js';

/** How often open subscriptions' credentials are checked for revocation made elsewhere. */
export const CHECK_INTERVAL_MS = 5_000;

export interface CredentialWatch {
  /**
   * Watches the caller's credential (its session, or the API key it used) until `release()`:
   * `revoked` resolves once it has been revoked, or once the access token it was opened with has
   * expired.
   */
  watch(caller: Caller): { revoked: Promise<void>; release(): void };
  /** Something was revoked on this instance: check now instead of at the next interval. */
  checkNow(): void;
}

/**
 * The watched credentials still live. Any other is over: revoked, or its row deleted (with its
 * user), which is why the query asks for the live ones rather than the revoked ones.
 */
const LIVE_SQL = `
SELECT id FROM "Session" WHERE id = ANY($1::text[]) AND "revokedAt" IS NULL
UNION ALL
SELECT id FROM "ApiKey" WHERE id = ANY($1::text[]) AND "revokedAt" IS NULL`;

export function createCredentialWatch({ query, intervalMs = CHECK_INTERVAL_MS }: { query: Database['query']; intervalMs?: number }): CredentialWatch {
  /** The watchers of each credential (session or API key id). */
  const watched = new Map<string, Set<() => void>>();
  /** The watchers opened with an access token: its credential and when the token expires (ms since the epoch). */
  const expiries = new Map<() => void, { id: string; at: number }>();
  let timer: NodeJS.Timeout | undefined;
  let checking: Promise<void> | undefined;
  let again = false;

  function forget(id: string, end: () => void): void {
    expiries.delete(end);
    const set = watched.get(id);
    set?.delete(end);
    if (set && !set.size) watched.delete(id);
  }

  /** Ends the watchers whose access token has expired. */
  function endExpired(): void {
    const now = Date.now();
    for (const [end, { id, at }] of expiries) {
      if (at > now) continue;
      forget(id, end);
      end();
    }
  }

  async function check(): Promise<void> {
    endExpired();
    if (!watched.size) return unschedule();
    const asked = [...watched.keys()];
    let live: Set<string>;
    try {
      live = new Set((await query<{ id: string }>(LIVE_SQL, [asked])).map((row) => row.id));
    } catch {
      return; // the database is away: the streams keep going until it answers again
    }
    // Only those asked about: a credential watched since the query began is checked next time.
    for (const id of asked) {
      if (live.has(id)) continue;
      for (const end of watched.get(id) ?? []) {
        expiries.delete(end);
        end();
      }
      watched.delete(id);
    }
    unschedule();
  }

  function run(): void {
    if (checking) {
      again = true;
      return;
    }
    checking = check().finally(() => {
      checking = undefined;
      if (again) {
        again = false;
        run();
      }
    });
  }

  function schedule(): void {
    if (timer || !watched.size) return;
    timer = setInterval(run, intervalMs).unref();
  }

  function unschedule(): void {
    if (watched.size || !timer) return;
    clearInterval(timer);
    timer = undefined;
  }

  return {
    watch(caller) {
      const id = caller.sessionId;
      let end!: () => void;
      const revoked = new Promise<void>((resolve) => (end = resolve));
      const ends = watched.get(id) ?? new Set();
      ends.add(end);
      watched.set(id, ends);
      if (caller.expiresAt !== undefined) expiries.set(end, { id, at: caller.expiresAt });
      schedule();
      return {
        revoked,
        release() {
          forget(id, end);
          unschedule();
        },
      };
    },
    checkNow: run,
  };
}
