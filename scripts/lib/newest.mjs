// The newest modification time under a path: what the build scripts compare to decide whether
// an output is older than its sources.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The newest modification time under `path` (0 when it does not exist). */
export function newest(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs);
}
