// GraphiQL as a user sees it, in a real browser (Debian's Chromium driven by playwright-core) on
// a machine with no internet: the page must render its editor, run an operation and show the
// result, and every request of the visit must go to the service's own origin. Yoga's default
// page loads GraphiQL from a CDN and stays a blank "Loading…" here; this test fails on it.
// The screenshot (test-results/graphiql.png, git-ignored) shows what the browser showed, also
// when the test fails.
import { mkdir } from 'node:fs/promises';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from './support/http.js';
import { startTestServer, type TestServer } from './support/server.js';
import { launchChromium, watchPage } from './support/browser.js';

/** Debian's package (`apt-get install chromium`): `npx playwright install` cannot download here. */
const ARTIFACTS = 'test-results';
const SCREENSHOT = `${ARTIFACTS}/graphiql.png`;
/** The page is ~9 MB with everything inlined; Monaco then starts its workers. */
const RENDER_TIMEOUT_MS = 30_000;

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('GraphiQL in a browser with no internet', () => {
  it('renders its editor, runs { docs { slug } } and shows the real slugs; every request stays on our origin, no console error', async () => {
    const reply = await client(server.url).graphql('{ docs { slug } }');
    const slugs = (reply.body.data.docs as { slug: string }[]).map((d) => d.slug);
    expect(slugs.length).toBeGreaterThan(0);
    // API traffic carries the budget's headers (so their absence on the page below means something).
    expect(reply.headers.get('ratelimit-policy')).toBeTruthy();

    const origin = new URL(server.url).origin;
    // Tall enough for the whole result to be drawn: Monaco renders only the visible lines.
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const { requests, problems } = watchPage(page);

    try {
      const document = await page.goto(`${server.url}/graphql`);
      expect(document?.status()).toBe(200);
      // A page, not API traffic: it does not draw on the rate-limit budget.
      expect(document?.headers()['ratelimit-policy']).toBeUndefined();

      const queryEditor = page.locator('.graphiql-query-editor .monaco-editor');
      await queryEditor.waitFor({ state: 'visible', timeout: RENDER_TIMEOUT_MS });
      // Yoga's CDN page shows "Loading …" in #root until its scripts arrive, offline forever.
      await expect(page.locator('#root').innerText()).resolves.not.toMatch(/^Loading/);

      // As a user would: replace the welcome text with the query, then press the run button.
      await queryEditor.locator('.view-lines').click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.press('Delete');
      // Entered at once, as a paste is: typed key by key, Monaco's auto-closed brackets and its
      // completion popup raced the keystrokes, and a space was sometimes lost (a flaky test).
      await page.keyboard.insertText('{ docs { slug } }');
      await page.keyboard.press('Escape'); // closes the autocompletion popup, if any
      expect(await editorText(queryEditor)).toBe('{ docs { slug } }');
      // Validation runs in Monaco's GraphQL worker, debounced: mid-typing states get a red marker
      // for a moment. The finished query is valid against the schema, so the marker goes.
      await queryEditor.locator('.squiggly-error').first().waitFor({ state: 'detached', timeout: RENDER_TIMEOUT_MS });
      await page.getByRole('button', { name: /execute/i }).click();

      const result = page.locator('.graphiql-response');
      await result.getByText(`"${slugs[0]}"`).waitFor({ timeout: RENDER_TIMEOUT_MS });
      const shown = [...(await editorText(result)).matchAll(/"slug":\s*"([^"]+)"/g)].map((m) => m[1]);
      expect(shown).toEqual(slugs);
    } finally {
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: SCREENSHOT });
      await page.close();
    }

    // The page's own document, Monaco's workers (blob: URLs of our origin) and its operations.
    expect(requests.some((url) => url.startsWith(`${origin}/graphql`))).toBe(true);
    expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(problems).toEqual([]);
  });
});

/** The text Monaco draws in an editor, with its non-breaking spaces as plain spaces. */
async function editorText(editor: Locator): Promise<string> {
  return (await editor.locator('.view-lines').innerText()).replace(/\u00a0/g, ' ');
}
