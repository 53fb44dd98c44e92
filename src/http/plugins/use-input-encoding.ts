// What a request's bytes must be before anything reads them, answered in the shape of what was
// asked (the contract's error body, or a GraphQL error on a GraphQL path).
import { isUtf8 } from 'node:buffer';
import type { Plugin } from 'graphql-yoga';
import { AppError, badInput } from '../../errors.js';
import { refusalResponse } from '../../graphql/errors.js';
import { encodedBody, notUtf8, tooLarge } from '../body.js';
import { requestContextOf, type NodeServerContext } from './server-context.js';

const IDENTITY = /^\s*identity\s*$/i;
const ESCAPES = /(?:%[0-9a-f]{2})+/gi;

/**
 * Whether the bytes every run of %XX escapes of a query string stands for are UTF-8 (URLSearchParams
 * would replace the others with U+FFFD). A `%` that starts no escape is a literal, as it is there.
 */
function utf8Escapes(search: string): boolean {
  if (!search.includes('%')) return true;
  for (const [run] of search.matchAll(ESCAPES)) {
    if (!isUtf8(Buffer.from(run.replaceAll('%', ''), 'hex'))) return false;
  }
  return true;
}

/**
 * The first name a query string gives twice (compared decoded, as URLSearchParams reads them), or
 * undefined. Readers disagree on which copy counts: the REST routes read the last, Yoga the first,
 * and a proxy or a log may read either, so it is refused, as a JSON key named twice is.
 */
export function repeatedParameter(url: URL): string | undefined {
  if (!url.search.includes('&')) return undefined; // one parameter at most
  const names = new Set<string>();
  for (const name of url.searchParams.keys()) {
    if (names.has(name)) return name;
    names.add(name);
  }
  return undefined;
}

/**
 * The media types of a GraphQL POST: JSON, as Yoga's JSON parser matches them (the first of a
 * list, exactly, with any parameters), so that /graphql and /graphql/stream read the same bodies.
 */
const GRAPHQL_JSON = /^application\/(?:graphql\+)?json(?:;|$)/;

export const unsupportedMediaType = () =>
  new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported Media Type: a GraphQL POST is sent as application/json', { details: { accept: ['application/json'] } });

/** Whether a POST's Content-Type (or none) is one a GraphQL POST may have. */
export function isGraphQLJson(contentType: string | null | undefined): boolean {
  return GRAPHQL_JSON.test(contentType?.split(',')[0] ?? '');
}

function queryProblem(url: URL): AppError | undefined {
  if (!utf8Escapes(url.search)) return badInput('query', 'must be valid UTF-8 once percent-decoded');
  const repeated = repeatedParameter(url);
  return repeated === undefined ? undefined : badInput(`query.${repeated}`, 'must not be repeated');
}

/**
 * - 400 for a body sent with a content coding (nothing decodes it), with `Accept-Encoding: identity`
 *   (RFC 9110, 12.5.3);
 * - 413 for a body over BODY_LIMIT_BYTES (the node server drained it unread, src/server.ts);
 * - 400 for a body that is not UTF-8, or a query string whose percent-encoding is not: decoded,
 *   every bad byte would become U+FFFD and be stored that way;
 * - 400 for a query string that names a parameter twice (repeatedParameter);
 * - 415 for a GraphQL POST whose body is not declared as JSON: forms and text/plain are what a
 *   browser sends cross-site without a preflight, there are no uploads, and Yoga reads a form's
 *   fields by other rules than a JSON body's.
 */
export function useInputEncoding({ bodyLimit, graphqlPaths }: { bodyLimit: number; graphqlPaths: readonly string[] }): Plugin<object, NodeServerContext> {
  return {
    onRequest({ request, url, serverContext: { req }, endResponse, fetchAPI }) {
      const sent = req.body !== undefined || req.bodyTooLarge;
      const coding = req.headers['content-encoding'];
      const graphql = graphqlPaths.includes(url.pathname);
      if (graphql && request.method === 'POST' && !isGraphQLJson(request.headers.get('content-type'))) {
        // Before the size and encoding checks: whatever its bytes, no body of this type is read.
        endResponse(refusalResponse(fetchAPI.Response, unsupportedMediaType(), request, requestContextOf(request).log(), false));
        return;
      }
      const error =
        sent && coding !== undefined && !IDENTITY.test(coding)
          ? encodedBody()
          : req.bodyTooLarge
            ? tooLarge(bodyLimit)
            : req.bodyNotUtf8
              ? notUtf8()
              : queryProblem(url);
      if (!error) return;
      endResponse(refusalResponse(fetchAPI.Response, error, request, requestContextOf(request).log(), graphql));
    },
  };
}
