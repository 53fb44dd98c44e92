// Builds what `npm start` runs when it is missing or older than its sources: the service
// (dist/, tsc) and the operator console (dist/console/, Vite). Run by scripts/start.mjs before it
// starts the service, and by the test suite before it starts processes (test/global-setup.ts).
// Plain JavaScript on purpose: it must run before anything is compiled.
/* global URL, console, process -- Node globals (the lint config knows only TypeScript's) */
import { spawnSync } from 'node:child_process';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newest } from './lib/newest.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = join(root, 'dist/main.js');


const sources = Math.max(newest(join(root, 'src')), newest(join(root, 'tsconfig.json')), newest(join(root, 'tsconfig.build.json')));
if (newest(built) === 0 || newest(join(root, 'dist/.tsbuildinfo')) < sources) {
  console.error('building dist/ (the sources changed since the last build)…');
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  // An incremental build with nothing to emit writes nothing: mark the build as current anyway.
  const now = new Date();
  utimesSync(join(root, 'dist/.tsbuildinfo'), now, now);
}

// The embedded database a first start copies (rebuilt when older than the migrations).
const template = spawnSync(process.execPath, [join(root, 'scripts/build-pglite-template.mjs')], { stdio: 'inherit' });
if (template.status !== 0) console.error('the embedded database template could not be built: a first start creates its database itself');

const consoleSources = Math.max(newest(join(root, 'src/console')), newest(join(root, 'src/client')));
if (newest(join(root, 'dist/console/index.html')) < consoleSources) {
  console.error('building dist/console/ (the console sources changed since the last build)…');
  const vite = spawnSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', join(root, 'src/console/vite.config.ts'), '--logLevel', 'warn'], { stdio: 'inherit', cwd: root });
  if (vite.status !== 0) console.error('the console could not be built (see above): the service starts without it, and /console says so');
}
