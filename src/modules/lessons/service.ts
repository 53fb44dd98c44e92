import { z } from 'zod';
import type { Caller } from '../auth/caller.js';
import type { Db } from '../../db/client.js';
import { assertPrecondition, conflict, forbidden, notFound, type Precondition } from '../../errors.js';
import { Prisma, type Lesson } from '../../generated/prisma/client.js';
import { keysetBounds, keysetPage, keysetQuery, type PageOptions } from '../../db/keyset.js';
import { parseWith } from '../../input.js';
import { newId, lookupId } from '../../ids.js';
import { ADMINS_ONLY, EVERYONE } from '../events/audience.js';
import { recordEvent, type OnCommitted } from '../events/outbox.js';


const title = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
// Only spaces is no summary, as null is: stored as "", it made two ways to say "none".
const summary = z.string().trim().max(1000, 'must be at most 1000 characters').transform((s) => s || null).nullable();
const body = z.string().min(1, 'must not be empty').max(100_000, 'must be at most 100000 characters');

export const createLessonInput = z.strictObject({ title, summary: summary.optional(), body });
export const updateLessonInput = z
  .strictObject({ title: title.optional(), summary: summary.optional(), body: body.optional() })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'give at least one of title, summary, body' });

export const lessonView = z.object({
  id: z.string(),
  title: z.string(),
  summary: z.string().nullable(),
  body: z.string(),
  status: z.enum(['DRAFT', 'PUBLISHED']),
  authorId: z.string(),
  createdAt: z.iso.datetime().describe('ISO 8601 UTC'),
  publishedAt: z.iso.datetime().nullable().describe('ISO 8601 UTC; null for a draft'),
  updatedAt: z.iso.datetime().describe('ISO 8601 UTC'),
});
export type LessonView = z.infer<typeof lessonView>;
export const lessonPage = z.object({ items: z.array(lessonView), nextCursor: z.string().nullable() });

export const toLessonView = (l: Lesson): LessonView => ({
  id: l.id,
  title: l.title,
  summary: l.summary,
  body: l.body,
  status: l.status,
  authorId: l.authorId,
  createdAt: l.createdAt.toISOString(),
  publishedAt: l.publishedAt?.toISOString() ?? null,
  updatedAt: l.updatedAt.toISOString(),
});


const isAdmin = (caller: Caller) => caller.role === 'ADMIN';
function assertAdmin(caller: Caller): void {
  if (!isAdmin(caller)) throw forbidden();
}

export interface ListLessonsOptions extends PageOptions {
  caller: Caller;
}

export interface PublishedByAuthorsOptions extends PageOptions {
  authorIds: readonly string[];
}

/**
 * Locks a lesson for a change and returns the time to stamp it with (null when there is no such
 * lesson). Concurrent changes of one lesson apply in the order they get this lock, so the time is
 * taken once it is held, and never before the lesson's current `updatedAt` (another instance's
 * clock may be ahead): `updatedAt` then follows the order of the changes and of their events.
 * Stamped before the lock (Prisma's @updatedAt takes the time as the statement is built), a change
 * that waited for another one overwrote it with an older `updatedAt`.
 */
async function lockForChange(tx: Prisma.TransactionClient, id: string): Promise<Date | null> {
  const [row] = await tx.$queryRaw<{ updatedAt: Date }[]>`
    SELECT "updatedAt" FROM "Lesson" WHERE id = ${lookupId('Lesson', id)} FOR NO KEY UPDATE`;
  if (!row) return null;
  return new Date(Math.max(Date.now(), new Date(row.updatedAt).getTime()));
}

