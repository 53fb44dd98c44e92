// The landing page and the API reference as a person sees them, in a real browser (Debian's
// Chromium driven by playwright-core) on a machine with no internet: every link of the landing
// page leads to a page that answers, the reference draws our own paths from /api/openapi.json,
// every docs entry's url opens a page holding its anchor, and no request of any of these visits
// goes to another origin, with no console error (a CSP violation is one). Screenshots go to
// test-results/ (git-ignored), also when a test fails.
import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { watchPage } from './support/browser.js';
import { browserTest } from './support/fixtures.js';
import type { Client } from './support/http.js';
import type { TestServer } from './support/server.js';

/** Debian's package (`apt-get install chromium`): `npx playwright install` cannot download here. */
const ARTIFACTS = 'test-results';
/** Redoc reads and renders a ~100 kB document on a shared 2-core machine. */
const RENDER_TIMEOUT_MS = 30_000;
/** The operator console (test/console-browser.test.ts opens it for real). */
const CONSOLE_PATH = '/console';

const it = browserTest({}, { withConsole: true });

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

/** A page that records every request it makes and every problem it meets. */
async function watchedPage(viewport = { width: 1280, height: 800 }) {
  const page = await browser.newPage({ viewport });
  const { requests, problems } = watchPage(page);
  return {
    page,
    /** Every request went to our origin (blob: and data: URLs are the page's own), nothing went wrong. */
    expectClean() {
      expect(requests.length).toBeGreaterThan(0);
      expect(requests.filter((url) => !['blob:', 'data:'].includes(new URL(url).protocol) && new URL(url).origin !== origin)).toEqual([]);
      expect(problems).toEqual([]);
    },
    requests,
  };
}

async function screenshot(page: Page, name: string, fullPage = false) {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}/${name}.png`, fullPage });
}

/** Waits until Redoc has drawn the reference (its operations' paths are in the page). */
async function waitForReference(page: Page) {
  await page.locator('[data-section-id^="tag/"]').first().waitFor({ state: 'attached', timeout: RENDER_TIMEOUT_MS });
}

describe('the landing page in a browser with no internet', () => {
  it('shows what Learnstream is; every link answers 200 (the console included); everything comes from our origin', async () => {
    const { page, expectClean, requests } = await watchedPage();
    let hrefs: string[] = [];
    try {
      const document = await page.goto(`${server.url}/`);
      expect(document?.status()).toBe(200);
      // A page: it does not draw on the rate-limit budget.
      expect(document?.headers()['ratelimit-policy']).toBeUndefined();
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Learnstream');
      // Our stylesheet applied (the links are cards laid out in a grid), with the system's fonts.
      await expect(page.locator('ul.links').evaluate((el) => getComputedStyle(el).display)).resolves.toBe('grid');
      hrefs = await page.locator('a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
      // Dark mode follows the system's preference (its colours are our stylesheet's too).
      await page.emulateMedia({ colorScheme: 'dark' });
      await expect(page.locator('body').evaluate((el) => getComputedStyle(el).backgroundColor)).resolves.toBe('rgb(21, 23, 26)');
      await screenshot(page, 'landing-dark');
      await page.emulateMedia({ colorScheme: 'light' });
    } finally {
      await screenshot(page, 'landing');
    }
    expect(hrefs).toEqual(expect.arrayContaining(['/reference', '/graphql', CONSOLE_PATH, '/api/openapi.json', '/api/asyncapi.json']));
    // The page loaded its stylesheet and icon from us, and nothing else.
    expect(requests.some((url) => /\/static\/pages\.[\w-]+\.css$/.test(url))).toBe(true);
    expectClean();

    // Follow each link with a click, on a fresh copy of the landing page each time.
    for (const href of new Set(hrefs)) {
      expect(new URL(href, server.url).origin, href).toBe(origin);
      await page.goto(`${server.url}/`);
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.request().isNavigationRequest() && new URL(r.url()).pathname === href),
        page.locator(`a[href="${href}"]`).first().click(),
      ]);
      expect(response.status(), href).toBe(200);
      if (href === CONSOLE_PATH) await page.getByRole('button', { name: 'Sign in' }).waitFor();
    }
    await page.close();
  });
});

describe('the API reference in a browser with no internet', () => {
  it('renders our OpenAPI document with Redoc: our paths are visible, search works, everything comes from our origin', async () => {
    const { page, expectClean, requests } = await watchedPage();
    try {
      const document = await page.goto(`${server.url}/reference`);
      expect(document?.status()).toBe(200);
      await waitForReference(page);
      // Our routes, as Redoc shows them in each operation's endpoint box.
      for (const path of ['/api/v1/lessons', '/api/v1/webhooks', '/api/content/docs']) {
        await expect(page.getByText(path, { exact: true }).first().isVisible(), path).resolves.toBe(true);
      }
      // Redoc's search (its lunr index in a blob: worker) finds an operation by its words.
      await page.getByPlaceholder('Search...').fill('webhook');
      await page.locator('[data-role="search:results"] li').first().waitFor({ timeout: RENDER_TIMEOUT_MS });
      await page.getByPlaceholder('Search...').fill('');
      // The screenshot shows the webhooks' routes, drawn from our document.
      await page.getByText('/api/v1/webhooks', { exact: true }).first().scrollIntoViewIfNeeded();
    } finally {
      await screenshot(page, 'reference');
    }
    // Redoc fetched the document from us.
    expect(requests).toContain(`${origin}/api/openapi.json`);
    expectClean();
    await page.close();
  });

  it('fits a 375 px screen: its header wraps, every link on the screen, nothing scrolls sideways', async () => {
    const { page, expectClean } = await watchedPage({ width: 375, height: 800 });
    try {
      expect((await page.goto(`${server.url}/reference`))?.status()).toBe(200);
      await waitForReference(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
      for (const link of await page.locator('.topbar a').all()) {
        const box = await link.boundingBox();
        expect(box!.x + box!.width, await link.innerText()).toBeLessThanOrEqual(375);
      }
    } finally {
      await screenshot(page, 'reference-phone');
    }
    expectClean();
    await page.close();
  });

  it("opens every docs entry's url at a page holding its anchor, scrolled to it", async () => {
    const docs = (await api.get('/api/content/docs')).body as { slug: string; url: string }[];
    expect(docs.length).toBeGreaterThanOrEqual(5);
    for (const { slug, url } of docs) {
      const { page, expectClean } = await watchedPage();
      try {
        const target = new URL(url, server.url);
        expect(target.hash, slug).toMatch(/^#./);
        const document = await page.goto(target.href);
        expect(document?.status(), url).toBe(200);
        if (target.pathname === '/reference') await waitForReference(page);
        const id = decodeURIComponent(target.hash.slice(1));
        const anchor = page.locator(`[id="${id}"]`);
        await anchor.first().waitFor({ state: 'attached', timeout: RENDER_TIMEOUT_MS });
        // The browser went there: the anchor's top is on the screen.
        await expect
          .poll(() => anchor.first().evaluate((el) => Math.round(el.getBoundingClientRect().top)), { timeout: RENDER_TIMEOUT_MS, message: url })
          .toBeLessThan(800);
        if (slug === 'lessons') await screenshot(page, 'reference-lessons');
      } finally {
        await page.close();
      }
      expectClean();
    }
  });
});
