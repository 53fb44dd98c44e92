// GraphiQL that works with no internet access: the page of @graphql-yoga/render-graphiql inlines its
// JS, CSS, fonts and Monaco's workers (Yoga's default page loads them from a CDN and stays blank
// offline). usePages serves it before the rate-limit budget, revalidated by ETag and gzipped.
import { contentFile, onceUntilRejected, withGzip, type StaticFile } from '../pages/assets.js';

export type GraphiQLPage = Pick<StaticFile, 'body' | 'gzipped' | 'contentType' | 'etag'>;

/**
 * GraphiQL's page, made once. The package is imported on the first GraphiQL request only, so
 * processes with GraphiQL off never load it; the page is gzipped off the event loop.
 */
export const graphiqlPage: () => Promise<GraphiQLPage> = onceUntilRejected(() =>
  import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) => withGzip(contentFile(renderGraphiQL({}), 'text/html; charset=utf-8'))),
);
