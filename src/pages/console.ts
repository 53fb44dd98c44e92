// GET /console: the operator console, a Vite app (src/console/) built into dist/console/ by
// `npm run build` (which `npm install` runs) and by `npm start` when its sources are newer. Its page
// and hashed files are read on the first request and kept in memory, gzipped once. Without a build,
// /console answers 503 saying how to build it, and the next request looks again.
import { readFile, readdir } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { etagOf, FAVICON, withGzip, type StaticFile } from './assets.js';
import { pageHead } from './layout.js';


export const CONSOLE_PATH = '/console';
/** Vite's `base` (src/console/vite.config.ts) and `assetsDir`: where the hashed files are served. */
export const CONSOLE_ASSETS_PREFIX = '/console/assets/';

/**
 * dist/console/ at the project's root: this module is src/pages/console.ts under tsx and vitest,
 * dist/pages/console.js when compiled, two levels below the root either way.
 */
export const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../../dist/console/', import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

export interface ConsoleBuild {
  page: Pick<StaticFile, 'body' | 'gzipped' | 'contentType' | 'etag'>;
  /** The hashed files, by the path they are served at. */
  files: Map<string, StaticFile>;
}

async function fileOf(path: string, contentType: string, body: Uint8Array<ArrayBuffer>): Promise<StaticFile> {
  // Only what is worth it: the script and stylesheet, not the (already compressed) images.
  const compressible = contentType.startsWith('text/') || contentType === 'image/svg+xml';
  const file: StaticFile = { path, contentType, body, etag: etagOf(body) };
  return compressible ? withGzip(file) : file;
}

/** Reads a build of the console; undefined when there is none (no index.html). */
export async function readConsoleBuild(dir: string): Promise<ConsoleBuild | undefined> {
  let html: Uint8Array;
  try {
    html = await readFile(join(dir, 'index.html'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const files = new Map<string, StaticFile>();
  let names: string[] = [];
  try {
    names = await readdir(join(dir, 'assets'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  for (const name of names) {
    const contentType = CONTENT_TYPES[extname(name)];
    if (!contentType) continue; // not something the page loads (e.g. a stray source map)
    const path = `${CONSOLE_ASSETS_PREFIX}${name}`;
    files.set(path, await fileOf(path, contentType, new Uint8Array(await readFile(join(dir, 'assets', name)))));
  }
  // The site's icon (a hashed file of the pages), which the console's build cannot name.
  const page = new TextEncoder().encode(
    new TextDecoder().decode(html).replace('</head>', `<link rel="icon" href="${FAVICON.path}" type="image/svg+xml">\n</head>`),
  );
  return { page: await fileOf(CONSOLE_PATH, 'text/html; charset=utf-8', new Uint8Array(page)), files };
}

/** The page /console answers (503) while there is no build: what is missing and how to build it. */
export function renderConsoleMissing(): string {
  return `<!doctype html>
<html lang="en">
<head>
${pageHead('Learnstream console: not built', 'The operator console has not been built on this server.')}
</head>
<body>
<main class="landing">
<header>
<h1>The console has not been built</h1>
<p>This server has no build of the operator console (<code>dist/console/</code>). The API, GraphiQL
and the reference work as usual.</p>
</header>
<div class="guides">
<section>
<h2>To build it</h2>
<p>Run <code>npm run build</code> (or just <code>npm run build:console</code>) in the project, then
reload this page. <code>npm install</code> and <code>npm start</code> build it by themselves;
<code>npm run dev</code> does not.</p>
</section>
</div>
<footer><a href="/">Home</a> · <a href="/reference">API reference</a></footer>
</main>
</body>
</html>
`;
}
