-- Housekeeping deletes API keys revoked more than a day ago (src/modules/auth/housekeeping.ts);
-- a user may have at most 100 live keys (src/modules/apikeys/service.ts).
CREATE INDEX "ApiKey_revokedAt_idx" ON "ApiKey"("revokedAt");
