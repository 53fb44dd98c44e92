-- A login attempt is recorded before its password is checked (src/modules/auth/service.ts), and
-- stays as a failure only if the password was wrong. "pending" marks one still being checked:
-- counted as a failure, concurrent logins with the right password refused one another with 429
-- "Too many failed login attempts". Rows from before are failures.
ALTER TABLE "LoginFailure" ADD COLUMN "pending" BOOLEAN NOT NULL DEFAULT false;
