// The headers every page response carries (the pages, their static files and GraphiQL's page).
// Each Content-Security-Policy starts from "our own origin only" and adds just what that page's
// renderer needs; nothing is ever allowed from another origin.

/** Every page: load and connect to our own origin only; no plugins, no framing, no <base> tricks. */
const OWN_ORIGIN_ONLY = [
  "default-src 'self'",
  // No page uses <object>/<embed>, nor <base>; no other site may frame ours (clickjacking).
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
];

/** The landing page: our stylesheet and icon, nothing inline, no script at all. */
export const LANDING_CSP = [...OWN_ORIGIN_ONLY, "script-src 'none'", "form-action 'none'"].join('; ');

/** The API reference (Redoc 2, its standalone bundle served from /static/). */
export const REFERENCE_CSP = [
  ...OWN_ORIGIN_ONLY,
  // Redoc's scripts are files of ours: no inline script, no eval.
  "script-src 'self'",
  // Redoc styles itself with styled-components, which inserts <style> elements at run time, and
  // React sets style attributes (the sidebar's and the panels' sizes): both are "inline" styles.
  "style-src 'self' 'unsafe-inline'",
  // Redoc's search index (lunr) runs in a Web Worker that Redoc creates from a Blob of inlined
  // source, so the worker is a blob: URL of our own page, not a file from anywhere.
  "worker-src blob:",
  // The sidebar's "API docs by Redocly" badge loads its logo from Redocly's CDN; we serve the
  // bundle with that address replaced by an empty data: URL (src/pages/assets.ts), which fails
  // to decode, so Redoc hides the image: data: carries no request.
  "img-src 'self' data:",
  "form-action 'none'",
].join('; ');

/**
 * The operator console (src/console/, built by Vite): its script and stylesheet are files of ours
 * under /console/assets/, and it talks to this origin only (REST, GraphQL, the events stream over
 * SSE), so nothing inline is allowed at all. Its chart (uPlot) and Preact set styles through the
 * CSSOM (element.style), which CSP does not restrict. Its forms are sent by script, never by the
 * browser.
 */
export const CONSOLE_CSP = [...OWN_ORIGIN_ONLY, "script-src 'self'", "style-src 'self'", "connect-src 'self'", "form-action 'none'"].join('; ');

/** GraphiQL's page (@graphql-yoga/render-graphiql): everything inlined in one document. */
export const GRAPHIQL_CSP = [
  ...OWN_ORIGIN_ONLY,
  // GraphiQL's whole bundle and its start-up call are two inline <script> elements of the page.
  "script-src 'self' 'unsafe-inline'",
  // Its CSS is an inline <style>, and React and Monaco set style attributes.
  "style-src 'self' 'unsafe-inline'",
  // Its fonts and favicon are data: URIs inside the page.
  "font-src 'self' data:",
  "img-src 'self' data:",
  // Monaco's language workers are blob: URLs made from inlined source.
  "worker-src 'self' blob:",
  "form-action 'self'",
].join('; ');

/**
 * `no-referrer`: nothing on these pages uses the Referer header (page views are recorded by an
 * explicit POST with their path), and the few links to other sites (Redoc's credit) then learn
 * nothing of where the reader came from. Stricter than the browsers' default,
 * strict-origin-when-cross-origin, at no cost to any feature here.
 */
export const REFERRER_POLICY = 'no-referrer';

export function pageSecurityHeaders(csp: string): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': REFERRER_POLICY,
  };
}
