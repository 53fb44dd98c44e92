// What the GraphQL server keeps of the documents clients send: parsed documents, parse errors and
// persisted queries, each an lru-cache bounded in estimated bytes as well as by count, so that a
// few large documents from an anonymous client cannot fill the heap. A document of more than
// MAX_DOCUMENT_TOKENS is refused as it is parsed (src/graphql/use-no-nul.ts).
import type { DocumentNode } from 'graphql';
import { LRUCache } from 'lru-cache';

/** Tokens in one document: the standard introspection query has 163-184, our clients' under 50. */
export const MAX_DOCUMENT_TOKENS = 1_000;
/** Yoga's own: an hour for parsed documents and errors; 36 s for persisted queries. */
const PARSED_TTL_MS = 3_600_000;
const PERSISTED_TTL_MS = 36_000;
/** The estimated size of a parsed token with its node and location. */
const BYTES_A_TOKEN = 512;
const MB = 1_000_000;

/** A parsed document's estimated size: its text and its tokens (its location's token list). */
function parsedSize(document: DocumentNode, text: string): number {
  let tokens = 0;
  for (let token = document.loc?.startToken ?? null; token; token = token.next) tokens++;
  return text.length + BYTES_A_TOKEN * tokens || 1;
}

/** Yoga's `parserAndValidationCache`: parsed documents and parse errors, by the document's text. */
export function parserCaches() {
  return {
    documentCache: new LRUCache<string, DocumentNode>({ max: 1_024, ttl: PARSED_TTL_MS, maxSize: 50 * MB, sizeCalculation: parsedSize }),
    errorCache: new LRUCache<string, object>({ max: 1_024, ttl: PARSED_TTL_MS, maxSize: 10 * MB, sizeCalculation: (_error, text) => text.length || 1 }),
  };
}

/** The automatic persisted queries' store: documents by their sha256. */
export function persistedQueryStore() {
  return new LRUCache<string, string>({ max: 1_000, ttl: PERSISTED_TTL_MS, maxSize: 10 * MB, sizeCalculation: (document) => document.length || 1 });
}
