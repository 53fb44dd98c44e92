// Where each documentation page lives: an anchor of a page the service serves, the landing page
// (`/`) or the API reference (`/reference`, whose anchors Redoc makes from the OpenAPI tags).
// test/pages-browser.test.ts checks that every listed url's anchor exists in its rendered page.

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
 * The url to publish for a stored docs row. A stored `/docs/<slug>` is no page: it is answered with
 * where the page lives. Resolved on read rather than rewritten in place, so that existing
 * databases need no migration and no write at start-up. Any other url is published as stored.
 */
export function publishedDocUrl(slug: string, url: string): string {
  return url === `/docs/${slug}` ? (urlBySlug.get(slug) ?? url) : url;
}
