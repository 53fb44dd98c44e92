-- Two reads that sorted or scanned what an index can hand them in order (measured at 1 million
-- deliveries and 200,000 lessons). Partial indexes, which schema.prisma cannot express: its
-- models name them in comments.

-- The webhook claim (CLAIM_SQL in src/modules/webhooks/dispatcher.ts) takes each enabled endpoint's
-- oldest due deliveries. From WebhookDelivery_status_nextAttemptAt_idx it read every due delivery
-- of every endpoint, those of disabled endpoints too, to drop them at the join: 100,000 rows and
-- up to 550 ms, about once a second.
CREATE INDEX "WebhookDelivery_pending_endpointId_nextAttemptAt_idx" ON "WebhookDelivery"("endpointId", "nextAttemptAt", "id") WHERE "status" = 'PENDING';

-- GraphQL's User.lessons (publishedByAuthors in src/modules/lessons/service.ts) reads a page of
-- each author's published lessons, newest first. Through the index on authorId it read and sorted
-- all of them: 50,000 lessons for a page of one.
CREATE INDEX "Lesson_published_authorId_createdAt_id_idx" ON "Lesson"("authorId", "createdAt" DESC, "id" DESC) WHERE "status" = 'PUBLISHED';
