// The console's Courses view and the course events in its live feed, in a real browser (Debian's
// Chromium driven by playwright-core) against the real service: on a fresh start it shows the demo
// course with its learners' figures and its completion chart; on a start without the demo data it
// says there is no course yet and how to create one; then, while ada watches, a course is created,
// published and renamed over REST and a learner enrols and completes it: the live feed shows the
// five course events with their course, lesson and learner, and the view (refreshed) shows the
// course published with enrolled 1, completed 1, 100 %, one completion today in its chart and each
// lesson completed by 1, beside a draft. At 375 px the view does not scroll sideways. Throughout:
// no request to another origin and no console error. Screenshots go to test-results/.
import { mkdir } from 'node:fs/promises';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { DEMO_ACCOUNTS } from '../src/db/seed.js';
import { newLearner, publishedLessons } from './enrollments-helpers.js';
import { watchPage } from './support/browser.js';
import { browserTest } from './support/fixtures.js';
import type { Client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { sql, startTestServer, type TestServer } from './support/server.js';

const ARTIFACTS = 'test-results';
/** How long the UI may take to show what the server did on a busy 2-core machine. */
const UI_TIMEOUT_MS = 20_000;
const ada = DEMO_ACCOUNTS.find((a) => a.email.startsWith('ada'))!;

const it = browserTest({ env: NO_RATE_LIMITS }, { withConsole: true });

let server: TestServer;
let api: Client;
let browser: Browser;
let origin: string;

it.beforeAll(({ server: started, api: itsClient, browser: launched }) => {
  server = started;
  api = itsClient;
  browser = launched;
  origin = new URL(server.url).origin;
});

async function screenshot(target: Page | Locator, name: string) {
  await mkdir(ARTIFACTS, { recursive: true });
  await target.screenshot({ path: `${ARTIFACTS}/${name}.png` });
}

async function watchedPage(width = 1280): Promise<{ context: BrowserContext; page: Page; requests: string[]; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  return { context, page, ...watchPage(page) };
}

/** The event stream's request, closed by the console itself when the page closes. */
const STREAM_CLOSED = /^request failed: \S+\/graphql net::ERR_ABORTED/;

function expectClean(requests: string[], problems: string[], own = origin) {
  expect(requests.length).toBeGreaterThan(0);
  expect(requests.filter((url) => !['blob:', 'data:'].includes(new URL(url).protocol) && new URL(url).origin !== own)).toEqual([]);
  expect(problems.filter((problem) => !STREAM_CLOSED.test(problem))).toEqual([]);
}

/** Opens the console and signs in (as ada unless told); resolves once the live feed is connected. */
async function openConsole(page: Page, { url = server.url, account = ada }: { url?: string; account?: { email: string; password: string } } = {}) {
  await page.goto(`${url}/console`);
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('.feed .badge', { hasText: 'live' }).waitFor({ timeout: UI_TIMEOUT_MS });
}

const coursesSection = (page: Page) => page.locator('section', { has: page.getByRole('heading', { name: 'Courses', exact: true }) });
const feedItem = (page: Page, event: string, text: string) =>
  page.getByRole('list', { name: 'Live events' }).getByRole('listitem').filter({ hasText: event }).filter({ hasText: text });
/** The bars of the completion chart, oldest day first, from its accessible label. */
async function completionBars(page: Page): Promise<number[]> {
  const label = await page.locator('.completion-chart').getAttribute('aria-label');
  return (label ?? '').replace(/^Completions by day: /, '').split(', ').map(Number);
}

const ok = async (reply: Promise<{ status: number; text: string }>, status = 200) => {
  const { status: got, text } = await reply;
  expect(got, text).toBe(status);
};

describe('the Courses view', () => {
  it('on a fresh start, shows the demo course: its learners, completion rate, chart and lessons', async () => {
    const { context, page, requests, problems } = await watchedPage();
    try {
      await openConsole(page);
      const courses = coursesSection(page);
      const row = courses.locator('tbody tr', { has: page.getByRole('button', { name: 'Foundations of computing' }) });
      await row.waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await courses.getByRole('table', { name: 'Courses' }).locator('tbody tr').count()).toBe(1);
      expect(await row.locator('td[data-label="Status"]').innerText()).toBe('published');
      expect(await row.locator('td[data-label="Lessons"]').innerText()).toBe('4');
      expect(await row.locator('td[data-label="Enrolled"]').innerText()).toBe('2');
      expect(await row.locator('td[data-label="Completed"]').innerText()).toBe('1');
      expect(await row.locator('td[data-label="Completion rate"]').innerText()).toMatch(/^50\s%$/);

      // Shown below at first, the only course: Alan's completion within the last day (today or
      // yesterday, UTC), and each lesson completed by the enrolled learners who did it.
      const detail = courses.getByRole('region', { name: 'Foundations of computing' });
      await detail.locator('.completion-chart canvas').waitFor({ timeout: UI_TIMEOUT_MS });
      const bars = await completionBars(page);
      expect(bars).toHaveLength(30);
      expect(bars.reduce((a, b) => a + b, 0)).toBe(1);
      expect(bars.slice(-2).reduce((a, b) => a + b, 0)).toBe(1);
      await expect(detail.innerText()).resolves.toMatch(/1 completion in the last 30 days, by day/);
      const lessons = detail.getByRole('table', { name: 'Lessons of the course' }).locator('tbody tr');
      const expected = [['What is an algorithm?', 2], ['Notes on the Analytical Engine', 1], ['Compilers, briefly', 1], ['Computable numbers', 1]] as const;
      expect(await lessons.count()).toBe(expected.length);
      for (const [i, [title, completed]] of expected.entries()) {
        await expect(lessons.nth(i).innerText()).resolves.toMatch(new RegExp(`${title.replace('?', '\\?')}[\\s\\S]*${completed} of 2 enrolled`));
      }
      await screenshot(courses, 'console-courses-demo');
      expectClean(requests, problems);
    } finally {
      await context.close();
    }
  });

  it('without the demo data, says there is no course yet and how to create one', async () => {
    const empty = await startTestServer({ env: { ...NO_RATE_LIMITS, SEED: 'never' } });
    const { context, page, requests, problems } = await watchedPage();
    try {
      // An ADMIN of its own: the demo accounts are not there either.
      const admin = { email: 'admin@example.com', password: 'an-admin-password' };
      const registered = await fetch(`${empty.url}/api/auth/register`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...admin, name: 'Admin' }),
      });
      expect(registered.status).toBe(201);
      await sql(empty, `UPDATE "User" SET role = 'ADMIN' WHERE email = $1`, [admin.email]);

      await openConsole(page, { url: empty.url, account: admin });
      const courses = coursesSection(page);
      await courses.getByText('No courses yet.').waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(courses.innerText()).resolves.toMatch(/POST \/api\/v1\/courses[\s\S]*PUT \/api\/v1\/courses\/\{id\}\/lessons[\s\S]*POST \/api\/v1\/courses\/\{id\}\/publish/);
      expect(await courses.getByRole('link', { name: 'the API reference' }).getAttribute('href')).toBe('/reference#tag/courses');
      expectClean(requests, problems, new URL(empty.url).origin);
    } finally {
      await context.close();
      await empty.stop();
    }
  });

  it('shows a course learners enrol in and complete, with its events in the live feed as they happen', async () => {
    const { token } = await api.loginAs('ada');
    const lessonIds = await publishedLessons(api, token, 2);
    const draft = await api.post('/api/v1/courses', { title: 'Still a draft' }, { token });
    expect(draft.status, draft.text).toBe(201);
    const { context, page, requests, problems } = await watchedPage(1400);
    try {
      await openConsole(page);
      const courses = coursesSection(page);
      await courses.getByRole('table', { name: 'Courses' }).waitFor({ timeout: UI_TIMEOUT_MS });

      // While the console watches: the course is made, published and renamed; a learner enrols and completes it.
      const made = await api.post('/api/v1/courses', { title: 'SQL in a week', summary: 'Two lessons' }, { token });
      expect(made.status, made.text).toBe(201);
      const courseId = (made.body as { id: string }).id;
      await ok(api.request('PUT', `/api/v1/courses/${courseId}/lessons`, { token, body: { lessonIds } }));
      await ok(api.post(`/api/v1/courses/${courseId}/publish`, undefined, { token }));
      await ok(api.patch(`/api/v1/courses/${courseId}`, { title: 'SQL in two weeks' }, { token }));
      const learner = await newLearner(api, 'Console learner');
      await ok(api.request('PUT', `/api/v1/courses/${courseId}/enrollment`, { token: learner.token }), 201);
      for (const lessonId of lessonIds) await ok(api.post(`/api/v1/lessons/complete?id=${lessonId}`, undefined, { token: learner.token }));

      // The live feed: each event with every subject it names, without a reload.
      const subjects = async (item: Locator) =>
        Object.fromEntries(
          await item.locator('[data-subject]').evaluateAll((spans) => spans.map((s) => [s.getAttribute('data-subject'), s.querySelector('code')?.textContent])),
        ) as Record<string, string>;
      const expected: [string, Record<string, string>][] = [
        ['course.published', { course: courseId }],
        ['course.updated', { course: courseId }],
        ['enrollment.created', { course: courseId, user: learner.id }],
        ['lesson.completed', { lesson: lessonIds[0]!, user: learner.id }],
        ['lesson.completed', { lesson: lessonIds[1]!, user: learner.id }],
        ['course.completed', { course: courseId, user: learner.id }],
      ];
      for (const [event, names] of expected) {
        const item = feedItem(page, event, Object.values(names)[0]!).filter({ hasText: Object.values(names).at(-1)! });
        await item.waitFor({ timeout: UI_TIMEOUT_MS });
        expect(await subjects(item), event).toEqual(names);
        await expect(item.locator('time').innerText()).resolves.toMatch(/^\d{2}:\d{2}:\d{2}$/);
      }

      // Refreshed, the view shows the course's numbers; the newest course is the one shown below.
      await courses.getByRole('button', { name: 'Refresh' }).click();
      const row = courses.locator(`tr[data-course-id="${courseId}"]`);
      await row.getByRole('button', { name: 'SQL in two weeks' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await expect.poll(() => row.locator('td[data-label="Completed"]').innerText(), { timeout: UI_TIMEOUT_MS }).toBe('1');
      expect(await row.locator('td[data-label="Status"]').innerText()).toBe('published');
      expect(await row.locator('td[data-label="Lessons"]').innerText()).toBe('2');
      expect(await row.locator('td[data-label="Enrolled"]').innerText()).toBe('1');
      expect(await row.locator('td[data-label="Completion rate"]').innerText()).toMatch(/^100\s%$/);
      const draftRow = courses.locator(`tr[data-course-id="${(draft.body as { id: string }).id}"]`);
      expect(await draftRow.locator('td[data-label="Status"]').innerText()).toBe('draft');
      expect(await draftRow.locator('td[data-label="Completion rate"]').innerText()).toMatch(/^0\s%$/);

      // The chosen course: one completion today (the chart's last day, UTC), each lesson completed by 1.
      const detail = courses.getByRole('region', { name: 'SQL in two weeks' });
      await detail.locator('.completion-chart canvas').waitFor({ timeout: UI_TIMEOUT_MS });
      const bars = await completionBars(page);
      expect(bars).toHaveLength(30);
      expect(bars.at(-1)).toBe(1);
      expect(bars.reduce((a, b) => a + b, 0)).toBe(1);
      await expect(detail.innerText()).resolves.toMatch(/1 completion in the last 30 days, by day/);
      const lessons = detail.getByRole('table', { name: 'Lessons of the course' }).locator('tbody tr');
      expect(await lessons.count()).toBe(2);
      for (const [i, lessonId] of lessonIds.entries()) {
        const line = lessons.nth(i);
        expect(await line.getAttribute('data-lesson-id')).toBe(lessonId);
        await expect(line.innerText()).resolves.toMatch(new RegExp(`Lesson ${i}[\\s\\S]*1 of 1 enrolled`));
      }
      // The chart's axis is labelled by UTC day (`29 Nov`), not a 12-hour time.
      await screenshot(courses, 'console-courses');

      // Choosing the draft shows its (empty) numbers instead.
      await draftRow.getByRole('button', { name: 'Still a draft' }).click();
      const draftDetail = courses.getByRole('region', { name: 'Still a draft' });
      await draftDetail.getByText('0 completions in the last 30 days').waitFor({ timeout: UI_TIMEOUT_MS });
      await draftDetail.getByText('This course has no lessons yet').waitFor();
      expect(await completionBars(page)).toEqual(Array.from({ length: 30 }, () => 0));
      expectClean(requests, problems);
    } finally {
      await context.close();
    }
  });

  it('fits a 375 px screen without scrolling sideways, the chart following the window as it narrows', async () => {
    const { token } = await api.loginAs('ada');
    const long = await api.post('/api/v1/courses', { title: 'A course with a rather long title, to see how it wraps on a phone screen' }, { token });
    expect(long.status, long.text).toBe(201);
    const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    const { context, page, requests, problems } = await watchedPage();
    try {
      await openConsole(page);
      const courses = coursesSection(page);
      await courses.locator('.completion-chart canvas').waitFor({ timeout: UI_TIMEOUT_MS });
      await page.setViewportSize({ width: 375, height: 800 });
      await expect.poll(() => sideways(page), { timeout: UI_TIMEOUT_MS }).toBe(0);
      // The course that has lessons: its lesson table too.
      await courses.getByRole('button', { name: 'SQL in two weeks' }).click();
      await courses.getByRole('table', { name: 'Lessons of the course' }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await sideways(page)).toBe(0);
      const chart = await courses.locator('.completion-chart').boundingBox();
      expect(chart!.x + chart!.width).toBeLessThanOrEqual(375);
      await screenshot(page, 'console-courses-phone');
      // Opened at 375 px from the start.
      await page.reload();
      await courses.locator('.completion-chart canvas').waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await sideways(page)).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      expectClean(requests, problems);
    } finally {
      await context.close();
    }
  });
});
