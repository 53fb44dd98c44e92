// The Prisma client over a driver adapter, with the transaction bounds every write shares.
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from '../generated/prisma/client.js';

/**
 * Interactive transactions (a change and its event) may wait this long for a connection and run
 * this long. Prisma's defaults (2 s, 5 s) turn writes that are merely slow under load (a queue of
 * updates to one row, a CPU-starved event loop between statements) into 500s after the client
 * has waited for them.
 */
export const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 30_000 } as const;

/** `onQuery`: called with every SQL statement Prisma sends. */
export function createPrismaClient(adapter: SqlDriverAdapterFactory, onQuery?: (sql: string) => void): PrismaClient {
  const prisma = new PrismaClient({
    adapter,
    log: onQuery ? [{ emit: 'event', level: 'query' }] : undefined,
    transactionOptions: TRANSACTION_OPTIONS,
  });
  if (onQuery) prisma.$on('query' as never, (e: { query: string }) => onQuery(e.query));
  return prisma;
}
