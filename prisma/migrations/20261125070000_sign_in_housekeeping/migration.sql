-- Housekeeping deletes expired refresh tokens and ended sessions (src/modules/auth/housekeeping.ts).
-- Before it, nothing deleted either: every refresh and every login added a row for good.
CREATE INDEX "RefreshToken_expiresAt_idx" ON "RefreshToken"("expiresAt");
CREATE INDEX "Session_expiresAt_idx" ON "Session"("expiresAt");
CREATE INDEX "Session_revokedAt_idx" ON "Session"("revokedAt");
