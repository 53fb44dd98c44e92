// A lock on one user's row, for the rules that count a user's rows before adding one.
import type { Prisma } from '../generated/prisma/client.js';

/**
 * Locks a user's row until `tx` ends: the rules that count a user's rows before adding one (at
 * most 100 live API keys, at most 100 live sessions) take turns on it, so concurrent requests
 * cannot each pass the count.
 */
export async function lockUser(tx: Prisma.TransactionClient, userId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM "User" WHERE id = ${userId} FOR UPDATE`;
}
