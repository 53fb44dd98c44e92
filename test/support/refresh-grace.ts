// The refresh token reuse grace, passed without waiting: a used refresh token presented again
// within REFRESH_REUSE_GRACE_MS of its first exchange gets a fresh pair, so tests of reuse
// detection move that first exchange back by more than the grace (on PostgreSQL test servers).
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { REFRESH_REUSE_GRACE_MS } from '../../src/modules/auth/sessions.js';
import { sql, type TestServer } from './server.js';

/** As if `refreshToken` (already exchanged) had been first exchanged longer ago than the grace. */
export async function passRefreshGrace(server: TestServer, refreshToken: string): Promise<void> {
  const moved = await sql(
    server,
    `UPDATE "RefreshToken" SET "usedAt" = "usedAt" - $2::float8 * interval '1 millisecond'
      WHERE "tokenHash" = $1 AND "usedAt" IS NOT NULL RETURNING id`,
    [createHash('sha256').update(refreshToken).digest('hex'), REFRESH_REUSE_GRACE_MS + 1_000],
  );
  expect(moved, 'the refresh token must exist and have been exchanged').toHaveLength(1);
}
