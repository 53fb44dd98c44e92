// The pages a person opens in a browser: / (landing), /reference (the API reference), /console (the
// operator console) and their static files, served before the rate-limit budget (the contract does
// not limit pages). Every page response, GraphiQL's included, gets the security headers of
// src/pages/security-headers.ts; any other path passes on untouched (an unknown /static/ file is a 404).
import type { Plugin } from 'graphql-yoga';
import { methodNotAllowed } from '../../errors.js';
import { graphiqlPage } from '../../graphql/graphiql.js';
import { FAVICON, PAGES_STYLESHEET, REFERENCE_SCRIPT, STATIC_PREFIX, contentFile, onceUntilRejected, redocStandalone, type StaticFile } from '../../pages/assets.js';
import { CONSOLE_ASSETS_PREFIX, CONSOLE_PATH, DEFAULT_CONSOLE_DIR, readConsoleBuild, renderConsoleMissing, type ConsoleBuild } from '../../pages/console.js';
import { renderLanding } from '../../pages/landing.js';
import type { PageOptions } from '../../pages/layout.js';
import { renderReference } from '../../pages/reference.js';
import { CONSOLE_CSP, GRAPHIQL_CSP, LANDING_CSP, REFERENCE_CSP, pageSecurityHeaders } from '../../pages/security-headers.js';
import { errorResponse } from '../errors.js';
import { ifNoneMatchHolds } from '../headers.js';
import { requestContextOf } from './server-context.js';

export const LANDING_PATH = '/';
export const REFERENCE_PATH = '/reference';
export { CONSOLE_PATH };

const ALLOW = ['GET', 'HEAD'];
/** A page: always revalidated (a 304 when its ETag still matches), so a new release shows at once. */
const PAGE_CACHE = 'no-cache';
/** A static file: its name changes with its content, so a browser may keep it for a year. */
const STATIC_CACHE = 'public, max-age=31536000, immutable';
/** Static files are not documents: they may load nothing at all. */
const STATIC_CSP = "default-src 'none'; frame-ancestors 'none'";

interface Served {
  file: Pick<StaticFile, 'body' | 'gzipped' | 'contentType' | 'etag'>;
  cacheControl: string;
  csp: string;
  /** 200 unless said otherwise (the console's "not built" page is a 503). */
  status?: number;
}

export interface PagesOptions extends PageOptions {
  /** Where GraphiQL's page is served (GET with Accept: text/html) when `graphiql` is on. */
  graphqlPath: string;
  /** Where the console's build is [dist/console/ at the project's root]. */
  consoleDir?: string;
}

