// GraphiQL that works with no internet access: the page of @graphql-yoga/render-graphiql inlines its
// JS, CSS, fonts and Monaco's workers (Yoga's default page loads them from a CDN and stays blank
// offline). It opens on a starter document saying how to send a token. usePages serves it before
// the rate-limit budget, revalidated by ETag and gzipped.
import type { GraphiQLOptions } from 'graphql-yoga';
import { contentFile, onceUntilRejected, withGzip, type StaticFile } from '../pages/assets.js';

export type GraphiQLPage = Pick<StaticFile, 'body' | 'gzipped' | 'contentType' | 'etag'>;

/**
 * The document a first visit opens on (GraphiQL keeps the visitor's own once they edit it): how
 * to sign in and where the token goes, then a query that needs it. The sign-in is the demo ADMIN
 * of the seed; GraphiQL, like the seed, is never served in production.
 */
export const STARTER_QUERY = `# Welcome to the Learnstream GraphQL API.
#
# Most fields need a token. To get one:
# 1. Run SignIn below (▶, or Ctrl-Enter in it)
#    and copy the "token" from the result.
# 2. In the Headers tab below, put
#    {"Authorization": "Bearer <token>"}
#    (an API key, lp_…, goes there the same way).
# 3. Run Starter: you, and the newest lessons.
#
# Ctrl-Space completes; Docs lists every type.

mutation SignIn {
  login(
    email: "ada@example.com"
    password: "lovelace-1815"
  ) {
    token
  }
}

query Starter {
  me {
    name
    email
    role
  }
  lessons(first: 5) {
    edges {
      node {
        title
        summary
        publishedAt
        author {
          name
        }
      }
    }
  }
}
`;

const OPTIONS: GraphiQLOptions = {
  title: 'Learnstream GraphiQL',
  defaultQuery: STARTER_QUERY,
  // Opens the Headers tab the starter document talks about.
  defaultEditorToolsVisibility: 'headers',
};

/**
 * GraphiQL's page, made once. The package is imported on the first GraphiQL request only, so
 * processes with GraphiQL off never load it; the page is gzipped off the event loop.
 */
export const graphiqlPage: () => Promise<GraphiQLPage> = onceUntilRejected(() =>
  import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) => withGzip(contentFile(renderGraphiQL(OPTIONS), 'text/html; charset=utf-8'))),
);
