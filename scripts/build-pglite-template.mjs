// Builds dist/pglite-template/: an embedded database created and migrated (not seeded), which a
// first start copies into DATA_DIR instead of creating one (src/db/pglite.ts). Creating a
// database (PGlite's initdb) and migrating it is most of a first start's time; copying takes a
// fraction of a second. Rebuilt when it is older than the migrations; migrations added after it
// are applied at start as on any database.
/* global URL, console, process -- Node globals (the lint config knows only TypeScript's) */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newest } from './lib/newest.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const template = join(root, 'dist/pglite-template');

const migrations = Math.max(newest(join(root, 'prisma/migrations')), newest(join(root, 'dist/db/migrate-child.js')));
let built = 0;
try {
  built = statSync(join(template, 'PG_VERSION')).mtimeMs;
} catch {
  // none yet
}
if (built < migrations) {
  const dataDir = mkdtempSync(join(tmpdir(), 'learnstream-template-'));
  try {
    const child = spawnSync(process.execPath, [join(root, 'dist/db/migrate-child.js')], {
      env: { ...process.env, LEARNSTREAM_MIGRATE_DATABASE_URL: '', LEARNSTREAM_MIGRATE_DATA_DIR: dataDir, LEARNSTREAM_MIGRATE_SEED: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
    });
    if (child.status !== 0) {
      // No template: a first start creates its database itself, only slower.
      console.error(`the embedded database template could not be built: ${child.stdout.trim()}`);
    } else {
      rmSync(template, { recursive: true, force: true });
      renameSync(join(dataDir, 'pglite'), template);
      // The build's time, which the check above compares: PGlite may write PG_VERSION with a
      // modification time in 1970, and the template would then be rebuilt on every start.
      const now = new Date();
      utimesSync(join(template, 'PG_VERSION'), now, now);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
