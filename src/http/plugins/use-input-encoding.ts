// What a request's bytes must be before anything reads them, answered in the shape of what was
// asked (the contract's error body, or a GraphQL error on a GraphQL path):
// - 400 for a body sent with a content coding (gzip, br…; nothing decodes it), with
//   `Accept-Encoding: identity` (RFC 9110, 12.5.3);
// - 413 for a body over BODY_LIMIT_BYTES (the node server drained it unread, src/server.ts);
// - 400 for a body that is not UTF-8, or a query string whose percent-encoding is not: decoded
//   as they were, every bad byte became U+FFFD, and was stored that way;
// - 400 for a query string that names a parameter twice (see repeatedParameter).
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

function queryProblem(url: URL): AppError | undefined {
  if (!utf8Escapes(url.search)) return badInput('query', 'must be valid UTF-8 once percent-decoded');
  const repeated = repeatedParameter(url);
  return repeated === undefined ? undefined : badInput(`query.${repeated}`, 'must not be repeated');
}

export function useInputEncoding({ bodyLimit, graphqlPaths }: { bodyLimit: number; graphqlPaths: readonly string[] }): Plugin<object, NodeServerContext> {
  return {
    onRequest({ request, url, serverContext: { req }, endResponse, fetchAPI }) {
      const sent = req.body !== undefined || req.bodyTooLarge;
      const coding = req.headers['content-encoding'];
      const error =
        sent && coding !== undefined && !IDENTITY.test(coding)
          ? encodedBody()
          : req.bodyTooLarge
            ? tooLarge(bodyLimit)
            : req.bodyNotUtf8
              ? notUtf8()
              : queryProblem(url);
      if (!error) return;
      endResponse(refusalResponse(fetchAPI.Response, error, request, requestContextOf(request).log(), graphqlPaths.includes(url.pathname)));
    },
  };
}
