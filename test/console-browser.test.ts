// The operator console (GET /console) as an ADMIN uses it, in a real browser (Debian's Chromium
// driven by playwright-core) against the real service and a real webhook receiver on loopback:
// on a fresh start, the seeded page views fill all three charts and the live feed shows an event
// committed while the console signs in; sign in as ada, create an endpoint (after a URL the server refuses), send a test and see it
// SUCCEEDED in the delivery log with the endpoint's health updated, check the signing secret the
// console showed once against the receiver's request, publish a lesson over REST and see it in
// the live feed without a reload, rotate the secret, manage an API key, watch the page-view chart
// count new views. A MEMBER (grace) is refused plainly; a wrong password and a network error show
// their messages next to the field. One-time secrets have a copy button; times are 24-hour UTC,
// said once; at 375 px nothing scrolls sideways. Throughout: no request to another origin, no
// console error, and the token never in localStorage, a cookie or a URL (only sessionStorage).
// Screenshots go to test-results/ (git-ignored), also when a test fails.
import { mkdir } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { verifyWebhook } from '../src/client/index.js';
import { DEMO_ACCOUNTS } from '../src/db/seed.js';
import { watchPage } from './support/browser.js';
import { browserTest } from './support/fixtures.js';
import type { Client } from './support/http.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import type { Receiver } from './support/receiver.js';
import type { TestServer } from './support/server.js';

const ARTIFACTS = 'test-results';
/** How long the UI may take to show what the server did (a delivery, an event) on a busy 2-core machine. */
const UI_TIMEOUT_MS = 20_000;
const STORAGE_KEY = 'learnstream.console.session';

const account = (who: string) => DEMO_ACCOUNTS.find((a) => a.email.startsWith(who))!;

// A webhook receiver on loopback (allowed outside production: WEBHOOK_ALLOW_PRIVATE_TARGETS).
const it = browserTest({ env: { ...NO_RATE_LIMITS, WEBHOOK_RETRY_SCHEDULE: '1s,2s', WEBHOOK_TIMEOUT_MS: '5000' } }, { withConsole: true, respond: () => 204 });

let server: TestServer;
let api: Client;
let browser: Browser;
let origin: string;
let receiver: Receiver;
let receiverUrl: string;

it.beforeAll(({ server: started, api: itsClient, browser: launched, rx }) => {
  server = started;
  api = itsClient;
  browser = launched;
  origin = new URL(server.url).origin;
  receiver = rx;
  receiverUrl = new URL('/hooks/learnstream', receiver.url).toString();
});

