-- Every login attempt deletes the failures older than the 15-minute window, whatever their e-mail
-- (src/modules/auth/service.ts). Without an index on "at" alone that DELETE read the whole table
-- on every login: 49 ms at a million rows, which one client's guesses over many e-mails can make.
CREATE INDEX "LoginFailure_at_idx" ON "LoginFailure"("at");
