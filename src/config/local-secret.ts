// The signing key outside production when JWT_SECRET is not set: generated once, kept in DATA_DIR.
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './config-error.js';

const SECRET_BYTES = 32;

/**
 * Outside production a signing key is generated once and kept in DATA_DIR (mode 0600), so
 * tokens survive a restart without any setup. Two processes starting at once agree on one key.
 * A file that cannot be read or written, or that does not hold a key, is a DATA_DIR problem.
 */
export function localSecret(dataDir: string): Uint8Array {
  const file = join(dataDir, 'jwt-secret');
  const problem = (what: string, error?: unknown) =>
    new ConfigError([`DATA_DIR: ${what}${error instanceof Error ? ` (${error.message})` : ''}`]);
  const read = (): Uint8Array | undefined => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw problem(`cannot read ${file}`, error);
    }
    const secret = Buffer.from(text.trim(), 'base64url');
    if (secret.length < SECRET_BYTES) {
      throw problem(`${file} does not hold a signing key; delete it to generate a new one (signs out everyone)`);
    }
    return secret;
  };
  const existing = read();
  if (existing) return existing;
  const secret = randomBytes(SECRET_BYTES);
  // Written whole to a private file, then linked into place: a reader never sees half a key,
  // and when another process wins the race, its key is used.
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(temp, secret.toString('base64url'), { mode: 0o600, flag: 'wx' });
    try {
      linkSync(temp, file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
      // A file system without hard links: create it in place.
      writeFileSync(file, secret.toString('base64url'), { mode: 0o600, flag: 'wx' });
    }
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      const theirs = read();
      if (theirs) return theirs;
    }
    throw problem(`cannot write ${file}`, error);
  } finally {
    rmSync(temp, { force: true });
  }
}
