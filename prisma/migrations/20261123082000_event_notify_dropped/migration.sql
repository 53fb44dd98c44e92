-- The NOTIFY trigger of 20261123074500_event_notify serialised the commits of every transaction
-- that records an event (PostgreSQL takes one lock on the notification queue at commit): page
-- views fell from about 2,000 to 400-600 a second. The server now wakes its own relay once a
-- writing request is answered (src/modules/events/relay.ts).
DROP TRIGGER IF EXISTS "Event_notify" ON "Event";
DROP FUNCTION IF EXISTS "learnstream_notify_event"();
