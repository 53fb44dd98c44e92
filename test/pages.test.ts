// The pages over real HTTP: GET / (the landing page), GET /reference (Redoc) and their static files,
// as a browser gets them: status, type, caching, a page's security headers, links that lead
// somewhere, no rate-limit budget drawn, the contract's 404 and 405, no GraphiQL link in production.
// In a real browser: test/pages-browser.test.ts.
import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect } from 'vitest';
import { expectError } from './support/assert.js';
import { ensureConsoleBuilt } from './support/console-build.js';
import { serverTest } from './support/fixtures.js';
import type { Client, Reply } from './support/http.js';
import { sql, type TestServer } from './support/server.js';

const LIMIT_HEADERS = ['ratelimit-policy', 'ratelimit', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
/** Not the default (100), to see the page show the budget in force; small enough to go past. */
const FREE_LIMIT = 40;
const PAGE_LINKS = ['/reference', '/graphql', '/console', '/api/openapi.json', '/api/asyncapi.json'];

/** Every href and src of a page. */
const addressesIn = (html: string) => [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => m[1]!);
const attribute = (html: string, pattern: RegExp) => html.match(pattern)?.[1];

/** A Content-Security-Policy as directive → its sources. */
function directives(csp: string | null): Map<string, string[]> {
  expect(csp).toBeTruthy();
  return new Map(
    csp!.split(';').map((d) => {
      const [name, ...sources] = d.trim().split(/\s+/);
      return [name!, sources];
    }),
  );
}

/** Asserts the headers every page response carries, and that its CSP names no other origin. */
function expectPageHeaders(reply: Reply, needs: Record<string, string[]> = {}): Map<string, string[]> {
  expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
  expect(reply.headers.get('referrer-policy')).toBe('no-referrer');
  const csp = directives(reply.headers.get('content-security-policy'));
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  // Only keywords and schemes of our own page: no host, no wildcard, no eval.
  for (const [name, sources] of csp) {
    for (const source of sources) expect(["'self'", "'none'", "'unsafe-inline'", 'blob:', 'data:'], `${name} ${source}`).toContain(source);
  }
  for (const [name, sources] of Object.entries(needs)) expect(csp.get(name), name).toEqual(sources);
  // A page is neither API traffic (no CORS header) nor limited (no budget headers).
  expect(reply.headers.get('access-control-allow-origin')).toBeNull();
  for (const header of LIMIT_HEADERS) expect(reply.headers.get(header), header).toBeNull();
  return csp;
}

/** A GET with exactly these headers (fetch would add Accept-Encoding and decompress). */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const inDevelopment = serverTest({ env: { RATE_LIMIT_FREE: String(FREE_LIMIT), TRUST_PROXY: 'true' } });
const inProduction = serverTest({ env: { NODE_ENV: 'production', JWT_SECRET: 'pages-test-secret-of-at-least-32-characters' } });

describe('the pages (development: GraphiQL served)', () => {
  const it = inDevelopment;
  let server: TestServer;
  let api: Client;
  let landing: Reply;
  let reference: Reply;

  it.beforeAll(async ({ server: started, api: itsClient }) => {
    [server, api] = [started, itsClient];
    await ensureConsoleBuilt();
    landing = await api.get('/');
    reference = await api.get('/reference');
  });

  it('GET / is an HTML page saying what Learnstream is, linking the reference, GraphiQL, the console and both documents', () => {
    expect(landing.status).toBe(200);
    expect(landing.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(landing.headers.get('cache-control')).toBe('no-cache');
    expect(landing.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(landing.text).toMatch(/^<!doctype html>/);
    expect(attribute(landing.text, /<title>([^<]*)<\/title>/)).toBe('Learnstream');
    expect(landing.text).toContain('learning-platform API');
    const links = addressesIn(landing.text);
    for (const link of PAGE_LINKS) expect(links, link).toContain(link);
    // The sections two docs entries point at.
    expect(landing.text).toContain('id="getting-started"');
    expect(landing.text).toContain('id="rate-limits"');
    // The budget in force, not a number written into the page.
    expect(landing.text).toContain(`${FREE_LIMIT} requests on Free`);
    // No script at all, and nothing from another origin (no protocol-relative // either).
    expect(landing.text).not.toMatch(/<script/i);
    for (const address of links) expect(address, address).toMatch(/^\/(?!\/)/);
  });

  it('every link of / answers 200, the console included', async () => {
    for (const link of PAGE_LINKS) {
      const reply = await api.get(link, { headers: { accept: 'text/html' } });
      expect(reply.status, link).toBe(200);
    }
  });

  it('gives / a CSP of our own origin only (no script), nosniff, no-referrer; no CORS or limit headers', () => {
    expectPageHeaders(landing, { 'script-src': ["'none'"] });
  });

  it('GET /reference is an HTML page that loads Redoc and its start-up script from /static/, both served here', async () => {
    expect(reference.status).toBe(200);
    expect(reference.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(attribute(reference.text, /<title>([^<]*)<\/title>/)).toBe('Learnstream API reference');
    const scripts = [...reference.text.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts).toEqual([expect.stringMatching(/^\/static\/redoc-2\.5\.\d+\.[\w-]{12}\.js$/), expect.stringMatching(/^\/static\/reference\.[\w-]{12}\.js$/)]);
    // No inline script: the CSP below allows none.
    expect(reference.text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    const [redoc, start] = await Promise.all(scripts.map((s) => api.get(s)));
    for (const reply of [redoc!, start!]) {
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    }
    expect(redoc!.text.length).toBeGreaterThan(500_000);
    // The one address of another origin in Redoc's bundle (its badge's logo) is not served.
    expect(redoc!.text).not.toContain('cdn.redoc.ly');
    expect(start!.text).toContain("Redoc.init('/api/openapi.json'");
    for (const address of addressesIn(reference.text)) expect(address, address).toMatch(/^\/(?!\/)/);
    for (const link of ['/', '/graphql', '/console', '/api/openapi.json']) expect(addressesIn(reference.text), link).toContain(link);
  });

  it('gives /reference a CSP of our own origin plus what Redoc needs: inline styles, a blob: worker, data: images', () => {
    expectPageHeaders(reference, {
      'script-src': ["'self'"],
      'style-src': ["'self'", "'unsafe-inline'"],
      'worker-src': ['blob:'],
      'img-src': ["'self'", 'data:'],
    });
  });

  it('serves every stylesheet, icon and script the pages name, immutable, with an ETag, nosniff and a CSP that loads nothing', async () => {
    const files = [...new Set([...addressesIn(landing.text), ...addressesIn(reference.text)].filter((a) => a.startsWith('/static/')))];
    expect(files.some((f) => f.endsWith('.css'))).toBe(true);
    expect(files.some((f) => f.endsWith('.svg'))).toBe(true);
    const types: Record<string, string> = { css: 'text/css; charset=utf-8', svg: 'image/svg+xml', js: 'text/javascript; charset=utf-8' };
    for (const file of files) {
      const reply = await api.get(file);
      expect(reply.status, file).toBe(200);
      expect(reply.headers.get('content-type'), file).toBe(types[file.split('.').pop()!]);
      expect(reply.headers.get('cache-control'), file).toBe('public, max-age=31536000, immutable');
      expect(reply.headers.get('x-content-type-options'), file).toBe('nosniff');
      expect(directives(reply.headers.get('content-security-policy')).get('default-src'), file).toEqual(["'none'"]);
      for (const header of LIMIT_HEADERS) expect(reply.headers.get(header), `${file} ${header}`).toBeNull();
      // The content-hashed name changes with the content: revalidation answers 304 with no body.
      const etag = reply.headers.get('etag')!;
      expect(etag, file).toMatch(/^"[\w-]+"$/);
      const again = await api.get(file, { headers: { 'if-none-match': etag } });
      expect(again.status, file).toBe(304);
      expect(again.text).toBe('');
      expect((await api.get(file, { headers: { 'if-none-match': '"something-else"' } })).status, file).toBe(200);
    }
  });

  it('sends Redoc gzipped to a client that takes it (Vary: Accept-Encoding), the same bytes as plain', async () => {
    const path = attribute(reference.text, /src="(\/static\/redoc-[^"]+)"/)!;
    const plain = await rawGet(server.url + path);
    const zipped = await rawGet(server.url + path, { 'accept-encoding': 'br, gzip;q=0.8' });
    const refused = await rawGet(server.url + path, { 'accept-encoding': 'gzip;q=0' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(zipped.headers['content-encoding']).toBe('gzip');
    for (const reply of [plain, zipped, refused]) expect(reply.headers.vary).toBe('Accept-Encoding');
    expect(zipped.body.length).toBeLessThan(plain.body.length / 2);
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    expect(Number(zipped.headers['content-length'])).toBe(zipped.body.length);
  });

  it('answers a page whose copy is current with 304', async () => {
    for (const page of [landing, reference]) {
      const path = page === landing ? '/' : '/reference';
      const reply = await api.get(path, { headers: { 'if-none-match': page.headers.get('etag')! } });
      expect(reply.status, path).toBe(304);
      expect(reply.headers.get('content-security-policy'), path).toBe(page.headers.get('content-security-policy'));
    }
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    for (const [path, page] of [['/', landing], ['/reference', reference]] as const) {
      const reply = await api.request('HEAD', path);
      expect(reply.status, path).toBe(200);
      expect(reply.text).toBe('');
      for (const header of ['content-type', 'etag', 'content-security-policy', 'x-content-type-options', 'referrer-policy']) {
        expect(reply.headers.get(header), `${path} ${header}`).toBe(page.headers.get(header));
      }
    }
  });

  it('refuses other methods on a page with the contract 405 and Allow: GET, HEAD', async () => {
    for (const path of ['/', '/reference', attribute(landing.text, /href="(\/static\/[^"]+\.css)"/)!]) {
      const reply = await api.post(path, {});
      expectError(reply, 405, `Method POST is not allowed on ${path}`);
      expect(reply.headers.get('allow')).toBe('GET, HEAD');
    }
  });

  it('leaves unknown paths to the contract 404, under /static/ too', async () => {
    for (const path of ['/nope', '/reference/nope', '/static/nope.css', '/static/redoc-0.0.0.aaaaaaaaaaaa.js', '/index.html', '/docs/authentication']) {
      expectError(await api.get(path), 404, `Route GET ${path} not found`);
      expectError(await api.post(path, {}), 404, `Route POST ${path} not found`);
    }
  });

  it('does not draw on the rate-limit budget: pages and files answer 200 far past it, then the API still has all of it', async () => {
    // An address of its own (TRUST_PROXY), which nothing else in this file uses.
    const from = { headers: { 'x-forwarded-for': '198.51.100.23' } };
    const paths = ['/', '/reference', ...addressesIn(landing.text).filter((a) => a.startsWith('/static/')), ...addressesIn(reference.text).filter((a) => a.startsWith('/static/'))];
    let served = 0;
    while (served <= FREE_LIMIT) {
      for (const path of paths) {
        const reply = await api.get(path, from);
        expect(reply.status, path).toBe(200);
        for (const header of LIMIT_HEADERS) expect(reply.headers.get(header), `${path} ${header}`).toBeNull();
        served++;
      }
    }
    const first = await api.get('/api/content/docs', from);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe(String(FREE_LIMIT));
    expect(first.headers.get('x-ratelimit-remaining')).toBe(String(FREE_LIMIT - 1));
  });

  it('keeps API responses open to every origin (Access-Control-Allow-Origin: *), without the pages\' CSP', async () => {
    for (const reply of [await api.get('/api/content/docs'), await api.graphql('{ docs { slug } }'), await api.get('/api/openapi.json')]) {
      expect(reply.status).toBe(200);
      expect(reply.headers.get('access-control-allow-origin')).toBe('*');
      expect(reply.headers.get('content-security-policy')).toBeNull();
    }
  });

  it("gives GraphiQL's page the page headers, with what its inlined bundle needs", async () => {
    const reply = await api.get('/graphql', { headers: { accept: 'text/html' } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/html/);
    expectPageHeaders(reply, {
      'script-src': ["'self'", "'unsafe-inline'"],
      'style-src': ["'self'", "'unsafe-inline'"],
      'font-src': ["'self'", 'data:'],
      'worker-src': ["'self'", 'blob:'],
    });
  });

  it("serves GraphiQL's 9 MB page revalidated by ETag (a reload is a 304) and gzipped to a browser", async () => {
    const html = { accept: 'text/html,application/xhtml+xml' };
    const first = await api.get('/graphql', { headers: html });
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.text).toContain('<title>');
    // A reload: nothing but headers.
    const reload = await api.get('/graphql', { headers: { ...html, 'if-none-match': etag } });
    expect(reload.status).toBe(304);
    expect(reload.text).toBe('');
    // What a browser downloads, compressed (fetch sends Accept-Encoding and inflates the body).
    const raw = await new Promise<{ encoding?: string; bytes: number }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/graphql`, { headers: { ...html, 'accept-encoding': 'gzip' } }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], bytes }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(raw.encoding).toBe('gzip');
    expect(raw.bytes).toBeLessThan(Buffer.byteLength(first.text) / 3);
    // HEAD answers with the page's headers and no body (Yoga answered 405).
    const head = await fetch(`${server.url}/graphql`, { method: 'HEAD', headers: html });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etag);
    // Not a page, a query: still GraphQL.
    expect((await api.get('/graphql?query=%7B__typename%7D')).body).toEqual({ data: { __typename: 'Query' } });
  });

  it('gives every docs entry a url that answers 200 here, its anchor in the page when it is on the landing page', async () => {
    const docs = (await api.get('/api/content/docs')).body as { slug: string; url: string }[];
    expect(docs.map((d) => d.slug)).toEqual(['authentication', 'getting-started', 'lessons', 'rate-limits', 'webhooks']);
    for (const { slug, url } of docs) {
      const target = new URL(url, server.url);
      expect(target.origin, slug).toBe(new URL(server.url).origin);
      const page = await api.get(target.pathname);
      expect(page.status, url).toBe(200);
      expect(page.headers.get('content-type'), url).toBe('text/html; charset=utf-8');
      // Anchors into /reference exist once Redoc has drawn it: the browser test opens those.
      if (target.pathname === '/') expect(page.text, url).toContain(`id="${target.hash.slice(1)}"`);
    }
    // GraphQL publishes the same urls.
    expect((await api.graphql('{ docs { slug url } }')).body.data.docs).toEqual(docs.map(({ slug, url }) => ({ slug, url })));
  });

  it('answers a database seeded before the pages existed (url /docs/<slug>) with where the page lives now', async () => {
    const before = (await api.get('/api/content/docs')).body as { slug: string; url: string }[];
    await sql(server, `UPDATE "DocPage" SET url = '/docs/' || slug`);
    await sql(server, `INSERT INTO "DocPage" (id, slug, title, url) VALUES ('doc_elsewhere', 'elsewhere', 'Elsewhere', 'https://docs.example.com/x')`);
    try {
      const after = (await api.get('/api/content/docs')).body as { slug: string; url: string }[];
      expect(after.filter((d) => d.slug !== 'elsewhere')).toEqual(before);
      // Any url that is not an old /docs/<slug> is published as stored.
      expect(after.find((d) => d.slug === 'elsewhere')!.url).toBe('https://docs.example.com/x');
    } finally {
      await sql(server, `DELETE FROM "DocPage" WHERE id = 'doc_elsewhere'`);
    }
  });
});

describe('the pages in production (GraphiQL not served)', () => {
  const it = inProduction;

  it('serves / and /reference without a link to GraphiQL, which is not there', async ({ api }) => {
    const graphiql = await api.get('/graphql', { headers: { accept: 'text/html' } });
    expect(graphiql.headers.get('content-type') ?? '').not.toMatch(/^text\/html/);
    for (const path of ['/', '/reference']) {
      const page = await api.get(path);
      expect(page.status, path).toBe(200);
      expectPageHeaders(page);
      const links = addressesIn(page.text);
      expect(links, path).not.toContain('/graphql');
      expect(links, path).toContain('/console');
      expect(links, path).toContain('/api/openapi.json');
    }
  });
});
