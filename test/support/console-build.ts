// The operator console's build (dist/console/, what GET /console serves), made fresh for the tests
// that open it: `npm install` builds it, but a test run after editing src/console/ or src/client/
// must not check yesterday's bundle. Built with the same command as `npm run build:console`, only
// when a source is newer than the build, by one test file at a time (a lock directory), so two
// files running side by side never see a half-written build.
import { execFile } from 'node:child_process';
import { mkdir, readdir, rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sleep } from './wait.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUILT = join(ROOT, 'dist/console/index.html');
const LOCK = join(ROOT, 'dist/.console-build.lock');
/** A lock older than this was left by a run that died. */
const STALE_LOCK_MS = 120_000;

async function newest(path: string): Promise<number> {
  let info;
  try {
    info = await stat(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return info.mtimeMs;
  const times = await Promise.all((await readdir(path)).map((name) => newest(join(path, name))));
  return Math.max(info.mtimeMs, ...times);
}

const isStale = async () => (await newest(BUILT)) < Math.max(await newest(join(ROOT, 'src/console')), await newest(join(ROOT, 'src/client')));

/** Builds dist/console/ when it is missing or older than its sources. */
export async function ensureConsoleBuilt(): Promise<void> {
  if (!(await isStale())) return;
  await mkdir(join(ROOT, 'dist'), { recursive: true });
  for (;;) {
    try {
      await mkdir(LOCK);
      break;
    } catch {
      const held = await stat(LOCK).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (held > STALE_LOCK_MS) await rmdir(LOCK).catch(() => undefined);
      else await sleep(200);
    }
  }
  try {
    // Another file may have built it while this one waited.
    if (await isStale()) {
      await run(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--config', join(ROOT, 'src/console/vite.config.ts'), '--logLevel', 'warn'], { cwd: ROOT });
    }
  } finally {
    await rmdir(LOCK);
  }
}
