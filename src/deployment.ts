import { createHash } from 'node:crypto';

/**
 * A deployment's name on shared infrastructure (Redis channels and keys): derived from where its
 * data lives (DATABASE_URL or DATA_DIR), never that value in the clear. Every instance of one
 * deployment computes the same; no other deployment does.
 */
export const deploymentId = (databaseIdentity: string): string => createHash('sha256').update(databaseIdentity).digest('hex').slice(0, 16);
