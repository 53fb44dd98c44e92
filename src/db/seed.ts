// Demo data, written only into an empty database outside production.
import type { Db } from './client.js';
import { newId } from '../ids.js';
import { hashPassword } from '../modules/auth/passwords.js';
import { DOC_PAGES } from '../modules/docs/links.js';

export const DEMO_ACCOUNTS = [
  { email: 'ada@example.com', password: 'lovelace-1815', name: 'Ada Lovelace', role: 'ADMIN', tier: 'PRO' },
  { email: 'grace@example.com', password: 'hopper-1906', name: 'Grace Hopper', role: 'MEMBER', tier: 'FREE' },
  { email: 'alan@example.com', password: 'turing-1912', name: 'Alan Turing', role: 'MEMBER', tier: 'ENTERPRISE' },
] as const;

const LESSONS = [
  { title: 'What is an algorithm?', summary: 'Step-by-step procedures, from Euclid to today.', body: 'An algorithm is a finite sequence of well-defined instructions...' },
  { title: 'Notes on the Analytical Engine', summary: 'The first published program.', body: 'The engine can arrange and combine its numerical quantities exactly as if they were letters...' },
  { title: 'Compilers, briefly', summary: 'From source text to machine code.', body: 'A compiler translates a program written in one language into another...' },
  { title: 'Computable numbers', summary: 'What a machine can and cannot decide.', body: 'The computable numbers may be described briefly as the real numbers whose expressions as a decimal are calculable...' },
];

/** The docs rows point at pages the service serves (src/modules/docs/links.ts). */
const DOCS = DOC_PAGES;
/**
 * Demo page views as a learning site's front end would record them (POST /api/analytics/views
 * takes any path): its own doc pages, one per docs entry. They are analytics data, not links.
 */
const VIEWED_PATHS = DOCS.map((d) => `/docs/${d.slug}`);

/** Seeds the demo data when there are no users. Returns whether it did. */
export async function seedIfEmpty(db: Db): Promise<boolean> {
  if ((await db.user.count()) > 0) return false;
  const users = await Promise.all(
    DEMO_ACCOUNTS.map(async (a) => ({
      id: newId('usr'), email: a.email, name: a.name, role: a.role, tier: a.tier, passwordHash: await hashPassword(a.password),
    })),
  );
  const ada = users[0]!.id;
  const base = Date.now() - 30 * 86_400_000;
  await db.$transaction([
    db.user.createMany({ data: users }),
    db.lesson.createMany({
      data: LESSONS.map((l, i) => ({
        id: newId('les'), ...l, authorId: ada, status: 'PUBLISHED' as const,
        createdAt: new Date(base + i * 86_400_000), publishedAt: new Date(base + i * 86_400_000 + 3_600_000),
      })),
    }),
    db.lesson.create({
      data: { id: newId('les'), title: 'Draft: Lambda calculus', summary: null, body: 'Work in progress.', authorId: ada },
    }),
    db.docPage.createMany({ data: DOCS.map((d) => ({ id: newId('doc'), ...d })) }),
    db.pageView.createMany({
      data: Array.from({ length: 12 }, (_, i) => ({ path: VIEWED_PATHS[i % VIEWED_PATHS.length]!, at: new Date(base + i * 3_600_000) })),
    }),
  ]);
  return true;
}
