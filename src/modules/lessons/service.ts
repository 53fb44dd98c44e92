import { z } from 'zod';
import type { Caller } from '../../context.js';
import type { Db } from '../../db/client.js';
import { badInput, conflict, forbidden, notFound } from '../../errors.js';
import type { Lesson, Prisma } from '../../generated/prisma/client.js';
import { parseWith } from '../../http/validation.js';
import { newId } from '../../ids.js';
import { recordEvent } from '../events/outbox.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

const title = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const summary = z.string().trim().max(1000, 'must be at most 1000 characters').nullable();
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
  createdAt: z.string().describe('ISO 8601 UTC'),
  publishedAt: z.string().nullable().describe('ISO 8601 UTC; null for a draft'),
  updatedAt: z.string().describe('ISO 8601 UTC'),
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

/** Opaque keyset cursor: the position after a lesson in newest-first order. */
export const encodeCursor = (l: Pick<Lesson, 'createdAt' | 'id'>) =>
  Buffer.from(JSON.stringify([l.createdAt.toISOString(), l.id])).toString('base64url');

function decodeCursor(cursor: string, field: string): { createdAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const createdAt = new Date(String(at));
    if (typeof id === 'string' && typeof at === 'string' && !Number.isNaN(createdAt.getTime())) return { createdAt, id };
  } catch {
    // fall through to the 400 below
  }
  throw badInput(field, 'is not a valid cursor');
}

const isAdmin = (caller: Caller) => caller.role === 'ADMIN';
function assertAdmin(caller: Caller): void {
  if (!isAdmin(caller)) throw forbidden();
}

export interface ListLessonsOptions {
  caller: Caller;
  limit?: number;
  cursor?: string;
  /** How the input fields are named to the client, for error messages. */
  fieldNames?: { limit: string; cursor: string };
}

export function createLessonService({ db }: { db: Db }) {
  /** Only ADMIN sees drafts; to anyone else a draft does not exist. */
  const visibleTo = (caller: Caller): Prisma.LessonWhereInput => (isAdmin(caller) ? {} : { status: 'PUBLISHED' });

  return {
    async get({ caller, id }: { caller: Caller; id: string }): Promise<Lesson> {
      const lesson = await db.lesson.findFirst({ where: { id, ...visibleTo(caller) } });
      if (!lesson) throw notFound(`Lesson ${id}`);
      return lesson;
    },

    /** Newest first, keyset-paginated. */
    async list({ caller, limit = DEFAULT_PAGE_SIZE, cursor, fieldNames = { limit: 'limit', cursor: 'cursor' } }: ListLessonsOptions) {
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
        throw badInput(fieldNames.limit, `must be an integer from 1 to ${MAX_PAGE_SIZE}`);
      }
      const after = cursor === undefined ? undefined : decodeCursor(cursor, fieldNames.cursor);
      const rows = await db.lesson.findMany({
        where: {
          ...visibleTo(caller),
          ...(after && {
            OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }],
          }),
        },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: limit + 1,
      });
      const hasMore = rows.length > limit;
      const page = hasMore ? rows.slice(0, limit) : rows;
      return { rows: page, hasMore, nextCursor: hasMore ? encodeCursor(page[page.length - 1]!) : null };
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
    async update({ caller, id, input }: { caller: Caller; id: string; input: unknown }): Promise<Lesson> {
      assertAdmin(caller);
      const data = parseWith(updateLessonInput, input, '');
      return db.$transaction(async (tx) => {
        const found = await tx.lesson.updateMany({ where: { id }, data });
        if (found.count === 0) throw notFound(`Lesson ${id}`);
        await recordEvent(tx, 'lesson.updated', { lessonId: id });
        return tx.lesson.findUniqueOrThrow({ where: { id } });
      });
    },

    /** ADMIN: publishes a draft; emits lesson.published. Publishing twice is a 409. */
    async publish({ caller, id }: { caller: Caller; id: string }): Promise<Lesson> {
      assertAdmin(caller);
      return db.$transaction(async (tx) => {
        const now = new Date();
        // Conditional on DRAFT so that two concurrent publishes emit one event.
        const changed = await tx.lesson.updateMany({ where: { id, status: 'DRAFT' }, data: { status: 'PUBLISHED', publishedAt: now } });
        if (changed.count === 0) {
          const exists = await tx.lesson.count({ where: { id } });
          throw exists ? conflict(`Lesson ${id} is already published`) : notFound(`Lesson ${id}`);
        }
        await recordEvent(tx, 'lesson.published', { lessonId: id });
        return tx.lesson.findUniqueOrThrow({ where: { id } });
      });
    },
  };
}

export type LessonService = ReturnType<typeof createLessonService>;
