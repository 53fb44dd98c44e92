// The pages' static files, served under /static/ with names that change with their content, so a
// browser may keep each for a year (Cache-Control immutable), and with an ETag for the pages that
// point at them. Redoc's bundle is read from node_modules on the first request for the reference
// only: processes that never serve it never hold it.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { FAVICON_SVG } from './favicon.js';
import { REFERENCE_INIT_JS } from './reference-script.js';
import { PAGES_CSS } from './styles.js';

const gzip = promisify(gzipCallback);
const require = createRequire(import.meta.url);

export const STATIC_PREFIX = '/static/';

export interface StaticFile {
  /** Where it is served, e.g. /static/pages.3f2a1c9e.css. */
  path: string;
  contentType: string;
  body: Uint8Array<ArrayBuffer>;
  /** The body gzipped, for clients that accept it (the big bundle only). */
  gzipped?: Uint8Array<ArrayBuffer>;
  /** A strong validator: the hash of the body. */
  etag: string;
}

const hashOf = (body: Uint8Array) => createHash('sha256').update(body).digest('base64url');

/** A strong ETag of a body: the hash of its bytes, quoted. */
export const etagOf = (body: Uint8Array) => `"${hashOf(body)}"`;

/** The file with its body gzipped too (off the event loop), for clients that accept it. */
export async function withGzip<F extends { body: Uint8Array<ArrayBuffer> }>(file: F): Promise<F & { gzipped: Uint8Array<ArrayBuffer> }> {
  return { ...file, gzipped: new Uint8Array(await gzip(file.body)) };
}

/** A body with its type and ETag (the pages themselves, which keep their addresses). */
export function contentFile(text: string, contentType: string): Pick<StaticFile, 'body' | 'contentType' | 'etag'> {
  const body = Buffer.from(text, 'utf8');
  return { body, contentType, etag: etagOf(body) };
}

/** A static file, named after its content. */
function staticFile(name: string, extension: string, contentType: string, text: string): StaticFile {
  const file = contentFile(text, contentType);
  return { ...file, path: `${STATIC_PREFIX}${name}.${file.etag.slice(1, 13)}.${extension}` };
}

/** The small files, made once at start. */
export const PAGES_STYLESHEET = staticFile('pages', 'css', 'text/css; charset=utf-8', PAGES_CSS);
export const FAVICON = staticFile('favicon', 'svg', 'image/svg+xml', FAVICON_SVG);
export const REFERENCE_SCRIPT = staticFile('reference', 'js', 'text/javascript; charset=utf-8', REFERENCE_INIT_JS);

/**
 * The one address in Redoc 2's standalone bundle that is not ours: the sidebar's "API docs by
 * Redocly" badge loads its logo from Redocly's CDN, always (no option turns it off). We serve
 * the bundle with that address replaced by an empty data: URL: the image fails to decode, Redoc's
 * onError hides it, and the page asks nothing of any other origin. The credit text stays.
 */
const REDOCLY_LOGO = '"https://cdn.redoc.ly/redoc/logo-mini.svg"';
const NO_IMAGE = '"data:,"';

/**
 * `load()`, run on the first call and its promise shared by every later one. A rejection is not
 * remembered: the next call tries again (a broken install may be mended without a restart).
 */
export function onceUntilRejected<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    if (!pending) {
      const loading = load();
      loading.catch(() => {
        if (pending === loading) pending = undefined;
      });
      pending = loading;
    }
    return pending;
  };
}

/** Redoc's standalone bundle (React, styled-components and all, in one file), read once. */
export const redocStandalone = onceUntilRejected(() => loadRedoc());

async function loadRedoc(): Promise<StaticFile> {
  const { version } = require('redoc/package.json') as { version: string };
  const source = await readFile(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8');
  // A Redoc release that moved the badge is served as it is: the browser test, which records
  // every request of the page, then fails on the request to another origin.
  const text = source
    .replaceAll(REDOCLY_LOGO, NO_IMAGE)
    // The source map is not served: no reference to a file that is not there.
    .replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
  const file = staticFile(`redoc-${version}`, 'js', 'text/javascript; charset=utf-8', text);
  return withGzip(file);
}
