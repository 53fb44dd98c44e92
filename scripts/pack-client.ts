// `npm run pack:client [-- <folder>]`: builds the client library (src/client) as the npm package
// @learnstream/client and packs it to <folder>/learnstream-client-<version>.tgz: an app's own
// folder, where the tarball is kept and committed with the app (default: dist/, which is not kept).
//
// The manifest is src/client/package.json (name, version, exports, dependencies); tsup compiles
// src/client/index.ts to ESM (dist/index.js) and CommonJS (dist/index.cjs) with their .d.ts, in
// a staging folder, dist/client-package/, that `npm pack` then packs. The declarations are
// built with a consumer's strictest settings (exactOptionalPropertyTypes,
// noPropertyAccessFromIndexSignature, noUncheckedIndexedAccess) and the DOM library without
// Node's types, so the sources must type-check as code that runs in browsers as well as in Node.
// Prints the tarball's path as the last line of its output, and how to install it on stderr.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'tsup';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'src/client');
export const stageDir = join(root, 'dist/client-package');
const run = promisify(execFile);

interface Manifest {
  name: string;
  version: string;
  dependencies: Record<string, string>;
}

/** The tarball `npm pack` names a scoped package's archive: `@scope/name` → `scope-name-<version>.tgz`. */
export function tarballName(manifest: Pick<Manifest, 'name' | 'version'>): string {
  return `${manifest.name.replace(/^@/, '').replace('/', '-')}-${manifest.version}.tgz`;
}

/** Builds and packs the client into `destination` (created if missing); resolves with the tarball's absolute path. */
export async function packClient(destination = join(root, 'dist')): Promise<string> {
  const manifest = JSON.parse(await readFile(join(source, 'package.json'), 'utf8')) as Manifest;
  await rm(stageDir, { recursive: true, force: true });
  await mkdir(stageDir, { recursive: true });
  await build({
    entry: { index: join(source, 'index.ts') },
    outDir: join(stageDir, 'dist'),
    format: ['esm', 'cjs'],
    // Node 20 and current browsers; no Node built-ins assumed.
    platform: 'neutral',
    target: 'es2022',
    // The dependencies stay imports (installed next to the package), never bundled in.
    external: Object.keys(manifest.dependencies),
    dts: {
      compilerOptions: {
        strict: true,
        exactOptionalPropertyTypes: true,
        noPropertyAccessFromIndexSignature: true,
        noUncheckedIndexedAccess: true,
        lib: ['ES2022', 'DOM'],
        types: [],
      },
    },
    tsconfig: join(root, 'tsconfig.json'),
    silent: true,
  });
  await writeFile(join(stageDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await copyFile(join(source, 'README.md'), join(stageDir, 'README.md'));
  await copyFile(join(root, 'LICENSE'), join(stageDir, 'LICENSE'));
  await mkdir(destination, { recursive: true });
  // The staged manifest has no scripts; --ignore-scripts keeps it so whatever the npm config says.
  await run('npm', ['pack', '--ignore-scripts', '--pack-destination', destination], { cwd: stageDir });
  return join(destination, tarballName(manifest));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folder = process.argv[2];
  // npm runs scripts in the package's folder: a relative folder is taken from where npm was run.
  const destination = folder === undefined ? undefined : resolve(process.env['INIT_CWD'] ?? process.cwd(), folder);
  const tarball = await packClient(destination);
  const install = `npm install ./${basename(tarball)}`;
  console.error(
    destination === undefined
      ? `Copy it into your app's folder and run \`${install}\` there, or pack it straight into that folder: npm run pack:client -- <folder>`
      : `Install it from ${destination}: ${install} (and commit the tarball with the app)`,
  );
  console.log(tarball);
}