export function usePages({ graphqlPath, consoleDir = DEFAULT_CONSOLE_DIR, ...pageOptions }: PagesOptions): Plugin {
  const landing: Served = { file: htmlFile(renderLanding(pageOptions)), cacheControl: PAGE_CACHE, csp: LANDING_CSP };
  const smallFiles = new Map([PAGES_STYLESHEET, FAVICON, REFERENCE_SCRIPT].map((f) => [f.path, asStatic(f)]));
  // The reference names Redoc's bundle by its hash: it is rendered once the bundle has been read.
  const referencePage = onceUntilRejected(() =>
    redocStandalone().then((redoc): Served => ({ file: htmlFile(renderReference({ ...pageOptions, redoc, script: REFERENCE_SCRIPT })), cacheControl: PAGE_CACHE, csp: REFERENCE_CSP })),
  );

  // The console's build, read on the first request for it. A missing build is not remembered:
  // once `npm run build:console` has run, the next request finds it.
  let consoleBuild: Promise<ConsoleBuild | undefined> | undefined;
  const consoleMissing: Served = { file: htmlFile(renderConsoleMissing()), cacheControl: PAGE_CACHE, csp: LANDING_CSP, status: 503 };
  const readConsole = () => {
    if (!consoleBuild) {
      const reading = readConsoleBuild(consoleDir);
      consoleBuild = reading;
      const forget = () => {
        if (consoleBuild === reading) consoleBuild = undefined;
      };
      reading.then((build) => {
        if (!build) forget();
      }, forget);
    }
    return consoleBuild;
  };

  /** What is served at a path: undefined when it is not ours. */
  function lookup(path: string): Served | Promise<Served | undefined> | undefined {
    if (path === LANDING_PATH) return landing;
    if (path === REFERENCE_PATH) return referencePage();
    if (path === CONSOLE_PATH) return readConsole().then((build) => (build ? { file: build.page, cacheControl: PAGE_CACHE, csp: CONSOLE_CSP } : consoleMissing));
    if (path.startsWith(CONSOLE_ASSETS_PREFIX)) {
      return readConsole().then((build) => {
        const file = build?.files.get(path);
        return file && asStatic(file);
      });
    }
    if (!path.startsWith(STATIC_PREFIX)) return undefined;
    const small = smallFiles.get(path);
    if (small) return small;
    if (!path.startsWith(`${STATIC_PREFIX}redoc-`)) return undefined;
    return redocStandalone().then((redoc) => (redoc.path === path ? asStatic(redoc) : undefined));
  }

  /** GraphiQL's page, where Yoga would render it: a GET (or HEAD) of the GraphQL path asking for HTML. */
  const isGraphiQL = (request: Request, url: URL) =>
    pageOptions.graphiql && url.pathname === graphqlPath && (request.method === 'GET' || request.method === 'HEAD') && (request.headers.get('accept') ?? '').includes('text/html');

  return {
    onRequest({ request, url, endResponse, fetchAPI }) {
      const found = isGraphiQL(request, url)
        ? graphiqlPage().then((file): Served => ({ file, cacheControl: PAGE_CACHE, csp: GRAPHIQL_CSP }))
        : lookup(url.pathname);
      if (!found) return;
      const log = () => requestContextOf(request).log();
      const answer = (served: Served | undefined) => {
        if (!served) return; // not ours after all (an unknown bundle name): the API's 404
        const method = request.method;
        if (method === 'OPTIONS') return endResponse(new fetchAPI.Response(null, { status: 204, headers: { allow: ALLOW.join(', ') } }));
        if (!ALLOW.includes(method)) {
          return endResponse(errorResponse(fetchAPI.Response, methodNotAllowed(method, url.pathname, ALLOW), log()));
        }
        endResponse(respond(served, request, fetchAPI.Response));
      };
      if (!(found instanceof Promise)) return answer(found);
      // Reading Redoc's bundle or the console's build failed (a broken install): the contract's 500, logged.
      return found.then(answer, (error: unknown) => endResponse(errorResponse(fetchAPI.Response, error, log())));
    },
  };
}

function htmlFile(html: string): Served['file'] {
  return contentFile(html, 'text/html; charset=utf-8');
}

function asStatic(file: StaticFile): Served {
  return { file, cacheControl: STATIC_CACHE, csp: STATIC_CSP };
}

/** The response for a page or file: 304 when the client's copy is current, gzip when it takes it. */
function respond({ file, cacheControl, csp, status = 200 }: Served, request: Request, Response: typeof globalThis.Response): Response {
  const headers: Record<string, string> = {
    'content-type': file.contentType,
    'cache-control': cacheControl,
    etag: file.etag,
    ...pageSecurityHeaders(csp),
  };
  if (file.gzipped) headers.vary = 'Accept-Encoding';
  if (status === 200 && ifNoneMatchHolds(request.headers.get('if-none-match'), file.etag)) return new Response(null, { status: 304, headers });
  const gzip = file.gzipped && acceptsGzip(request.headers.get('accept-encoding'));
  if (gzip) headers['content-encoding'] = 'gzip';
  const body = gzip ? file.gzipped! : file.body;
  headers['content-length'] = String(body.byteLength);
  return new Response(request.method === 'HEAD' ? null : body, { status, headers });
}

function acceptsGzip(acceptEncoding: string | null): boolean {
  return (acceptEncoding ?? '').split(',').some((coding) => {
    const [name, ...params] = coding.trim().toLowerCase().split(';');
    return name === 'gzip' && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
  });
}
