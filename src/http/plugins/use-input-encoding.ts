// What a request's bytes must be before anything reads them, answered in the shape of what was
// asked (the contract's error body, or a GraphQL error on a GraphQL path):
// - 413 for a body over BODY_LIMIT_BYTES (the node server drained it unread, src/server.ts);
// - 400 for a body that is not UTF-8, or a query string whose percent-encoding is not: decoded
//   as they were, every bad byte became U+FFFD, and was stored that way.
import { isUtf8 } from 'node:buffer';
import type { Plugin } from 'graphql-yoga';
import { badInput } from '../../errors.js';
import { refusalResponse } from '../../graphql/errors.js';
import { notUtf8, tooLarge } from '../body.js';
import { requestContextOf, type NodeServerContext } from './server-context.js';

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

export function useInputEncoding({ bodyLimit, graphqlPaths }: { bodyLimit: number; graphqlPaths: readonly string[] }): Plugin<object, NodeServerContext> {
  return {
    onRequest({ request, url, serverContext: { req }, endResponse, fetchAPI }) {
      const error = req.bodyTooLarge
        ? tooLarge(bodyLimit)
        : req.bodyNotUtf8
          ? notUtf8()
          : utf8Escapes(url.search)
            ? undefined
            : badInput('query', 'must be valid UTF-8 once percent-decoded');
      if (!error) return;
      endResponse(refusalResponse(fetchAPI.Response, error, request, requestContextOf(request).log(), graphqlPaths.includes(url.pathname)));
    },
  };
}
