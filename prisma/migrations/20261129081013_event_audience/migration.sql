-- Who sees an event in the event list and the subscription (src/modules/events/audience.ts): an
-- event about a draft is for ADMINs alone, an event about one learner for that learner (and
-- ADMINs), anything else for everyone. Recorded with the event, so the live fan-out filters
-- without reading the database and an event about a draft stays hidden once it is published.
-- Constant defaults: PostgreSQL adds both columns without rewriting the table.
ALTER TABLE "Event" ADD COLUMN     "adminOnly" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "ownerId" TEXT;

-- The events recorded before: a lesson.updated whose lesson was still a draft then (it is a draft
-- now, or was published at or after the event, or is unknown: erring on hiding). The
-- other names were public data when recorded.
UPDATE "Event" e SET "adminOnly" = true
 WHERE e.type = 'lesson.updated'
   AND NOT EXISTS (
     SELECT 1 FROM "Lesson" l
      WHERE l.id = e.payload->>'lessonId' AND l.status = 'PUBLISHED' AND l."publishedAt" < e."createdAt");
