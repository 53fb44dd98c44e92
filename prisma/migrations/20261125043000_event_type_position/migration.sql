-- GET /api/v1/events?types=… and Query.events(types:) read events of some names in commit order.
-- Without an index on the name, PostgreSQL read every event after the cursor to find them: 250 ms
-- for a page of user.created among 3 million page views (retention keeps a week of them). Page
-- views (analytics.hit), the one event written in bulk, are left out: their recording pays no
-- extra index, and a list that asks for them finds them at once in position order.
CREATE INDEX "Event_type_position_idx" ON "Event"("type", "position") WHERE "type" <> 'analytics.hit';
