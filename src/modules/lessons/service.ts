// Lessons: drafts that ADMINs write and publish, read by everyone signed in once published.
import type { Caller } from '../auth/caller.js';
import { assertAdmin } from '../auth/roles.js';
import type { Db } from '../../db/client.js';
import { assertPrecondition, conflict, notFound, type Precondition } from '../../errors.js';
import { Prisma, type Lesson } from '../../generated/prisma/client.js';
import { keysetPage, keysetSeek, type PageRequest } from '../../db/keyset.js';
import { newId, lookupId } from '../../ids.js';
import { ADMINS_ONLY, EVERYONE } from '../events/audience.js';
import type { Write } from '../events/write.js';
import type { CreateLessonInput, UpdateLessonInput } from './inputs.js';
import { toLessonView, type LessonView } from './views.js';

export interface ListLessonsOptions {
  caller: Caller;
  page: PageRequest;
}

export interface PublishedByAuthorsOptions {
  authorIds: readonly string[];
  page: PageRequest;
}

/**
 * Locks a lesson for a change: the lesson as it is under the lock, and the time to stamp the change
 * with (null when there is no such lesson). Changes of one lesson apply in the order they get this
 * lock, so the time is taken once it is held, and never before the lesson's `updatedAt` (another
 * instance's clock may be ahead): `updatedAt` then follows the order of the changes and their events.
 * Prisma's @updatedAt would take the time as the statement is built, before the lock.
 */
async function lockForChange(tx: Prisma.TransactionClient, id: string): Promise<{ lesson: Lesson; now: Date } | null> {
  const [lesson] = await tx.$queryRaw<Lesson[]>`
    SELECT id, title, summary, body, status, "authorId", "createdAt", "publishedAt", "updatedAt"
    FROM "Lesson" WHERE id = ${lookupId('Lesson', id)} FOR NO KEY UPDATE`;
  if (!lesson) return null;
  return { lesson, now: new Date(Math.max(Date.now(), lesson.updatedAt.getTime())) };
}

export function createLessonService({ db, write }: { db: Db; write: Write }) {
  /** Only ADMIN sees drafts; to anyone else a draft does not exist. */
  const visibleTo = (caller: Caller): Prisma.LessonWhereInput => (caller.role === 'ADMIN' ? {} : { status: 'PUBLISHED' });

  /** The locked lesson (see lockForChange), once it is known to exist and to match `expected`. */
  async function lockExpected(tx: Prisma.TransactionClient, id: string, expected: Precondition<LessonView> | undefined) {
    const locked = await lockForChange(tx, id);
    if (!locked) throw notFound(`Lesson ${id}`);
    if (expected) assertPrecondition(expected, toLessonView(locked.lesson));
    return locked;
  }

  return {
    async get({ caller, id }: { caller: Caller; id: string }): Promise<Lesson> {
      const lesson = await db.lesson.findFirst({ where: { id: lookupId('Lesson', id), ...visibleTo(caller) } });
      if (!lesson) throw notFound(`Lesson ${id}`);
      return lesson;
    },

    /** Newest first, keyset-paginated. */
    async list({ caller, page }: ListLessonsOptions) {
      const { limit, seek, orderBy, take } = keysetSeek(page);
      const rows = await db.lesson.findMany({ where: { ...visibleTo(caller), ...seek }, orderBy, take });
      return keysetPage(rows, limit);
    },

    /**
     * The same page (newest first, keyset-paginated like `list`) of the published lessons of each
     * of many authors, in one SQL statement: what GraphQL's `User.lessons` needs for every user of
     * a response. Drafts never, whoever asks. Authors without such lessons get an empty page.
     */
    async publishedByAuthors({ authorIds, page: { limit, after } }: PublishedByAuthorsOptions) {
      const pages = new Map(authorIds.map((id) => [id, keysetPage<Lesson>([], limit)]));
      if (authorIds.length === 0) return pages;
      // The ISO string with an explicit cast: a Date parameter's time zone is the driver's choice.
      const seek = after
        ? Prisma.sql`AND ("createdAt", id) < (${after.createdAt.toISOString()}::timestamptz, ${after.id})`
        : Prisma.empty;
      // One walk per author down the partial index of published lessons (authorId, createdAt DESC,
      // id DESC), entered at the cursor and stopped one row past the page (that row tells whether
      // there is a next page), rather than sorting all of an author's lessons. `= ANY (ARRAY[…])`
      // and authorId in the ORDER BY keep the planner on that index: with `=` it may prefer a
      // (createdAt, id) index and filter it by author, reading every lesson for a rare author.
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
    async create({ caller, input }: { caller: Caller; input: CreateLessonInput }): Promise<Lesson> {
      assertAdmin(caller);
      return db.lesson.create({
        data: { id: newId('les'), title: input.title, summary: input.summary ?? null, body: input.body, authorId: caller.userId },
      });
    },

    /** ADMIN: changes title, summary or body; emits lesson.updated. */
    async update({ caller, id, input, expected }: { caller: Caller; id: string; input: UpdateLessonInput; expected?: Precondition<LessonView> }): Promise<Lesson> {
      assertAdmin(caller);
      return write(async (tx, record) => {
        const { now } = await lockExpected(tx, id, expected);
        const lesson = await tx.lesson.update({ where: { id }, data: { ...input, updatedAt: now } });
        // An edit of a draft is news for ADMINs only, for good (events/audience.ts).
        await record('lesson.updated', { lessonId: id }, lesson.status === 'DRAFT' ? ADMINS_ONLY : EVERYONE);
        return lesson;
      });
    },

    /** ADMIN: publishes a draft; emits lesson.published. Publishing twice is a 409. */
    async publish({ caller, id, expected }: { caller: Caller; id: string; expected?: Precondition<LessonView> }): Promise<Lesson> {
      assertAdmin(caller);
      return write(async (tx, record) => {
        const { lesson, now } = await lockExpected(tx, id, expected);
        // Read under the lock: of two concurrent publishes, the second sees the first's and refuses.
        if (lesson.status !== 'DRAFT') throw conflict(`Lesson ${id} is already published`);
        const published = await tx.lesson.update({ where: { id }, data: { status: 'PUBLISHED', publishedAt: now, updatedAt: now } });
        await record('lesson.published', { lessonId: id });
        return published;
      });
    },
  };
}

export type LessonService = ReturnType<typeof createLessonService>;