export function createLessonService({ db, onCommitted }: { db: Db; onCommitted?: OnCommitted }) {
  /** Only ADMIN sees drafts; to anyone else a draft does not exist. */
  const visibleTo = (caller: Caller): Prisma.LessonWhereInput => (isAdmin(caller) ? {} : { status: 'PUBLISHED' });

  return {
    async get({ caller, id }: { caller: Caller; id: string }): Promise<Lesson> {
      const lesson = await db.lesson.findFirst({ where: { id: lookupId('Lesson', id), ...visibleTo(caller) } });
      if (!lesson) throw notFound(`Lesson ${id}`);
      return lesson;
    },

    /** Newest first, keyset-paginated. */
    async list({ caller, ...page }: ListLessonsOptions) {
      const { limit, seek, orderBy, take } = keysetQuery(page);
      const rows = await db.lesson.findMany({ where: { ...visibleTo(caller), ...seek }, orderBy, take });
      return keysetPage(rows, limit);
    },

    /**
     * The same page (newest first, keyset-paginated like `list`) of the published lessons of each
     * of many authors, in one SQL statement: what GraphQL's `User.lessons` needs for every user of
     * a response. Drafts never, whoever asks. Authors without such lessons get an empty page.
     */
    async publishedByAuthors({ authorIds, ...page }: PublishedByAuthorsOptions) {
      const { limit, after } = keysetBounds(page);
      const pages = new Map(authorIds.map((id) => [id, keysetPage<Lesson>([], limit)]));
      if (authorIds.length === 0) return pages;
      // The ISO string with an explicit cast: a Date parameter's time zone is the driver's choice.
      const seek = after
        ? Prisma.sql`AND ("createdAt", id) < (${after.createdAt.toISOString()}::timestamptz, ${after.id})`
        : Prisma.empty;
      // One walk per author down the partial index of published lessons (authorId, createdAt DESC,
      // id DESC), entered at the cursor and stopped after the page: one row more than asked tells
      // whether that author has a next page (as keysetQuery's take). Numbering every row of the
      // authors with a window function sorted all their lessons for a page of one (50,000: 28 MB
      // spilled to disk). `= ANY (ARRAY[…])` and authorId in the ORDER BY keep the planner on that
      // index: with `=`, the (createdAt, id) indexes give the same order, and guessing that an
      // author wrote 1/n of the lessons it may walk one of those filtering by author, through
      // every lesson for an author of none or of only old ones.
      const rows = await db.$queryRaw<Lesson[]>`
        SELECT l.id, l.title, l.summary, l.body, l.status, l."authorId", l."createdAt", l."publishedAt", l."updatedAt"
        FROM (SELECT DISTINCT id FROM unnest(${[...authorIds]}::text[]) AS author(id)) AS a
        CROSS JOIN LATERAL (
          SELECT * FROM "Lesson"
          WHERE "authorId" = ANY (ARRAY[a.id]) AND status = 'PUBLISHED' ${seek}
          ORDER BY "authorId", "createdAt" DESC, id DESC
          LIMIT ${limit + 1}
        ) AS l
        ORDER BY l."authorId", l."createdAt" DESC, l.id DESC`;
      const byAuthor = new Map<string, Lesson[]>();
      for (const row of rows) {
        const lessons = byAuthor.get(row.authorId);
        if (lessons) lessons.push(row);
        else byAuthor.set(row.authorId, [row]);
      }
      for (const [authorId, lessons] of byAuthor) pages.set(authorId, keysetPage(lessons, limit));
      return pages;
    },

    /** ADMIN: a new draft. Emits nothing: drafts are not news. */
    async create({ caller, input }: { caller: Caller; input: unknown }): Promise<Lesson> {
      assertAdmin(caller);
      const data = parseWith(createLessonInput, input, '');
      return db.lesson.create({
        data: { id: newId('les'), title: data.title, summary: data.summary ?? null, body: data.body, authorId: caller.userId },
      });
    },

    /** ADMIN: changes title, summary or body; emits lesson.updated. */
    async update({ caller, id, input, expected }: { caller: Caller; id: string; input: unknown; expected?: Precondition<LessonView> }): Promise<Lesson> {
      assertAdmin(caller);
      const data = parseWith(updateLessonInput, input, '');
      const { lesson, event } = await db.$transaction(async (tx) => {
        const updatedAt = await lockForChange(tx, id);
        if (!updatedAt) throw notFound(`Lesson ${id}`);
        if (expected) assertPrecondition(expected, toLessonView(await tx.lesson.findUniqueOrThrow({ where: { id } })));
        await tx.lesson.updateMany({ where: { id }, data: { ...data, updatedAt } });
        const lesson = await tx.lesson.findUniqueOrThrow({ where: { id } });
        // An edit of a draft is news for ADMINs only, for good (events/audience.ts).
        const recorded = await recordEvent(tx, 'lesson.updated', { lessonId: id }, lesson.status === 'DRAFT' ? ADMINS_ONLY : EVERYONE);
        return { lesson, event: recorded };
      });
      await onCommitted?.([event.payload]);
      return lesson;
    },

    /** ADMIN: publishes a draft; emits lesson.published. Publishing twice is a 409. */
    async publish({ caller, id, expected }: { caller: Caller; id: string; expected?: Precondition<LessonView> }): Promise<Lesson> {
      assertAdmin(caller);
      const { lesson, event } = await db.$transaction(async (tx) => {
        const now = await lockForChange(tx, id);
        if (!now) throw notFound(`Lesson ${id}`);
        if (expected) assertPrecondition(expected, toLessonView(await tx.lesson.findUniqueOrThrow({ where: { id } })));
        // Conditional on DRAFT so that two concurrent publishes emit one event.
        const changed = await tx.lesson.updateMany({ where: { id, status: 'DRAFT' }, data: { status: 'PUBLISHED', publishedAt: now, updatedAt: now } });
        if (changed.count === 0) throw conflict(`Lesson ${id} is already published`);
        const recorded = await recordEvent(tx, 'lesson.published', { lessonId: id });
        return { lesson: await tx.lesson.findUniqueOrThrow({ where: { id } }), event: recorded };
      });
      await onCommitted?.([event.payload]);
      return lesson;
    },
  };
}

export type LessonService = ReturnType<typeof createLessonService>;
