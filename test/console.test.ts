// GET /console over real HTTP: the page and its hashed files as a browser gets them (type, caching,
// ETag/304, gzip, a CSP with no inline script), not rate limited, with the contract's 404 and 405;
// without a build, a 503 page until the build exists (no restart needed). In a real browser:
// test/console-browser.test.ts.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSchema, createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { usePages } from '../src/http/plugins/use-pages.js';
import { DEFAULT_CONSOLE_DIR } from '../src/pages/console.js';
import { expectError } from './support/assert.js';
import { ensureConsoleBuilt } from './support/console-build.js';
import { serverTest } from './support/fixtures.js';
import type { Client, Reply } from './support/http.js';

const LIMIT_HEADERS = ['ratelimit-policy', 'ratelimit', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
const CONSOLE_CSP = "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; form-action 'none'";

/** Every href and src of a page. */
const addressesIn = (html: string) => [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => m[1]!);

function expectPageHeaders(reply: Reply) {
  expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
  expect(reply.headers.get('referrer-policy')).toBe('no-referrer');
  expect(reply.headers.get('access-control-allow-origin')).toBeNull();
  for (const header of LIMIT_HEADERS) expect(reply.headers.get(header), header).toBeNull();
}

// A budget of 3: the page and its files must not draw on it.
const it = serverTest({ env: { RATE_LIMIT_FREE: '3' } });

describe('GET /console', () => {
  let api: Client;
  let page: Reply;

  it.beforeAll(async ({ api: itsClient }) => {
    api = itsClient;
    await ensureConsoleBuilt();
    page = await api.get('/console');
  });

  it('is an HTML page that loads its script and stylesheet from /console/assets/, nothing inline, with a CSP allowing only our origin', () => {
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(page.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expectPageHeaders(page);
    expect(page.text).toMatch(/^<!doctype html>/);
    expect(page.text).toContain('<title>Learnstream console</title>');
    // No inline script (the CSP allows none), no inline style.
    expect(page.text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(page.text).not.toMatch(/<style|\sstyle=/);
    const addresses = addressesIn(page.text);
    expect(addresses).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/console\/assets\/index-[\w-]+\.js$/),
        expect.stringMatching(/^\/console\/assets\/index-[\w-]+\.css$/),
        expect.stringMatching(/^\/static\/favicon\.[\w-]{12}\.svg$/),
      ]),
    );
    for (const address of addresses) expect(address, address).toMatch(/^\/(?!\/)/);
  });

  it('serves its files with immutable caching, gzip when asked, 304 for a current copy; none draws on the rate-limit budget', async () => {
    const files = addressesIn(page.text).filter((a) => a.startsWith('/console/assets/'));
    expect(files.length).toBe(2);
    // Five times more requests than the budget of 3: pages are not limited.
    for (let round = 0; round < 3; round++) {
      for (const file of files) {
        const reply = await api.get(file);
        expect(reply.status, file).toBe(200);
        expect(reply.headers.get('content-type')).toBe(file.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8');
        expect(reply.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        // fetch asked for gzip and decompressed it.
        expect(reply.headers.get('content-encoding')).toBe('gzip');
        expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
        for (const header of LIMIT_HEADERS) expect(reply.headers.get(header), header).toBeNull();
      }
    }
    const script = await api.get(files.find((f) => f.endsWith('.js'))!);
    // The client library is bundled in: the console talks to the API through it.
    expect(script.text).toContain('/api/v1/webhooks');
    // No address of another origin in it: only XML namespaces, and the URL field's placeholder.
    const addresses = [...script.text.matchAll(/https?:\/\/[^\s"'`)]+/g)].map((m) => m[0]);
    expect(addresses.filter((a) => !a.startsWith('http://www.w3.org/') && a !== 'https://example.com/webhooks/learnstream')).toEqual([]);
    const again = await api.get('/console', { headers: { 'if-none-match': page.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect((await api.get('/console')).status).toBe(200);
  });

  it('answers HEAD and OPTIONS, 405 with Allow for other methods, and the contract 404 for an unknown file', async () => {
    const head = await api.request('HEAD', '/console');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect((await api.request('OPTIONS', '/console')).headers.get('allow')).toBe('GET, HEAD');
    const post = await api.post('/console', {});
    expectError(post, 405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    for (const path of ['/console/assets/index-nothere.js', '/console/other']) expectError(await api.get(path), 404, `Route GET ${path} not found`);
  });
});

describe('GET /console without a build', () => {
  let dir: string;
  const yoga = () =>
    createYoga({
      schema: createSchema({ typeDefs: 'type Query { hello: String }' }),
      plugins: [usePages({ graphiql: false, rateLimit: { free: 100, pro: 600, windowSeconds: 60 }, graphqlPath: '/graphql', consoleDir: dir })],
    });

  beforeAll(async () => {
    await ensureConsoleBuilt();
    dir = await mkdtemp(join(tmpdir(), 'learnstream-console-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('answers 503 with a page saying the console is not built and how to build it, and serves the build once it exists', async () => {
    const app = yoga();
    const missing = await app.fetch('http://localhost/console');
    expect(missing.status).toBe(503);
    expect(missing.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const text = await missing.text();
    expect(text).toContain('The console has not been built');
    expect(text).toContain('npm run build:console');
    // The page has no script at all.
    expect(missing.headers.get('content-security-policy')).toContain("script-src 'none'");
    expect((await app.fetch('http://localhost/console/assets/index-x.js')).status).toBe(404);

    // Built meanwhile (by `npm run build:console`): the same server serves it.
    await cp(DEFAULT_CONSOLE_DIR, dir, { recursive: true });
    const built = await app.fetch('http://localhost/console');
    expect(built.status).toBe(200);
    expect(await built.text()).toContain('<title>Learnstream console</title>');
  });
});
