// Which entry a query reads: the key of its document, operation name and variables, found from a
// plain GET or POST before Yoga parses it; and the entity tag of an entry's version.
import { digest } from '../../digest.js';
import { duplicateKey } from '../../http/body.js';
import type { NodeServerContext } from '../../http/plugins/server-context.js';
import { repeatedParameter } from '../../http/plugins/use-input-encoding.js';
import type { NeverCached } from './cacheable.js';

/** The key of a query's entry: its document, operation name and variables. */
export function cacheKey(documentString: string, operationName: string | null | undefined, variables: unknown): string | undefined {
  let json: string;
  try {
    json = JSON.stringify(variables ?? {});
  } catch {
    // Nested too deeply to write (a RangeError): the input checks refuse such variables anyway.
    return undefined;
  }
  return digest(`${documentString}|${operationName ?? ''}|${json}`, undefined, 'hex');
}

/** The key of a read that has no entry (cacheKey had none): without a read number, nothing is stored under it (generationalCache). */
export const NO_ENTRY = 'none';

/** A short digest of a result's data: what makes two versions of one entry's tag differ. */
const versionOf = (data: unknown) => digest(JSON.stringify(data ?? null), 16);

/**
 * The entity tag of a cached result: its entry's key and its version, quoted (RFC 9110). Not the
 * bare key (what Yoga's plugin sends): that is the same for every version of the entry, and a
 * client holding the tag of an older version would be told 304 once a newer one is cached.
 */
export const entityTag = (key: string, data: unknown) => `"${key}.${versionOf(data)}"`;

/**
 * The entry a GET of `document` reads: its key, or undefined when the request has none (a
 * parameter named twice, refused by the input checks; variables that are not JSON, which Yoga
 * answers).
 */
export function entryKeyOfGet(url: URL, document: string): string | undefined {
  if (repeatedParameter(url) !== undefined) return undefined;
  try {
    return cacheKey(document, url.searchParams.get('operationName'), JSON.parse(url.searchParams.get('variables') ?? '{}'));
  } catch {
    return undefined;
  }
}

/**
 * The entry a POST reads, when it is a plain one whose answer needs nothing but its entry: a JSON
 * body as the node server read it (src/server.ts), of `query` and at most `variables` and
 * `operationName`, with no key named twice, no query string and no content coding. Anything else
 * (a persisted query, a batch, a body the input checks refuse) takes Yoga's way, where a hit is
 * served too, once the body is parsed.
 */
export function entryKeyOfPost(request: Request, url: URL, serverContext: Partial<NodeServerContext>, neverCached: NeverCached): string | undefined {
  const node = serverContext.req as { body?: unknown; bodyNotUtf8?: boolean } | undefined;
  const body = node?.body;
  if (typeof body !== 'string' || node!.bodyNotUtf8 || url.search || request.headers.has('content-encoding')) return undefined;
  if (!PLAIN_JSON.test(request.headers.get('content-type') ?? '')) return undefined;
  let params: unknown;
  try {
    params = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!params || typeof params !== 'object' || Array.isArray(params)) return undefined;
  const { query, variables, operationName, ...rest } = params as Record<string, unknown>;
  if (typeof query !== 'string' || !query || Object.keys(rest).length || neverCached.text(query)) return undefined;
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return undefined;
  if (operationName != null && typeof operationName !== 'string') return undefined;
  if (duplicateKey(body) !== undefined) return undefined;
  return cacheKey(query, operationName as string | null | undefined, variables);
}
/** `application/json`, with parameters (a charset) or none. */
const PLAIN_JSON = /^application\/json\s*(?:;|$)/i;

/** The document of a GET request: its `query`, or the persisted query its `extensions` name. */
export function documentOf(url: URL, persistedDocument?: (sha256Hash: string) => string | undefined): string | undefined {
  const query = url.searchParams.get('query');
  if (query) return query;
  try {
    const hash = (JSON.parse(url.searchParams.get('extensions') ?? 'null') as { persistedQuery?: { sha256Hash?: unknown } } | null)?.persistedQuery?.sha256Hash;
    return typeof hash === 'string' ? persistedDocument?.(hash) : undefined;
  } catch {
    return undefined;
  }
}
