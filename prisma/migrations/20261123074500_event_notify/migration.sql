-- Wake on commit: whatever inserts into "Event" NOTIFYs learnstream_events, which PostgreSQL
-- delivers at commit (never for a rollback) to every instance's relay (LISTEN), so the relay
-- positions new events at once instead of at its next poll. One notification per statement,
-- and equal ones in one transaction are delivered once. Prisma does not model triggers, so this
-- migration has no counterpart in schema.prisma. The body spells its semicolons \x3b: the
-- schema engine's PostgreSQL adapter splits a migration at every semicolon, even in strings.
CREATE FUNCTION "learnstream_notify_event"() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN PERFORM pg_notify(''learnstream_events'', '''')\x3b RETURN NULL\x3b END';

CREATE TRIGGER "Event_notify" AFTER INSERT ON "Event" FOR EACH STATEMENT EXECUTE FUNCTION "learnstream_notify_event"();
