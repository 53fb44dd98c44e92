// Idempotency-Key (the IETF draft, as Stripe does it): the store REST (src/http/router.ts) and
// GraphQL mutations (src/graphql/use-idempotency.ts) share. It knows nothing of HTTP: a request is
// its caller, key, method, path and body fingerprint; a response its status, body and a few headers.
import { createHash, randomUUID } from 'node:crypto';
import type { Database } from '../../db/client.js';
import { AppError, badInput, conflict } from '../../errors.js';

/** How long a key's response is replayed; older rows are deleted by the sign-in housekeeping. */
export const KEY_TTL_MS = 24 * 3_600_000;
/**
 * How long a claim may stay RUNNING before a retry may take it over: a process that crashed (or
 * lost its database) mid-request never stores or releases its claim, and its key must not be
 * refused for a whole day. Longer than any request takes, so a live request is never overtaken
 * (the trade-off: docs/decisions.md).
 */
export const RUNNING_LEASE_MS = 60_000;
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** 1–255 printable ASCII characters (the header's value, as HTTP gives it: without outer spaces). */
const VALID_KEY = /^[\x20-\x7e]{1,255}$/;

/** What identifies one request sent with a key. */
export interface IdempotentRequest {
  /** The caller: a user's tokens and API keys share their keys. */
  userId: string;
  key: string;
  method: string;
  /** The path with its query string. */
  path: string;
  /** SHA-256 (hex) of the request body. */
  fingerprint: string;
}

/** A stored response: replayed byte for byte. */
export interface StoredResponse {
  status: number;
  /** null for a response without a body (204). */
  body: string | null;
  /** Lower-case names: content-type, etag. */
  headers: Record<string, string>;
}

/** A claim this process holds on a key: finish it with `store`, `secretShown` or `release`. */
export interface Claim {
  readonly userId: string;
  readonly key: string;
  readonly token: string;
}

export type Begun = { claim: Claim; replay?: undefined } | { replay: StoredResponse; claim?: undefined };

/** A request body's fingerprint: SHA-256 (hex) of its text. */
export const fingerprintOf = (body: string): string => createHash('sha256').update(body).digest('hex');

/** The header's value as a key; 400 naming the header when it is not 1–255 printable ASCII characters. */
export function parseIdempotencyKey(value: string): string {
  if (!VALID_KEY.test(value)) throw badInput(IDEMPOTENCY_HEADER, 'must be 1-255 printable ASCII characters');
  return value;
}

const keyReused = () =>
  new AppError('IDEMPOTENCY_KEY_REUSED', `This ${IDEMPOTENCY_HEADER} was used for another request (another method, path or body): use a new key`);
const inProgress = () => conflict(`The first request with this ${IDEMPOTENCY_HEADER} is still in progress: retry later`);
const secretShown = () =>
  conflict(`The first request with this ${IDEMPOTENCY_HEADER} succeeded and showed a secret, which is shown only once: it is not replayed`);

const CLAIM_SQL = `
INSERT INTO "IdempotencyKey" ("userId", key, method, path, fingerprint, state, claim, "claimedAt", "createdAt")
VALUES ($1, $2, $3, $4, $5, 'RUNNING', $6, now(), now())
ON CONFLICT DO NOTHING RETURNING 1 AS claimed`;
const READ_SQL = `
SELECT method, path, fingerprint, state, claim, status, body, headers,
       "createdAt" < now() - $3::float8 * interval '1 millisecond' AS expired,
       "claimedAt" < now() - $4::float8 * interval '1 millisecond' AS abandoned
  FROM "IdempotencyKey" WHERE "userId" = $1 AND key = $2`;
// A key older than KEY_TTL_MS is a new key (housekeeping may not have deleted it yet); an
// abandoned claim of the same request is taken over. Both only if the row is still the one read.
const TAKE_OVER_SQL = `
UPDATE "IdempotencyKey"
   SET method = $4, path = $5, fingerprint = $6, state = 'RUNNING', claim = $7, "claimedAt" = now(),
       "createdAt" = CASE WHEN $8 THEN now() ELSE "createdAt" END, status = NULL, body = NULL, headers = NULL
 WHERE "userId" = $1 AND key = $2 AND claim = $3 RETURNING 1 AS claimed`;
const STORE_SQL = `
UPDATE "IdempotencyKey" SET state = $4, status = $5, body = $6, headers = $7::jsonb
 WHERE "userId" = $1 AND key = $2 AND claim = $3 AND state = 'RUNNING'`;
const RELEASE_SQL = `DELETE FROM "IdempotencyKey" WHERE "userId" = $1 AND key = $2 AND claim = $3 AND state = 'RUNNING'`;
/** Housekeeping: up to $1 expired keys (by the createdAt index); one row returned per key deleted. */
export const DELETE_EXPIRED_KEYS_SQL = `
DELETE FROM "IdempotencyKey" WHERE ("userId", key) IN (
  SELECT "userId", key FROM "IdempotencyKey" WHERE "createdAt" < now() - ${KEY_TTL_MS}::float8 * interval '1 millisecond' LIMIT $1)
RETURNING 1 AS deleted`;

interface Row {
  method: string;
  path: string;
  fingerprint: string;
  state: 'RUNNING' | 'DONE' | 'SECRET_SHOWN';
  claim: string;
  status: number | null;
  body: string | null;
  headers: Record<string, string> | string | null;
  expired: boolean;
  abandoned: boolean;
}

/** How many times a claim is tried when the row it conflicted with changes under it (released, taken over). */
const ATTEMPTS = 3;

export function createIdempotencyStore({ query }: { query: Database['query'] }) {
  return {
    /**
     * Claims the key for this request, or answers what the key already holds: the stored
     * response (`replay`); 422 when it was used for another request; 409 while its first request
     * is running, or when that one showed a secret. The claim is one INSERT … ON CONFLICT DO
     * NOTHING, its own statement, so that of duplicates sent at once to any instances exactly one
     * runs. A 2xx response is stored and replayed for KEY_TTL_MS; anything else frees the key.
     */
    async begin(request: IdempotentRequest): Promise<Begun> {
      const { userId, key, method, path, fingerprint } = request;
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const token = randomUUID();
        const claimed = await query<{ claimed: number }>(CLAIM_SQL, [userId, key, method, path, fingerprint, token], { prepare: true });
        if (claimed.length) return { claim: { userId, key, token } };
        const [row] = await query<Row>(READ_SQL, [userId, key, KEY_TTL_MS, RUNNING_LEASE_MS], { prepare: true });
        if (!row) continue; // released since: claim again
        const same = row.method === method && row.path === path && row.fingerprint === fingerprint;
        if (!row.expired) {
          if (!same) throw keyReused();
          if (row.state === 'DONE') return { replay: { status: row.status!, body: row.body, headers: headersOf(row.headers) } };
          if (row.state === 'SECRET_SHOWN') throw secretShown();
          if (!row.abandoned) throw inProgress();
        }
        const taken = await query<{ claimed: number }>(TAKE_OVER_SQL, [userId, key, row.claim, method, path, fingerprint, token, row.expired]);
        if (taken.length) return { claim: { userId, key, token } };
      }
      throw inProgress();
    },

    /** The claimed request succeeded: its response is replayed from now on. */
    async store(claim: Claim, response: StoredResponse): Promise<void> {
      await query(STORE_SQL, [claim.userId, claim.key, claim.token, 'DONE', response.status, response.body, JSON.stringify(response.headers)]);
    },

    /** The claimed request succeeded and showed a secret: nothing of it is stored, a repeat is 409. */
    async secretShown(claim: Claim): Promise<void> {
      await query(STORE_SQL, [claim.userId, claim.key, claim.token, 'SECRET_SHOWN', null, null, null]);
    },

    /** The claimed request failed: the key is free again, for a retry. */
    async release(claim: Claim): Promise<void> {
      await query(RELEASE_SQL, [claim.userId, claim.key, claim.token]);
    },
  };
}

/** JSONB as the driver returns it: parsed (pg, PGlite), or its text. */
const headersOf = (stored: Row['headers']): Record<string, string> =>
  typeof stored === 'string' ? (JSON.parse(stored) as Record<string, string>) : (stored ?? {});

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;
