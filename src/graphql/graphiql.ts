// GraphiQL that works with no internet access. Yoga's default page loads GraphiQL's JS and CSS
// from a CDN; offline (this machine, many companies) it stays a blank "Loading…". The page of
// @graphql-yoga/render-graphiql carries everything in itself: GraphiQL's JS and CSS, its fonts
// and favicon as data: URIs, and Monaco's web workers as blob: URLs made from inlined source.
// So the page asks nothing of any origin but ours (its introspection and operations go to
// /graphql), and no extra asset route is needed: the rate-limit exemption of the GraphiQL page
// (app.ts) covers all of it. test/graphiql-browser.test.ts proves it in a real Chromium.
import type { GraphiQLOptions } from 'graphql-yoga';

let page: { key: string; html: Promise<string> } | undefined;

/**
 * Yoga's `renderGraphiQL`. The package is ~9 MB of JavaScript: it is imported on the first
 * GraphiQL request only, so production (GraphiQL off) and API-only processes never load it.
 * The page is rendered once per set of options, not per request: rendering builds a ~9 MB
 * string (~10 ms here) and the options are the same on every request.
 */
export function renderSelfContainedGraphiQL(options: GraphiQLOptions): Promise<string> {
  const key = JSON.stringify(options);
  if (page?.key !== key) {
    const html = import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) => renderGraphiQL(options));
    // A failed import is not remembered: the next request tries again.
    html.catch(() => {
      if (page?.html === html) page = undefined;
    });
    page = { key, html };
  }
  return page.html;
}
