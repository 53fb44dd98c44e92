// Long-lived uses of a credential: a subscription checks its caller's session (or API key) when
// it starts, like any request, and then may stream for hours. Revoking the session or the key
// must stop its access at once, streams included (CONTRACT.md: "stop working at once"). Every
// instance watches the credentials of its open subscriptions: one query for all of them every
// CHECK_INTERVAL_MS while any is open (none while none is), and at once when this instance
// revokes something, so a revocation ends the streams on the instance that made it immediately
// and on every other instance within the interval.
import type { Database } from '../../db/client.js';
import type { Caller } from '../../context.js';

/** How often open subscriptions' credentials are checked for revocation made elsewhere. */
export const CHECK_INTERVAL_MS = 5_000;

export interface CredentialWatch {
  /**
   * Watches the caller's credential (its session, or the API key it used) until `release()`:
   * `revoked` resolves once it has been revoked.
   */
  watch(caller: Caller): { revoked: Promise<void>; release(): void };
  /** Something was revoked on this instance: check now instead of at the next interval. */
  checkNow(): void;
}

const REVOKED_SQL = `
SELECT id FROM "Session" WHERE id = ANY($1::text[]) AND "revokedAt" IS NOT NULL
UNION ALL
SELECT id FROM "ApiKey" WHERE id = ANY($1::text[]) AND "revokedAt" IS NOT NULL`;

export function createCredentialWatch({ query, intervalMs = CHECK_INTERVAL_MS }: { query: Database['query']; intervalMs?: number }): CredentialWatch {
  /** The watchers of each credential (session or API key id). */
  const watched = new Map<string, Set<() => void>>();
  let timer: NodeJS.Timeout | undefined;
  let checking: Promise<void> | undefined;
  let again = false;

  async function check(): Promise<void> {
    if (!watched.size) return;
    let revoked: { id: string }[];
    try {
      revoked = await query<{ id: string }>(REVOKED_SQL, [[...watched.keys()]]);
    } catch {
      return; // the database is away: the streams keep going until it answers again
    }
    for (const { id } of revoked) {
      for (const end of watched.get(id) ?? []) end();
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
      schedule();
      return {
        revoked,
        release() {
          const set = watched.get(id);
          set?.delete(end);
          if (set && !set.size) watched.delete(id);
          unschedule();
        },
      };
    },
    checkNow: run,
  };
}
