// Demo data, written only into an empty database outside production: the demo accounts, a
// published lesson series and a draft, the series as a published course with two learners in it
// (seed-course.ts), the docs pages, and page views over the last hour, day and fortnight (relative
// to now), so every chart and list has something to show on a fresh start.
import type { Db } from './client.js';
import { newId } from '../ids.js';
import { hashPassword } from '../modules/auth/passwords.js';
import { DOC_PAGES } from '../modules/docs/links.js';
import { seedDemoCourse } from './seed-course.js';

export const DEMO_ACCOUNTS = [
  { email: 'ada@example.com', password: 'lovelace-1815', name: 'Ada Lovelace', role: 'ADMIN', tier: 'PRO' },
  { email: 'grace@example.com', password: 'hopper-1906', name: 'Grace Hopper', role: 'MEMBER', tier: 'FREE' },
  { email: 'alan@example.com', password: 'turing-1912', name: 'Alan Turing', role: 'MEMBER', tier: 'ENTERPRISE' },
] as const;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * A published series, read in order: lessons have no series of their own, so each body says
 * which part it is. The titles and summaries stay as the tests and the docs name them.
 */
const SERIES = 'Foundations of computing';
const LESSONS = [
  { title: 'What is an algorithm?', summary: 'Step-by-step procedures, from Euclid to today.', body: 'An algorithm is a finite sequence of well-defined instructions...' },
  { title: 'Notes on the Analytical Engine', summary: 'The first published program.', body: 'The engine can arrange and combine its numerical quantities exactly as if they were letters...' },
  { title: 'Compilers, briefly', summary: 'From source text to machine code.', body: 'A compiler translates a program written in one language into another...' },
  { title: 'Computable numbers', summary: 'What a machine can and cannot decide.', body: 'The computable numbers may be described briefly as the real numbers whose expressions as a decimal are calculable...' },
].map((lesson, i, all) => ({ ...lesson, body: `${SERIES}, part ${i + 1} of ${all.length}.\n\n${lesson.body}` }));

/** The docs rows point at pages the service serves (src/modules/docs/links.ts). */
const DOCS = DOC_PAGES;
/**
 * Demo page views as a learning site's front end would record them (POST /api/analytics/views
 * takes any path): its own doc pages, one per docs entry. They are analytics data, not links.
 */
const VIEWED_PATHS = DOCS.map((d) => `/docs/${d.slug}`);

/** Extra daytime views by day, so the days differ as a week's do. */
const BUSIER = [0, 1, 2, 1, 0, 2, 3];

/**
 * When the demo page views happened: some in every hour of the last 14 days, more in UTC
 * daytime, and one in each 5 minutes of the last hour, so the console's three charts (last hour,
 * 24 hours, 14 days) all have bars. The counts follow a fixed pattern, not chance, so every fresh
 * start looks alike.
 */
function demoViewTimes(now: number): number[] {
  const times: number[] = [];
  for (let h = 0; h < 14 * 24; h++) {
    const hourOfDay = new Date(now - h * HOUR).getUTCHours();
    const daytime = hourOfDay >= 8 && hourOfDay < 20 ? 2 + BUSIER[Math.floor(h / 24) % BUSIER.length]! : 0;
    const count = h === 0 ? 12 : 1 + ((h * 7) % 3) + daytime;
    for (let j = 0; j < count; j++) times.push(now - h * HOUR - Math.floor(((j + 0.5) * HOUR) / count));
  }
  return times;
}

/** Whether the database has no users: the demo data belongs in it (one row read, at any size). */
export async function isEmpty(db: Db): Promise<boolean> {
  return (await db.user.findFirst({ select: { id: true } })) === null;
}

/** Seeds the demo data when there are no users. Returns whether it did. */
export async function seedIfEmpty(db: Db): Promise<boolean> {
  if (!(await isEmpty(db))) return false;
  const users = await Promise.all(
    DEMO_ACCOUNTS.map(async (a) => ({
      id: newId('usr'), email: a.email, name: a.name, role: a.role, tier: a.tier, passwordHash: await hashPassword(a.password),
    })),
  );
  const [ada, grace, alan] = users.map((u) => u.id) as [string, string, string];
  const now = Date.now();
  // One part every three days, the last one published yesterday.
  const writtenAt = (part: number) => now - (LESSONS.length - 1 - part) * 3 * DAY - DAY - 2 * HOUR;
  const series = LESSONS.map((l, i) => ({
    id: newId('les'), ...l, authorId: ada, status: 'PUBLISHED' as const,
    createdAt: new Date(writtenAt(i)), publishedAt: new Date(writtenAt(i) + HOUR),
  }));
  // One transaction: an empty database is seeded whole or not at all (a half-seeded one has users,
  // so it would never be seeded again).
  await db.$transaction(async (tx) => {
    await tx.user.createMany({ data: users });
    await tx.lesson.createMany({ data: series });
    await tx.lesson.create({
      data: { id: newId('les'), title: 'Draft: Lambda calculus', summary: null, body: 'Work in progress.', authorId: ada },
    });
    await seedDemoCourse(tx, {
      authorId: ada, title: SERIES, summary: 'The series, in order: from algorithms to computable numbers.',
      lessons: series, learners: { grace, alan }, now,
    });
    await tx.docPage.createMany({ data: DOCS.map((d) => ({ id: newId('doc'), ...d })) });
    // Two arrays in one statement: Prisma's createMany spent a third of the seed building 4,000
    // parameters for these rows.
    const times = demoViewTimes(now);
    const paths = times.map((_, i) => VIEWED_PATHS[i % VIEWED_PATHS.length]!);
    const ats = times.map((at) => new Date(at).toISOString());
    await tx.$executeRaw`INSERT INTO "PageView" (path, at) SELECT * FROM unnest(${paths}::text[], ${ats}::timestamptz[])`;
  });
  return true;
}
