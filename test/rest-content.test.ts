// The public content routes over real HTTP, on both databases: documentation pages and page-view
// analytics. Exact window boundaries are checked on postgres, with rows of known timestamps.
import { describe, expect } from 'vitest';
import { serverTestOn } from './support/fixtures.js';
import type { Client } from './support/http.js';
import { DATABASES, sql } from './support/server.js';
import { expectError } from './support/assert.js';
import { NO_RATE_LIMITS } from './support/limits.js';
import { DOC_PAGES } from '../src/modules/docs/links.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const tests = serverTestOn({ env: NO_RATE_LIMITS });

describe.each(DATABASES)('content routes on %s', (kind) => {
  const it = tests[kind];

  const total = async (api: Client, query = '') => {
    const reply = await api.get(`/api/analytics/views${query}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ total: expect.any(Number) as number });
    expect(Number.isInteger(reply.body.total)).toBe(true);
    return reply.body.total as number;
  };

  describe('GET /api/content/docs', () => {
    it('answers a JSON array of {id, slug, title, url, updatedAt}, without a token', async ({ api }) => {
      const reply = await api.get('/api/content/docs');
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      expect(Array.isArray(reply.body)).toBe(true);
      const docs = reply.body as Record<string, string>[];
      expect(docs.map((d) => d.slug)).toEqual(['authentication', 'getting-started', 'lessons', 'rate-limits', 'webhooks']);
      for (const doc of docs) {
        expect(Object.keys(doc).sort()).toEqual(['id', 'slug', 'title', 'updatedAt', 'url']);
        expect(doc).toEqual({
          id: expect.any(String) as string,
          slug: expect.any(String) as string,
          title: expect.any(String) as string,
          // Where the page lives (a page of this service; test/pages.test.ts opens each).
          url: DOC_PAGES.find((d) => d.slug === doc.slug)!.url,
          updatedAt: expect.stringMatching(ISO_MS) as string,
        });
      }
      expect(docs.find((d) => d.slug === 'getting-started')!.title).toBe('Getting started');
      expect(new Set(docs.map((d) => d.id)).size).toBe(docs.length);
    });

    it('answers the same with a token, and does not look at a bad one', async ({ api, grace: token }) => {
      const anonymous = (await api.get('/api/content/docs')).body as unknown;
      expect((await api.get('/api/content/docs', { token })).body).toEqual(anonymous);
      const bad = await api.get('/api/content/docs', { token: 'not-a-token' });
      expect(bad.status).toBe(200);
      expect(bad.body).toEqual(anonymous);
    });

    it('answers HEAD with the headers and no body', async ({ api }) => {
      const reply = await api.request('HEAD', '/api/content/docs');
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      expect(reply.text).toBe('');
    });
  });

  describe('page views', () => {
    it('answers {total}, the seeded views to start with', async ({ api }) => {
      const reply = await api.get('/api/analytics/views');
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ total: expect.any(Number) as number });
      // The seed's views of the last two weeks, round-robin over the doc pages: every page has
      // its share, and the pages' totals add up to the whole.
      const all = reply.body.total as number;
      expect(all).toBeGreaterThan(1000);
      const perPage = await Promise.all(DOC_PAGES.map((d) => total(api, `?path=/docs/${d.slug}`)));
      for (const views of perPage) expect(views).toBeGreaterThanOrEqual(Math.floor(all / DOC_PAGES.length));
      expect(perPage.reduce((a, b) => a + b, 0)).toBe(all);
      expect(await total(api, '?path=/never-viewed')).toBe(0);
    });

    it('POST records one view (202, no body) and the total goes up by one', async ({ api, grace: token }) => {
      const all = await total(api);
      const one = await total(api, '?path=/lessons/intro');
      const reply = await api.post('/api/analytics/views', { path: '/lessons/intro' });
      expect(reply.status).toBe(202);
      expect(reply.text).toBe('');
      expect(await total(api)).toBe(all + 1);
      expect(await total(api, '?path=/lessons/intro')).toBe(one + 1);
      // With a token it works the same (the route does not need one).
      expect((await api.post('/api/analytics/views', { path: '/lessons/intro' }, { token })).status).toBe(202);
      expect(await total(api)).toBe(all + 2);
    });

    it('POST refuses a bad path with 400 naming path, and records nothing', async ({ api }) => {
      const all = await total(api);
      const cases: [unknown, string, RegExp][] = [
        [{}, 'path', /^path: is required$/],
        [{ path: 'docs/x' }, 'path', /^path: must start with \/$/],
        [{ path: '' }, 'path', /^path: /],
        [{ path: 42 }, 'path', /^path: .*string/],
        [{ path: null }, 'path', /^path: /],
        [{ path: ['/a'] }, 'path', /^path: /],
        [{ path: `/${'a'.repeat(2048)}` }, 'path', /^path: must be at most 2048 characters$/],
        [{ path: '/a', referrer: 'x' }, 'referrer', /^referrer: unknown field$/],
        ['"/a"', 'body', /^body: /],
      ];
      for (const [body, field, message] of cases) {
        expectError(await api.post('/api/analytics/views', body), 400, message, field);
      }
      expectError(await api.post('/api/analytics/views', '{"path": "/a"'), 400, /^body: /, 'body');
      expect(await total(api)).toBe(all);
    });

    it('GET narrows by from (inclusive) and to (exclusive)', async ({ api }) => {
      const all = await total(api);
      expect(all).toBeGreaterThan(0);
      expect(await total(api, '?from=2000-01-01&to=2200-01-01')).toBe(all);
      expect(await total(api, '?from=2000-01-01T00:00:00Z')).toBe(all);
      expect(await total(api, '?to=2200-01-01T00:00:00.000Z')).toBe(all);
      expect(await total(api, '?from=2200-01-01')).toBe(0);
      expect(await total(api, '?to=2000-01-01')).toBe(0);
      expect(await total(api, '?path=/docs/webhooks&from=2000-01-01&to=2200-01-01')).toBe(await total(api, '?path=/docs/webhooks'));
    });

    it('GET refuses bad dates, a window with to <= from, and a bad path with 400', async ({ api }) => {
      const cases: [string, string, RegExp][] = [
        ['?from=yesterday', 'query.from', /^query\.from: /],
        ['?to=2024-13-01', 'query.to', /^query\.to: /],
        ['?from=2023-02-29', 'query.from', /^query\.from: /],
        ['?from=2024-01-01T25:00:00Z', 'query.from', /^query\.from: /],
        ['?from=2024-01-01T10:00:00%2B02:00', 'query.from', /^query\.from: /],
        ['?from=1700000000', 'query.from', /^query\.from: /],
        ['?from=', 'query.from', /^query\.from: /],
        ['?from=2024-01-02&to=2024-01-01', 'query.to', /^query\.to: must be later than from$/],
        ['?from=2024-01-01&to=2024-01-01T00:00:00Z', 'query.to', /^query\.to: must be later than from$/],
        ['?path=docs', 'query.path', /^query\.path: must start with \/$/],
      ];
      for (const [query, field, message] of cases) {
        const reply = await api.get(`/api/analytics/views${query}`);
        expectError(reply, 400, message, field);
        if (field !== 'query.to' && field !== 'query.path') {
          expect(reply.body.message).toBe(`${field}: must be an ISO 8601 date (YYYY-MM-DD) or UTC date-time (…Z)`);
        }
      }
    });
  });

  if (kind === 'postgres') {
    describe('in the database', () => {
      it('POST emits analytics.hit {event, timestamp, path}', async ({ server, api }) => {
        const path = '/events/check';
        await api.post('/api/analytics/views', { path });
        const rows = await sql<{ id: string; type: string; payload: Record<string, unknown> }>(
          server, `SELECT id, type, payload FROM "Event" WHERE type = 'analytics.hit' AND payload->>'path' = $1`, [path],
        );
        expect(rows).toHaveLength(1);
        expect(rows[0]!.id).toMatch(/^evt_/);
        expect(rows[0]!.payload).toEqual({ event: 'analytics.hit', timestamp: expect.stringMatching(ISO_MS) as string, path });
        // A refused view emits nothing.
        expectError(await api.post('/api/analytics/views', { path: 'no-slash' }), 400);
        const none = await sql(server, `SELECT 1 FROM "Event" WHERE payload->>'path' = 'no-slash'`);
        expect(none).toHaveLength(0);
      });

      it('counts from inclusive and to exclusive, to the millisecond', async ({ server, api }) => {
        const at = [
          ['/boundary', '2001-02-02T23:59:59.999Z'],
          ['/boundary', '2001-02-03T00:00:00.000Z'],
          ['/boundary', '2001-02-03T12:00:00.000Z'],
          ['/boundary', '2001-02-03T23:59:59.999Z'],
          ['/boundary', '2001-02-04T00:00:00.000Z'],
          ['/other', '2001-02-03T12:00:00.000Z'],
        ];
        for (const [path, time] of at) await sql(server, `INSERT INTO "PageView" (path, at) VALUES ($1, $2)`, [path, time]);
        const q = (s: string) => total(api, `?path=/boundary&${s}`);

        expect(await total(api, '?path=/boundary')).toBe(5);
        expect(await q('from=2001-02-03&to=2001-02-04')).toBe(3);
        expect(await total(api, '?from=2001-02-03&to=2001-02-04')).toBe(4); // /other too
        expect(await total(api, '?path=/other&from=2001-02-03&to=2001-02-04')).toBe(1);
        expect(await q('from=2001-02-03T00:00:00.000Z&to=2001-02-03T00:00:00.001Z')).toBe(1);
        expect(await q('from=2001-02-03T00:00:00.001Z&to=2001-02-04')).toBe(2);
        expect(await q('from=2001-02-02T23:59:59.999Z&to=2001-02-03T00:00:00Z')).toBe(1);
        expect(await q('from=2001-02-03T23:59:59.999Z')).toBe(2);
        expect(await q('from=2001-02-04')).toBe(1);
        expect(await q('to=2001-02-03')).toBe(1);
        expect(await q('to=2001-02-04T00:00:00Z')).toBe(4);
        expect(await q('to=2001-02-04T00:00:00.001Z')).toBe(5);
        expect(await q('from=2001-02-04T00:00:00.001Z')).toBe(0);
      });
    });
  }
});
