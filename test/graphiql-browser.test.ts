// GraphiQL as a user sees it, in a real browser (Debian's Chromium driven by playwright-core) on
// a machine with no internet: the page must render its editor, run an operation and show the
// result, and every request of the visit must go to the service's own origin. Yoga's default
// page loads GraphiQL from a CDN and stays a blank "Loading…" here; this test fails on it.
// A first visit opens on the starter document: it says how to sign in and where the token goes,
// and following it (run SignIn, put the token in the Headers tab, run Starter) works.
// The screenshots (test-results/graphiql*.png, git-ignored) show what the browser showed, also
// when the test fails.
import { mkdir } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { watchPage } from './support/browser.js';
import { browserTest } from './support/fixtures.js';

/** Debian's package (`apt-get install chromium`): `npx playwright install` cannot download here. */
const ARTIFACTS = 'test-results';
const SCREENSHOT = `${ARTIFACTS}/graphiql.png`;
/** The page is ~9 MB with everything inlined; Monaco then starts its workers. */
const RENDER_TIMEOUT_MS = 30_000;

const it = browserTest();

describe('GraphiQL in a browser with no internet', () => {
  it('renders its editor on the starter document, which works as it says; runs { docs { slug } } and shows the real slugs; every request stays on our origin, no console error', async ({ server, api, browser }) => {
    const reply = await api.graphql('{ docs { slug } }');
    const slugs = (reply.body.data.docs as { slug: string }[]).map((d) => d.slug);
    expect(slugs.length).toBeGreaterThan(0);
    // API traffic carries the budget's headers (so their absence on the page below means something).
    expect(reply.headers.get('ratelimit-policy')).toBeTruthy();

    const origin = new URL(server.url).origin;
    // Tall enough for the whole result to be drawn: Monaco renders only the visible lines.
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const { requests, problems } = watchPage(page);
    await mkdir(ARTIFACTS, { recursive: true });

    try {
      const document = await page.goto(`${server.url}/graphql`);
      expect(document?.status()).toBe(200);
      // A page, not API traffic: it does not draw on the rate-limit budget.
      expect(document?.headers()['ratelimit-policy']).toBeUndefined();

      const queryEditor = page.locator('.graphiql-query-editor .monaco-editor');
      await queryEditor.waitFor({ state: 'visible', timeout: RENDER_TIMEOUT_MS });
      // Yoga's CDN page shows "Loading …" in #root until its scripts arrive, offline forever.
      await expect(page.locator('#root').innerText()).resolves.not.toMatch(/^Loading/);

      // The starter document, with the Headers tab it talks about open below it.
      const starter = await editorText(queryEditor);
      expect(starter).toContain('# Welcome to the Learnstream GraphQL API.');
      expect(starter).toContain('{"Authorization": "Bearer <token>"}');
      expect(starter).toContain('query Starter {');
      const headersEditor = page.locator('.monaco-editor[data-uri$="request-headers.json"]');
      await headersEditor.waitFor({ state: 'visible', timeout: RENDER_TIMEOUT_MS });
      await page.screenshot({ path: `${ARTIFACTS}/graphiql-starter.png` });

      // Following it: SignIn, the token into the Headers tab, then Starter answers as ada.
      const result = page.locator('.graphiql-response');
      await runOperation(page, 'SignIn');
      await result.getByText('"token"').waitFor({ timeout: RENDER_TIMEOUT_MS });
      // The response editor wraps the long token: read it with the wrapping taken out.
      const token = /"token":"([\w.-]+)"/.exec((await editorText(result)).replace(/\s+/g, ''))?.[1];
      expect(token).toMatch(/^ey/);
      await headersEditor.locator('.view-lines').click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText(`{"Authorization": "Bearer ${token}"}`);
      await page.keyboard.press('Escape');
      await runOperation(page, 'Starter');
      await result.getByText('"Ada Lovelace"').first().waitFor({ timeout: RENDER_TIMEOUT_MS });
      expect(await editorText(result)).toMatch(/"role": "ADMIN"[\s\S]*"lessons"/);
      await page.screenshot({ path: `${ARTIFACTS}/graphiql-starter-run.png` });

      // As a user would: replace the starter text with the query, then press the run button.
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
      // GraphiQL re-reads the document's operations a moment after an edit: until it has, the run
      // button still offers the starter's two operations. A user seeing that menu closes it and
      // presses the button again.
      const answered = result.getByText(`"${slugs[0]}"`);
      const menu = page.locator('.graphiql-dropdown-item').first();
      const deadline = Date.now() + RENDER_TIMEOUT_MS;
      for (;;) {
        await page.getByRole('button', { name: /execute/i }).click();
        await Promise.race([answered.waitFor({ timeout: 5_000 }), menu.waitFor({ timeout: 5_000 })]).catch(() => undefined);
        if (await answered.isVisible()) break;
        if (await menu.isVisible()) await page.keyboard.press('Escape');
        if (Date.now() > deadline) throw new Error('the query did not run');
        await page.waitForTimeout(500);
      }
      const shown = [...(await editorText(result)).matchAll(/"slug":\s*"([^"]+)"/g)].map((m) => m[1]);
      expect(shown).toEqual(slugs);
    } finally {
      await page.screenshot({ path: SCREENSHOT });
      await page.close();
    }

    // The page's own document, Monaco's workers (blob: URLs of our origin) and its operations.
    expect(requests.some((url) => url.startsWith(`${origin}/graphql`))).toBe(true);
    expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(problems).toEqual([]);
  });
});

/** Runs one operation of a document holding several: the run button offers each by name. */
async function runOperation(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: /execute/i }).click();
  await page.locator('.graphiql-dropdown-item', { hasText: name }).click();
}

/** The text Monaco draws in an editor, with its non-breaking spaces as plain spaces. */
async function editorText(editor: Locator): Promise<string> {
  return (await editor.locator('.view-lines').innerText()).replace(/\u00a0/g, ' ');
}
