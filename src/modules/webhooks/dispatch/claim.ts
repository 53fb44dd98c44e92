// Claiming due deliveries: one statement takes them with FOR UPDATE SKIP LOCKED and stamps a lease
// (`lockedUntil`), so each attempt is made by exactly one instance, and a crashed instance's claim
// is taken over once its lease runs out. Fair between endpoints, within each one's share.
import type { Database } from '../../../db/client.js';
import type { Claimed } from './attempt.js';
import { ENDPOINT_SHARE, type EndpointShares } from './endpoint-shares.js';

/**
 * How many of the oldest claimable deliveries a claim looks at (times the free slots; at least
 * the minimum) to share them out fairly between endpoints.
 */
const WINDOW_PER_SLOT = 4;
const MIN_WINDOW = 256;

/** What one claim took, and the window it looked at. */
export interface Claim {
  deliveries: Claimed[];
  window: number;
}

// $1 free slots, $2 lease ms, $3 endpoints not to claim for (share used up, or throttled as far as
// this process knows), $4 window, $5 the share of an endpoint with nothing in flight here,
// $6/$7 the remaining share of the others.
//
// The window: the oldest claimable deliveries among each claimable endpoint's oldest, no more of
// one endpoint than it could be given (its remaining share, at most the free slots). Read per
// endpoint (partial index on endpointId, nextAttemptAt of the PENDING deliveries), so the
// deliveries of disabled, throttled and excluded endpoints are never read; read in due order
// across all endpoints, the claim would go through every due delivery of the disabled ones only
// to drop them at the join.
// Turns: row_number per endpoint, so the ORDER BY takes every endpoint's first before anyone's
// second. Window functions and FOR UPDATE do not mix in one SELECT, so the lock is taken on the
// picked ids one level up, re-checking that each is still due and unleased (SKIP LOCKED: another
// instance's claim or record has it); looked up by id as an array (a semi-join could read every
// due delivery to match them).
export const CLAIM_SQL = `
WITH candidate AS MATERIALIZED (
  SELECT d.id, d."endpointId", d."nextAttemptAt", d.room
    FROM "WebhookEndpoint" e
    LEFT JOIN unnest($6::text[], $7::int[]) AS share(id, room) ON share.id = e.id
   CROSS JOIN LATERAL (
     SELECT d.id, d."endpointId", d."nextAttemptAt", COALESCE(share.room, $5::int) AS room
       FROM "WebhookDelivery" d
      WHERE d."endpointId" = e.id AND d.status = 'PENDING' AND d."nextAttemptAt" <= now()
        AND (d."lockedUntil" IS NULL OR d."lockedUntil" < now())
      ORDER BY d."nextAttemptAt", d.id
      LIMIT LEAST(COALESCE(share.room, $5::int), $1::int)
   ) d
   WHERE e.enabled AND (e."throttledUntil" IS NULL OR e."throttledUntil" <= now())
     AND e.id <> ALL($3::text[])
   ORDER BY d."nextAttemptAt", d.id
   LIMIT $4
), seen AS (
  SELECT count(*)::int AS n FROM candidate
), turn AS (
  SELECT c.id, c."nextAttemptAt",
         row_number() OVER (PARTITION BY c."endpointId" ORDER BY c."nextAttemptAt", c.id) AS turn,
         c.room
    FROM candidate c
), picked AS (
  SELECT id FROM turn WHERE turn <= room ORDER BY turn, "nextAttemptAt", id LIMIT $1
), due AS MATERIALIZED (
  SELECT d.id
    FROM "WebhookDelivery" d
   WHERE d.id = ANY (ARRAY(SELECT id FROM picked))
     AND d.status = 'PENDING' AND d."nextAttemptAt" <= now()
     AND (d."lockedUntil" IS NULL OR d."lockedUntil" < now())
   FOR UPDATE OF d SKIP LOCKED
)
UPDATE "WebhookDelivery" d
   SET "lockedUntil" = now() + $2::float8 * interval '1 millisecond'
  FROM due, seen, "WebhookEndpoint" e
 WHERE d.id = due.id AND e.id = d."endpointId"
RETURNING d.id, d."endpointId", d."eventId", d.payload, d."attemptCount", d."lockedUntil", e.url, e.secret,
          CASE WHEN e."previousSecretExpiresAt" > now() THEN e."previousSecret" END AS "previousSecret",
          seen.n AS seen`;

/** Drops our leases (fenced: only where the lease is still ours), so another instance may claim now. */
const RELEASE_SQL = `
UPDATE "WebhookDelivery" d SET "lockedUntil" = NULL
  FROM unnest($1::text[], $2::timestamptz[]) AS r(id, lease)
 WHERE d.id = r.id AND d."lockedUntil" = r.lease`;

/**
 * Claims up to `free` due deliveries (PENDING, due, no live lease, endpoint enabled and not
 * throttled), fairly between endpoints and within their shares (endpoint-shares.ts).
 */
export async function claimDue(db: Database, shares: EndpointShares, free: number, leaseMs: number): Promise<Claim> {
  const { excluded, ids, rooms } = shares.claimLimits(Date.now());
  const window = Math.max(MIN_WINDOW, free * WINDOW_PER_SLOT);
  const deliveries = await db.query<Claimed>(CLAIM_SQL, [free, leaseMs, excluded, window, ENDPOINT_SHARE, ids, rooms]);
  shares.noteClaimed(deliveries);
  return { deliveries, window };
}

export async function releaseLeases(db: Database, deliveries: readonly Claimed[]): Promise<void> {
  await db.query(RELEASE_SQL, [deliveries.map((d) => d.id), deliveries.map((d) => d.lockedUntil.toISOString())]);
}