async function screenshot(page: Page, name: string, fullPage = false) {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}/${name}.png`, fullPage });
}

/** A fresh browser profile and page that records every request and every problem. */
async function watchedPage(): Promise<{ context: BrowserContext; page: Page; requests: string[]; problems: string[] }> {
  // The clipboard permissions let a test read what a copy button wrote.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  return { context, page, ...watchPage(page) };
}

/** Where the token may and may not be: sessionStorage only, never localStorage, a cookie or a URL. */
async function expectTokenOnlyInSessionStorage(context: BrowserContext, page: Page, requests: string[]): Promise<void> {
  const stored = await page.evaluate((key) => ({ session: sessionStorage.getItem(key), localLength: localStorage.length, cookie: document.cookie }), STORAGE_KEY);
  expect(stored.localLength).toBe(0);
  expect(stored.cookie).toBe('');
  expect(await context.cookies()).toEqual([]);
  const token = stored.session ? (JSON.parse(stored.session) as { token: string }).token : undefined;
  if (token) {
    expect(token).toMatch(/^ey/);
    for (const url of [...requests, page.url()]) expect(url).not.toContain(token);
  }
  for (const url of [...requests, page.url()]) expect(url).not.toMatch(/token|ey[\w-]{20,}\.[\w-]+\./i);
}

/**
 * What the browser itself logs for a refusal the test caused on purpose: Chromium reports every
 * fetch answered 4xx as "Failed to load resource" (the console's code logs nothing).
 */
const browserLogged = (status: number) => new RegExp(`^console error: Failed to load resource: the server responded with a status of ${status} `);
/** The event stream's request, closed by the console itself (signing out, or the page reloading). */
const STREAM_CLOSED = /^request failed: \S+\/graphql net::ERR_ABORTED/;

/** Every request went to our origin, and nothing went wrong (no failed request, no console error) but what the test caused. */
function expectClean(requests: string[], problems: string[], expected: RegExp[] = []) {
  expect(requests.length).toBeGreaterThan(0);
  expect(requests.filter((url) => !['blob:', 'data:'].includes(new URL(url).protocol) && new URL(url).origin !== origin)).toEqual([]);
  expect(problems.filter((problem) => !expected.some((pattern) => pattern.test(problem)))).toEqual([]);
}

async function signIn(page: Page, who: string, password: string = account(who).password) {
  await page.getByLabel('E-mail').fill(account(who).email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** What the page's clipboard holds. */
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

/** The bars of the page-view chart, from its accessible label. */
async function bars(page: Page): Promise<number[]> {
  const label = await page.locator('.chart').getAttribute('aria-label');
  return (label ?? '').replace(/^Page views: /, '').split(', ').map(Number);
}

/**
 * Publishes a lesson when the console opens its event stream, and lets the stream's request go
 * on only once the event is in the event list (positioned, so the stream's start is past it): only
 * a feed that starts from the newest event at sign-in shows it. Returns what it saw: the lesson,
 * and the `after` the stream was opened with (null: none).
 */
async function publishBeforeTheStream(page: Page): Promise<{ lessonId?: string; after?: string | null }> {
  const { token } = await api.loginAs('ada');
  const seen: { lessonId?: string; after?: string | null } = {};
  await page.route(
    (url) => url.pathname === '/graphql',
    async (route) => {
      const request = route.request();
      if (seen.after !== undefined || request.method() !== 'POST' || !(request.headers()['accept'] ?? '').includes('text/event-stream')) {
        return route.fallback();
      }
      seen.after = (JSON.parse(request.postData() ?? '{}') as { variables?: { after?: string } }).variables?.after ?? null;
      try {
        const lesson = await api.post('/api/v1/lessons', { title: 'Published while signing in', body: 'Committed before the feed connected.' }, { token });
        const lessonId = (lesson.body as { id: string }).id;
        expect((await api.post(`/api/v1/lessons/publish?id=${lessonId}`, undefined, { token })).status).toBe(200);
        await expect
          .poll(async () => {
            const listed = await api.get('/api/v1/events?types=lesson.published&limit=1000', { token });
            return (listed.body as { items: { lessonId: string }[] }).items.some((e) => e.lessonId === lessonId);
          }, { timeout: UI_TIMEOUT_MS })
          .toBe(true);
        seen.lessonId = lessonId;
      } finally {
        await route.continue();
      }
    },
  );
  return seen;
}

describe('the console on a fresh start', () => {
  it('shows the seeded page views in all three charts; the live feed shows an event committed while it signs in, on the first sign-in and after a reload', async () => {
    const { context, page, requests, problems } = await watchedPage();
    try {
      const first = await publishBeforeTheStream(page);
      await page.goto(`${server.url}/console`);
      await signIn(page, 'ada');
      const feed = page.getByRole('list', { name: 'Live events' });
      await expect.poll(() => first.lessonId, { timeout: UI_TIMEOUT_MS }).toBeDefined();
      const item = feed.getByRole('listitem').filter({ hasText: first.lessonId! }).filter({ hasText: 'lesson.published' });
      await item.waitFor({ timeout: UI_TIMEOUT_MS });
      // A fresh start holds the seed's events: the stream opened `after` the newest of them.
      expect(first.after).toMatch(/^evt_/);
      // Its time in 24-hour UTC, as every time in the console; the top bar says so, once.
      const time = item.locator('time');
      expect(await time.innerText()).toBe((await time.getAttribute('datetime'))!.slice(11, 19));
      await expect(page.locator('.topbar').innerText()).resolves.toContain('Times in UTC, 24-hour');
      await expect(page.getByText(/UTC/).count()).resolves.toBe(1);

      // The seed's page views: bars in (nearly) every bucket of each range.
      const views = page.locator('section', { has: page.getByRole('heading', { name: 'Page views' }) });
      for (const [range, buckets] of [['Last hour', 12], ['Last 24 hours', 24], ['Last 14 days', 14]] as const) {
        await views.getByRole('button', { name: range }).click();
        await expect.poll(async () => (await bars(page)).length, { timeout: UI_TIMEOUT_MS }).toBe(buckets);
        // The bucket now in progress may not have a view yet.
        expect((await bars(page)).filter((n) => n > 0).length, range).toBeGreaterThanOrEqual(buckets - 1);
        await views.screenshot({ path: `${ARTIFACTS}/console-fresh-${buckets === 12 ? 'hour' : buckets === 24 ? 'day' : 'fortnight'}.png` });
      }
      await screenshot(page, 'console-fresh', true);

      // A reload signs in again from the saved session, now with events stored: the stream opens
      // `after` the newest, and replays the one committed meanwhile.
      const second = await publishBeforeTheStream(page);
      await page.reload();
      await expect.poll(() => second.lessonId, { timeout: UI_TIMEOUT_MS }).toBeDefined();
      await feed.getByRole('listitem').filter({ hasText: second.lessonId! }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(second.after).toMatch(/^evt_/);
      expectClean(requests, problems, [STREAM_CLOSED]);
    } finally {
      await context.close();
    }
  });
});

describe('the console in a browser, as an ADMIN', () => {
  it('signs ada in, creates an endpoint to a local receiver, sends a test and shows it SUCCEEDED; a lesson published over REST appears live', async () => {
    const { context, page, requests, problems } = await watchedPage();
    try {
      const document = await page.goto(`${server.url}/console`);
      expect(document?.status()).toBe(200);
      // A page: not rate limited.
      expect(document?.headers()['ratelimit-policy']).toBeUndefined();
      await signIn(page, 'ada');
      await page.getByRole('heading', { name: 'Webhook endpoints' }).waitFor();
      await expect(page.locator('.topbar .who').innerText()).resolves.toContain('ada@example.com');
      await expect(page.getByText('Loading the console…').count()).resolves.toBe(0);
      await expectTokenOnlyInSessionStorage(context, page, requests);

      // A URL the server refuses: its own message, next to the URL field.
      await page.getByRole('button', { name: 'New endpoint' }).click();
      const form = page.getByRole('form', { name: 'New endpoint' });
      const refused = await api.post('/api/v1/webhooks', { url: 'ftp://example.com/hook', events: ['lesson.published'] }, { token: (await api.loginAs('ada')).token });
      expect(refused.status).toBe(400);
      await form.getByLabel('URL').fill('ftp://example.com/hook');
      await form.getByRole('button', { name: 'Create endpoint' }).click();
      const urlField = form.locator('.field', { has: page.getByLabel('URL') });
      await expect(urlField.getByRole('alert').innerText({ timeout: UI_TIMEOUT_MS })).resolves.toBe((refused.body as { message: string }).message);

      // The endpoint, for lesson.published (checked by default) and user.updated.
      await form.getByLabel('URL').fill(receiverUrl);
      await form.getByLabel('user.updated').check();
      await form.getByLabel('Description (optional)').fill('Browser test receiver');
      await form.getByRole('button', { name: 'Create endpoint' }).click();
      const secretBox = page.locator('.once').filter({ hasText: 'Signing secret of' });
      const secret = await secretBox.locator('code').innerText({ timeout: UI_TIMEOUT_MS });
      expect(secret).toMatch(/^whsec_/);
      // Its copy button puts exactly the secret on the clipboard.
      await secretBox.getByRole('button', { name: 'Copy' }).click();
      await secretBox.getByText('Copied to the clipboard.').waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(clipboard(page)).resolves.toBe(secret);
      await expect(urlField.count()).resolves.toBe(0); // the form closed

      const endpoint = page.getByRole('listitem', { name: receiverUrl });
      await expect(endpoint.locator('.chips').innerText()).resolves.toMatch(/lesson\.published[\s\S]*user\.updated/);
      await expect(endpoint.locator('.health').innerText()).resolves.toMatch(/enabled[\s\S]*Last success\s*none yet/);
      await page.getByRole('button', { name: 'I have saved it' }).click();
      await expect(secretBox.count()).resolves.toBe(0);

      // Send a test: the log opens and shows the webhook.test delivery SUCCEEDED, without a reload.
      await endpoint.getByRole('button', { name: 'Send test' }).click();
      const log = endpoint.getByRole('table', { name: 'Deliveries' });
      const testRow = log.locator('tbody tr', { hasText: 'webhook.test' });
      await testRow.locator('.badge', { hasText: 'SUCCEEDED' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(testRow.innerText()).resolves.toMatch(/1 attempt[\s\S]*204/);
      // Its attempts, opened.
      await testRow.getByRole('button', { name: '1 attempt' }).click();
      await expect(log.locator('tr.attempts').innerText()).resolves.toMatch(/204 · \d+ ms/);
      // The endpoint's health followed: a last success, not failing.
      await expect.poll(() => endpoint.locator('.health').innerText(), { timeout: UI_TIMEOUT_MS }).not.toContain('none yet');
      // The receiver got it, signed with the secret the console showed once.
      const ping = receiver.hits.find((h) => h.body.includes('"webhook.test"'));
      expect(ping).toBeDefined();
      expect(verifyWebhook(ping!.body, ping!.headers, secret)).toMatchObject({ event: 'webhook.test' });

      // The live feed: a lesson published over REST appears, with its id, without a reload.
      await page.locator('.feed .badge', { hasText: 'live' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
      const navigations = requests.filter((url) => new URL(url).pathname === '/console').length;
      const { token } = await api.loginAs('ada');
      const lesson = await api.post('/api/v1/lessons', { title: 'Live in the console', body: 'Published while the console watches.' }, { token });
      expect(lesson.status).toBe(201);
      const lessonId = (lesson.body as { id: string }).id;
      expect((await api.post(`/api/v1/lessons/publish?id=${lessonId}`, undefined, { token })).status).toBe(200);
      const item = page.getByRole('list', { name: 'Live events' }).getByRole('listitem').filter({ hasText: lessonId });
      await item.waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(item.innerText()).resolves.toMatch(new RegExp(`lesson\\.published[\\s\\S]*\\d{2}:\\d{2}:\\d{2}[\\s\\S]*lesson\\s+${lessonId}`));
      // A page view shows its path as the subject.
      expect((await api.post('/api/analytics/views', { path: '/docs/console-test' })).status).toBe(202);
      await page.getByRole('list', { name: 'Live events' }).getByRole('listitem').filter({ hasText: '/docs/console-test' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).resolves.toBe(true);
      expect(requests.filter((url) => new URL(url).pathname === '/console').length).toBe(navigations);
      // The webhook got the lesson.published too.
      await expect.poll(() => receiver.hits.some((h) => h.body.includes(lessonId)), { timeout: UI_TIMEOUT_MS }).toBe(true);

      // The chart shows that view once refreshed.
      const views = page.locator('section', { has: page.getByRole('heading', { name: 'Page views' }) });
      await views.getByRole('button', { name: 'Refresh' }).click();
      await expect.poll(async () => Number(await views.locator('.total').innerText()), { timeout: UI_TIMEOUT_MS }).toBeGreaterThan(0);
      await screenshot(page, 'console');
      // Dark mode follows the system's preference, with the pages' palette (the chart redraws in it on its next load).
      await page.emulateMedia({ colorScheme: 'dark' });
      await expect(page.locator('body').evaluate((el) => getComputedStyle(el).backgroundColor)).resolves.toBe('rgb(21, 23, 26)');
      await views.getByRole('button', { name: 'Refresh' }).click();
      await screenshot(page, 'console-dark');
      await page.emulateMedia({ colorScheme: 'light' });
      await expectTokenOnlyInSessionStorage(context, page, requests);
      // The one refusal: the ftp:// URL.
      expect(problems.filter((p) => browserLogged(400).test(p))).toHaveLength(1);
      expectClean(requests, problems, [browserLogged(400)]);
    } finally {
      await screenshot(page, 'console-webhooks', true);
      await context.close();
    }
  });

  it('edits, disables and re-enables the endpoint, rotates its secret (shown once), and retries a delivery', async () => {
    const { context, page, requests, problems } = await watchedPage();
    try {
      await page.goto(`${server.url}/console`);
      await signIn(page, 'ada');
      const endpoint = page.getByRole('listitem', { name: receiverUrl });
      await endpoint.waitFor({ timeout: UI_TIMEOUT_MS });

      await endpoint.getByRole('button', { name: 'Edit' }).click();
      const form = endpoint.getByRole('form', { name: 'Edit endpoint' });
      await expect(form.getByLabel('URL').inputValue()).resolves.toBe(receiverUrl);
      await form.getByLabel('Description (optional)').fill('Renamed in the console');
      await form.getByRole('button', { name: 'Save changes' }).click();
      await endpoint.getByText('Renamed in the console').waitFor({ timeout: UI_TIMEOUT_MS });

      await endpoint.getByRole('button', { name: 'Disable' }).click();
      await endpoint.locator('.health .badge', { hasText: 'disabled' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(endpoint.locator('.health').innerText()).resolves.toContain('Disabled by an administrator');
      await endpoint.getByRole('button', { name: 'Enable' }).click();
      await endpoint.locator('.health .badge', { hasText: 'enabled' }).waitFor({ timeout: UI_TIMEOUT_MS });

      await endpoint.getByRole('button', { name: 'Rotate secret' }).click();
      const rotated = await page.locator('.once').filter({ hasText: 'New signing secret of' }).locator('code').innerText({ timeout: UI_TIMEOUT_MS });
      expect(rotated).toMatch(/^whsec_/);
      await page.getByRole('button', { name: 'I have saved it' }).click();

      // Retry the test delivery: one more attempt, signed with the new secret first.
      await endpoint.getByRole('button', { name: 'Deliveries' }).click();
      const testRow = endpoint.getByRole('table', { name: 'Deliveries' }).locator('tbody tr', { hasText: 'webhook.test' });
      await testRow.waitFor({ timeout: UI_TIMEOUT_MS });
      const pings = () => receiver.hits.filter((h) => h.body.includes('"webhook.test"'));
      const before = pings().length;
      await testRow.getByRole('button', { name: 'Retry' }).click();
      await testRow.getByRole('button', { name: '2 attempts' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await expect.poll(() => pings().length, { timeout: UI_TIMEOUT_MS }).toBe(before + 1);
      const retried = pings().at(-1)!;
      expect(verifyWebhook(retried.body, retried.headers, rotated)).toMatchObject({ event: 'webhook.test' });

      // Recover: nothing FAILED, and the console says so.
      await endpoint.getByRole('button', { name: 'Recover' }).click();
      await endpoint.getByText('0 failed deliveries get another attempt.').waitFor({ timeout: UI_TIMEOUT_MS });
      await expectTokenOnlyInSessionStorage(context, page, requests);
      expectClean(requests, problems);
    } finally {
      await screenshot(page, 'console-endpoint', true);
      await context.close();
    }
  });

  it('creates an API key shown once, lists it, revokes it; the chart counts new page views; a reload keeps the session, signing out ends it', async () => {
    const { context, page, requests, problems } = await watchedPage();
    try {
      await page.goto(`${server.url}/console`);
      await signIn(page, 'ada');
      const keys = page.locator('section', { has: page.getByRole('heading', { name: 'API keys' }) });
      await keys.getByLabel('Name of a new key').fill('console test key');
      await keys.getByRole('button', { name: 'Create key' }).click();
      const key = await keys.locator('.once code').innerText({ timeout: UI_TIMEOUT_MS });
      expect(key).toMatch(/^lp_/);
      await keys.locator('.once').getByRole('button', { name: 'Copy' }).click();
      await keys.getByText('Copied to the clipboard.').waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(clipboard(page)).resolves.toBe(key);
      // The key works: it is the one the server made.
      expect((await api.get('/api/v1/user/me', { headers: { 'x-api-key': key } })).body).toMatchObject({ email: account('ada').email });
      await keys.getByRole('button', { name: 'I have saved it' }).click();
      const row = keys.getByRole('table', { name: 'API keys' }).locator('tr', { hasText: 'console test key' });
      await expect(row.innerText()).resolves.toContain(`lp_${key.slice(3, 11)}`);
      await row.getByRole('button', { name: 'Revoke…' }).click();
      await row.getByRole('button', { name: 'Revoke “console test key”' }).click();
      await expect.poll(() => row.count(), { timeout: UI_TIMEOUT_MS }).toBe(0);
      expect((await api.get('/api/v1/user/me', { headers: { 'x-api-key': key } })).status).toBe(403);

      // The chart: three more views in the last hour, after a refresh.
      const views = page.locator('section', { has: page.getByRole('heading', { name: 'Page views' }) });
      await views.getByRole('button', { name: 'Last hour' }).click();
      await views.getByText('in the last hour, by 5 minutes').waitFor({ timeout: UI_TIMEOUT_MS });
      await views.locator('.chart canvas').waitFor({ timeout: UI_TIMEOUT_MS });
      const totalOf = async () => Number(await views.locator('.total').innerText());
      const before = await totalOf();
      for (let i = 0; i < 3; i++) expect((await api.post('/api/analytics/views', { path: `/chart/${i}` })).status).toBe(202);
      await views.getByRole('button', { name: 'Refresh' }).click();
      await expect.poll(totalOf, { timeout: UI_TIMEOUT_MS }).toBe(before + 3);
      // The same total the REST API gives for the chart's window.
      await views.getByRole('button', { name: 'Last 24 hours' }).click();
      await views.getByText('in the last 24 hours, by hour').waitFor({ timeout: UI_TIMEOUT_MS });
      const hour = 3_600_000;
      const end = Math.floor(Date.now() / hour) * hour + hour;
      const rest = await api.get(`/api/analytics/views?from=${new Date(end - 24 * hour).toISOString()}&to=${new Date(end).toISOString()}`);
      await expect.poll(totalOf, { timeout: UI_TIMEOUT_MS }).toBe((rest.body as { total: number }).total);
      await views.screenshot({ path: `${ARTIFACTS}/console-chart.png` });

      // A reload keeps the session (sessionStorage); signing out forgets it.
      await page.reload();
      await page.getByRole('heading', { name: 'Webhook endpoints' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await expectTokenOnlyInSessionStorage(context, page, requests);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await expect(page.evaluate((k) => sessionStorage.getItem(k), STORAGE_KEY)).resolves.toBeNull();
      expectClean(requests, problems, [STREAM_CLOSED]);
    } finally {
      await context.close();
    }
  });
});

describe('the console on a phone', () => {
  /** How far the page scrolls sideways: 0 when everything fits the screen's width. */
  const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  /** The document's width: at most the screen's. */
  const documentWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

  it('fits a 375 px screen without scrolling sideways in every view: sign-in, dashboard with API keys, a secret shown once, the endpoint form, a delivery log', async () => {
    const { token } = await api.loginAs('ada');
    const created = await api.post('/api/v1/webhooks', { url: `${receiverUrl}?phone`, events: ['lesson.published'] }, { token });
    expect(created.status, created.text).toBe(201);
    const key = await api.post('/api/v1/api-keys', { name: 'a key with a rather long name for a phone' }, { token });
    expect(key.status, key.text).toBe(201);
    const { context, page, requests, problems } = await watchedPage();
    try {
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(`${server.url}/console`);
      expect(await documentWidth(page)).toBeLessThanOrEqual(375);
      await screenshot(page, 'console-phone-sign-in');
      await page.setViewportSize({ width: 1280, height: 900 });
      await signIn(page, 'ada');
      await page.locator('.chart canvas').waitFor({ timeout: UI_TIMEOUT_MS });
      // Narrowed from 1280 px, as a window is: the chart drawn wide must follow.
      await page.setViewportSize({ width: 375, height: 800 });
      await expect.poll(() => sideways(page), { timeout: UI_TIMEOUT_MS }).toBe(0);
      const endpoint = page.getByRole('listitem', { name: `${receiverUrl}?phone` });
      await endpoint.getByRole('button', { name: 'Send test' }).click();
      await endpoint.getByRole('table', { name: 'Deliveries' }).locator('.badge', { hasText: 'SUCCEEDED' }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await sideways(page)).toBe(0);
      // The API keys, one block per key; a new key shown once with its copy button; the endpoint form.
      const keys = page.locator('section', { has: page.getByRole('heading', { name: 'API keys' }) });
      await keys.getByText('a key with a rather long name for a phone').waitFor({ timeout: UI_TIMEOUT_MS });
      await keys.getByLabel('Name of a new key').fill('phone key');
      await keys.getByRole('button', { name: 'Create key' }).click();
      await keys.locator('.once').getByRole('button', { name: 'Copy' }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await documentWidth(page)).toBeLessThanOrEqual(375);
      await page.getByRole('button', { name: 'New endpoint' }).click();
      await page.getByRole('form', { name: 'New endpoint' }).waitFor();
      expect(await documentWidth(page)).toBeLessThanOrEqual(375);
      // Every control of the top bar is on the screen.
      for (const name of ['Sign out']) {
        const box = await page.getByRole('button', { name }).boundingBox();
        expect(box!.x + box!.width, name).toBeLessThanOrEqual(375);
      }
      await screenshot(page, 'console-phone', true);
      // Opened at 375 px from the start.
      await page.reload();
      await page.locator('.chart canvas').waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await sideways(page)).toBe(0);
      expect(await documentWidth(page)).toBeLessThanOrEqual(375);
      expectClean(requests, problems, [STREAM_CLOSED]);
    } finally {
      await context.close();
      await api.delete(`/api/v1/webhooks/${(created.body as { id: string }).id}`, { token });
      await api.delete(`/api/v1/api-keys/${(key.body as { id: string }).id}`, { token });
    }
  });
});

describe('the console refuses and explains', () => {
  it('goes back to the sign-in form, saying why, when its session is revoked elsewhere', async () => {
    const { context, page, requests, problems } = await watchedPage();
    try {
      await page.goto(`${server.url}/console`);
      await signIn(page, 'ada');
      await page.getByRole('heading', { name: 'Webhook endpoints' }).waitFor({ timeout: UI_TIMEOUT_MS });
      // Revoke the browser's session from another sign-in (GET/DELETE /api/v1/sessions).
      const browserAgent = await page.evaluate(() => navigator.userAgent);
      const { token } = await api.loginAs('ada');
      const sessions = (await api.get('/api/v1/sessions', { token })).body as { items: { id: string; userAgent: string | null }[] };
      const consoleSession = sessions.items.find((s) => s.userAgent === browserAgent);
      expect(consoleSession).toBeDefined();
      expect((await api.delete(`/api/v1/sessions/${consoleSession!.id}`, { token })).status).toBe(204);
      // Nobody clicks anything: revoking the session ends the live feed's stream (with the
      // contract's 403), and the console goes back to the sign-in form on its own.
      await expect(page.locator('.notice').innerText({ timeout: UI_TIMEOUT_MS })).resolves.toBe(
        'Your session has ended (the server says: Missing or invalid token). Sign in again.',
      );
      await expect(page.getByRole('heading', { name: 'Webhook endpoints' }).count()).resolves.toBe(0);
      await expect(page.evaluate((k) => sessionStorage.getItem(k), STORAGE_KEY)).resolves.toBeNull();
      // A refused call in flight, and the event stream closed with the dashboard.
      expectClean(requests, problems, [browserLogged(403), STREAM_CLOSED]);
    } finally {
      await context.close();
    }
  });

  it('tells a MEMBER (grace) plainly that the console is for ADMINs, and keeps no session', async () => {
    const { context, page, requests, problems } = await watchedPage();
    try {
      await page.goto(`${server.url}/console`);
      await signIn(page, 'grace');
      const refusal = page.locator('.refusal');
      await expect(refusal.innerText({ timeout: UI_TIMEOUT_MS })).resolves.toBe(
        'The console is for ADMINs only. grace@example.com is a MEMBER: sign in with an ADMIN account.',
      );
      await expect(page.getByRole('heading', { name: 'Webhook endpoints' }).count()).resolves.toBe(0);
      await expect(page.evaluate((k) => sessionStorage.getItem(k), STORAGE_KEY)).resolves.toBeNull();
      // The session the sign-in opened was ended at once: grace has no live session from the browser.
      const browserAgent = await page.evaluate(() => navigator.userAgent);
      const sessions = await api.get('/api/v1/sessions', { token: (await api.loginAs('grace')).token });
      expect((sessions.body as { items: { userAgent: string | null }[] }).items.map((s) => s.userAgent)).not.toContain(browserAgent);
      await screenshot(page, 'console-member');
      await expectTokenOnlyInSessionStorage(context, page, requests);
      expectClean(requests, problems);
    } finally {
      await context.close();
    }
  });

  it("shows the server's message for a wrong password next to the password field", async () => {
    const { context, page, requests, problems } = await watchedPage();
    try {
      const refused = await api.post('/api/auth/login', { email: account('ada').email, password: 'not-the-password' });
      expect(refused.status).toBe(401);
      await page.goto(`${server.url}/console`);
      await signIn(page, 'ada', 'not-the-password');
      const field = page.locator('.field', { has: page.getByLabel('Password') });
      await expect(field.getByRole('alert').innerText({ timeout: UI_TIMEOUT_MS })).resolves.toBe((refused.body as { message: string }).message);
      await expect(page.getByLabel('Password').getAttribute('aria-invalid')).resolves.toBe('true');
      await screenshot(page, 'console-wrong-password');
      expect(problems.filter((p) => browserLogged(401).test(p))).toHaveLength(1);
      expectClean(requests, problems, [browserLogged(401)]);
    } finally {
      await context.close();
    }
  });

  it('says the server cannot be reached when the network is gone, and works again when it is back', async () => {
    const { context, page, requests, problems } = await watchedPage();
    try {
      await page.goto(`${server.url}/console`);
      await signIn(page, 'ada');
      const keys = page.locator('section', { has: page.getByRole('heading', { name: 'API keys' }) });
      await keys.getByRole('table', { name: 'API keys' }).or(keys.getByText('No API keys.')).waitFor({ timeout: UI_TIMEOUT_MS });
      await context.setOffline(true);
      await keys.getByLabel('Name of a new key').fill('offline key');
      await keys.getByRole('button', { name: 'Create key' }).click();
      const message = keys.getByRole('alert');
      await expect(message.innerText({ timeout: UI_TIMEOUT_MS })).resolves.toMatch(/^Could not reach the server \(.+\)\. Check the connection and try again\.$/);
      await screenshot(page, 'console-offline');
      await context.setOffline(false);
      await keys.getByRole('button', { name: 'Create key' }).click();
      await keys.locator('.once code').waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(message.count()).resolves.toBe(0);
      // The only problems are the requests the browser could not send while offline (the key, and
      // the event stream's reconnection attempts).
      expectClean(requests, problems, [/ERR_INTERNET_DISCONNECTED/, STREAM_CLOSED]);
    } finally {
      await context.close();
    }
  });
});
