// Helpers for the courses tests at scale: many learners made directly in the database (a user and
// an API key each: registering over HTTP hashes a password per user, seconds of CPU for a
// thousand), work run with a bounded number of requests in flight, and GraphQL GET urls.
import pg from 'pg';
import { hashApiKey, newApiKey } from '../../src/modules/apikeys/keys.js';
import { newId } from '../../src/ids.js';

export interface Learner {
  id: string;
  /** An API key of the learner's, sent as a bearer token. */
  token: string;
}

/** `n` MEMBERs (tier FREE) with an API key each, inserted in one transaction on `databaseUrl`. */
export async function insertLearners(databaseUrl: string, n: number, tag = 'scale'): Promise<Learner[]> {
  const learners = Array.from({ length: n }, () => ({ id: newId('usr'), token: newApiKey() }));
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('BEGIN');
    await db.query(
      `INSERT INTO "User" (id, email, name, "passwordHash", "updatedAt")
       SELECT id, $2 || '-' || ord || '@example.com', 'Learner ' || ord, 'not-a-password-hash', now()
       FROM unnest($1::text[]) WITH ORDINALITY AS u(id, ord)`,
      [learners.map((l) => l.id), `${tag}-${Date.now()}`],
    );
    await db.query(
      `INSERT INTO "ApiKey" (id, "userId", name, "keyHash", prefix)
       SELECT k.id, k."userId", 'scale test', k.hash, k.prefix
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS k(id, "userId", hash, prefix)`,
      [learners.map(() => newId('key')), learners.map((l) => l.id), learners.map((l) => hashApiKey(l.token)), learners.map((l) => l.token.slice(3, 11))],
    );
    await db.query('COMMIT');
  } finally {
    await db.end();
  }
  return learners;
}

/** Runs `work` for every item with at most `limit` of them in flight; the results in item order. */
export async function bounded<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The /graphql url of a GET query (what the response cache may answer). */
export function graphqlGetUrl(query: string, variables?: Record<string, unknown>): string {
  const params = new URLSearchParams({ query });
  if (variables) params.set('variables', JSON.stringify(variables));
  return `/graphql?${params}`;
}
