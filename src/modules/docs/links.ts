// Where each documentation page lives. The service has no /docs/* pages: each entry points into
// a page it does serve, the landing page (`/`) or the API reference (`/reference`, whose anchors
// Redoc makes from the OpenAPI document's tags and sections). test/pages-browser.test.ts opens
// every url of GET /api/content/docs and checks that its anchor exists in the rendered page.

/** The demo documentation pages, by slug: their title and where they live. The seed writes these. */
export const DOC_PAGES = [
  { slug: 'getting-started', title: 'Getting started', url: '/#getting-started' },
  { slug: 'authentication', title: 'Authentication', url: '/reference#tag/auth' },
  { slug: 'lessons', title: 'Working with lessons', url: '/reference#tag/lessons' },
  { slug: 'webhooks', title: 'Webhooks and events', url: '/reference#tag/webhooks' },
  { slug: 'rate-limits', title: 'Rate limits', url: '/#rate-limits' },
] as const;

const urlBySlug = new Map<string, string>(DOC_PAGES.map((d) => [d.slug, d.url]));

/**
 * The url to publish for a stored docs row. Databases seeded before the pages existed hold
 * `/docs/<slug>`, which never was a page: those are answered with where the page lives now.
 * Resolved on read rather than rewritten in place, so existing databases (and production, which
 * is never seeded) need no migration and no write at start-up. Any other url is published as stored.
 */
export function publishedDocUrl(slug: string, url: string): string {
  return url === `/docs/${slug}` ? (urlBySlug.get(slug) ?? url) : url;
}
