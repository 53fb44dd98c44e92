// GraphiQL that works with no internet access. Yoga's default page loads GraphiQL's JS and CSS
// from a CDN; offline (this machine, many companies) it stays a blank "Loading…". The page of
// @graphql-yoga/render-graphiql carries everything in itself: GraphiQL's JS and CSS, its fonts
// and favicon as data: URIs, and Monaco's web workers as blob: URLs made from inlined source.
// So the page asks nothing of any origin but ours (its introspection and operations go to
// /graphql), and no extra asset route is needed. usePages serves it like the other pages, before
// the rate-limit budget: revalidated by ETag (a reload is a 304, not 9 MB again) and gzipped.
// test/graphiql-browser.test.ts proves it in a real Chromium.
import { contentFile, onceUntilRejected, withGzip, type StaticFile } from '../pages/assets.js';

export type GraphiQLPage = Pick<StaticFile, 'body' | 'gzipped' | 'contentType' | 'etag'>;

/**
 * GraphiQL's page, made once: the package is ~9 MB of JavaScript, imported on the first GraphiQL
 * request only, so production (GraphiQL off) and API-only processes never load it. Rendering
 * builds a ~9 MB string; gzipping it (off the event loop) makes what a browser downloads 9.1 → 2.4 MB.
 */
export const graphiqlPage: () => Promise<GraphiQLPage> = onceUntilRejected(() =>
  import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) => withGzip(contentFile(renderGraphiQL({}), 'text/html; charset=utf-8'))),
);
