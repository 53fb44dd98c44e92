// The headers object a Response is made with, when it is built from other objects.

/**
 * A new headers object: the entries of each source in turn, later ones winning. Not an object
 * spread: on Node 20's V8 a spread's copy gets a hidden map of its own, so every header the
 * onResponse hooks add afterwards (the request id, CORS, the limits) makes yet another map, which
 * costs far more than this copy (docs/decisions.md).
 */
export const responseHeaders = (...sources: ReadonlyArray<Readonly<Record<string, string>> | undefined>): Record<string, string> =>
  Object.assign({}, ...sources);

/**
 * What a browser or a shared cache may do with a result that has an ETag (a GraphQL GET result the
 * same for every caller): keep it, and ask each time (a 304 while it is current), by media type
 * (JSON and multipart/mixed are two bodies). Any other response is `no-store` (useRequestContext).
 */
export const REVALIDATE_HEADERS: Readonly<Record<string, string>> = { 'cache-control': 'no-cache', vary: 'Accept' };

/** The entity tags an If-None-Match lists, without their weak prefix (a weak comparison, RFC 9110 13.1.2). */
export const listedTags = (header: string): string[] => header.split(',').map((tag) => tag.trim().replace(/^W\//, ''));

/** If-None-Match names `etag`: `*`, or a list of entity tags, weak ones compared weakly. */
export function ifNoneMatchHolds(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.trim() === '*' || listedTags(ifNoneMatch).includes(etag);
}

/**
 * If-Match holds for a resource whose current tag is `etag`: `*` (any current version), or a list
 * naming it. Strong comparison (RFC 9110 13.1.1): a weak tag never matches.
 */
export function ifMatchHolds(ifMatch: string, etag: string): boolean {
  if (ifMatch.trim() === '*') return true;
  return ifMatch.split(',').some((tag) => tag.trim() === etag);
}
