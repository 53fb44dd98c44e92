// Real server processes (`node --import tsx src/main.ts`), for what only separate processes show:
// several instances sharing one database and one Redis. Each test file gets its own pool
// (`processPool()`), and its `cleanup()` kills what is left and removes what was created.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { client, type Client } from './http.js';
import { createPgDatabase } from './server.js';

const ROOT = resolve(import.meta.dirname, '../..');
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECRET = 'a-process-test-secret-of-at-least-32-chars';
/** Starting under load (two cores, other suites running) can take long: tsx, migrations, seed. */
const START_DEADLINE_MS = 90_000;

export interface Instance {
  name: string;
  proc: ChildProcess;
  url: string;
  api: Client;
  output(): string;
}

export function processPool() {
  const children = new Set<ChildProcess>();
  const cleanups: (() => Promise<unknown>)[] = [];

  /** Starts one instance with exactly `env` (plus PATH/HOME and test defaults) and waits for "listening". */
  async function start(name: string, env: Record<string, string>): Promise<Instance> {
    const dataDir = await mkdtemp(join(tmpdir(), 'learnstream-proc-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? tmpdir(),
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        JWT_SECRET: SECRET,
        LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(proc);
    proc.on('close', () => children.delete(proc));
    let out = '';
    proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const deadline = Date.now() + START_DEADLINE_MS;
    for (;;) {
      const line = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.msg === 'listening');
      if (line) {
        const url = line.url as string;
        return { name, proc, url, api: client(url), output: () => out };
      }
      if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`${name} exited before listening:\n${out}`);
      if (Date.now() > deadline) throw new Error(`${name}: no "listening" line within ${START_DEADLINE_MS} ms:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Two instances on one fresh PostgreSQL database, started one after the other (A migrates and seeds). */
  async function cluster(env: Record<string, string>): Promise<{ a: Instance; b: Instance; databaseUrl: string }> {
    const db = await createPgDatabase();
    cleanups.push(() => db.drop());
    const a = await start('A', { DATABASE_URL: db.url, ...env });
    const b = await start('B', { DATABASE_URL: db.url, ...env });
    return { a, b, databaseUrl: db.url };
  }

  async function cleanup(): Promise<void> {
    for (const proc of children) if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await Promise.all(
      [...children].map((proc) => new Promise((r) => (proc.exitCode !== null || proc.signalCode !== null ? r(null) : proc.once('close', r)))),
    );
    for (const fn of cleanups.reverse()) await fn();
    cleanups.length = 0;
  }

  return { start, cluster, cleanup };
}
