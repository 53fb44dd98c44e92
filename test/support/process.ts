// Real server processes running the compiled service, as `npm start` runs it (`node dist/main.js`,
// built if stale before the suite by test/global-setup.ts), for what only separate processes show:
// configuration errors, production mode, signals, several instances sharing one database and one
// Redis. Each test file gets its own pool (`processPool()`), and its `cleanup()` kills what is left
// and removes what was created.
import { spawn as spawnProcess, type ChildProcess } from 'node:child_process';
import { SERVICE_NODE_FLAGS } from '../../bench/lib/processes.js';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';
import { client, type Client } from './http.js';
import { createPgDatabase } from './server.js';

const ROOT = resolve(import.meta.dirname, '../..');
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const TEST_JWT_SECRET = 'a-process-test-secret-of-at-least-32-chars';
/** Starting under load (two cores, other suites running) can take long: migrations, seed. */
const START_DEADLINE_MS = 90_000;

export interface Child {
  proc: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** stdout and stderr together, in the order they arrived. */
  output(): string;
  /** Resolves with the exit code (or the signal) when the process ends. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface Instance {
  name: string;
  proc: ChildProcess;
  url: string;
  api: Client;
  output(): string;
}

/** The JSON log lines the process wrote to stdout so far (a line still being written is left out). */
export function logLines(child: Child): Record<string, unknown>[] {
  const lines = child.stdout().split('\n');
  lines.pop();
  return lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Waits for the "listening" log line and returns its url (fails if the process exits first). */
export async function listeningUrl(child: Child, deadlineMs = START_DEADLINE_MS): Promise<string> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const line = logLines(child).find((l) => l.msg === 'listening');
    if (line) return line.url as string;
    if (child.proc.exitCode !== null || child.proc.signalCode !== null) {
      throw new Error(`the process exited before listening:\n${child.output()}`);
    }
    if (Date.now() > deadline) throw new Error(`no "listening" line within ${deadlineMs} ms:\n${child.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function processPool() {
  const children = new Set<ChildProcess>();
  const cleanups: (() => Promise<unknown>)[] = [];

  /** Runs `fn` in `cleanup()`, after every child has ended (last registered, first run). */
  function defer(fn: () => Promise<unknown>): void {
    cleanups.push(fn);
  }

  /** A fresh temporary directory, removed in `cleanup()`. */
  async function tempDir(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'learnstream-proc-'));
    defer(() => rm(dir, { recursive: true, force: true }));
    return dir;
  }

  /**
   * A fresh data directory holding the suite's migrated, unseeded embedded database (a copy of
   * test/global-setup.ts's), removed in `cleanup()`: for a test about something other than a first
   * start, which costs a process 10–15 s of CPU (creating the database and every migration).
   */
  async function migratedDataDir(): Promise<string> {
    const dir = await tempDir();
    await cp(inject('pgliteTemplate'), dir, { recursive: true });
    return dir;
  }

  /** Starts `node dist/main.js` with exactly `env` (plus PATH/HOME), nothing inherited. */
  function spawn(env: Record<string, string>): Child {
    const proc = spawnProcess(process.execPath, [...SERVICE_NODE_FLAGS, 'dist/main.js'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(proc);
    let out = '';
    let err = '';
    let all = '';
    proc.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      all += chunk;
    });
    proc.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
      all += chunk;
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      proc.on('close', (code, signal) => {
        children.delete(proc);
        resolve({ code, signal });
      });
    });
    return { proc, stdout: () => out, stderr: () => err, output: () => all, exited };
  }

  /** Starts one instance with exactly `env` (plus PATH/HOME and test defaults) and waits for "listening". */
  async function start(name: string, env: Record<string, string>): Promise<Instance> {
    const child = spawn({
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      // A migrated copy when the instance will use it (no DATABASE_URL): none of its users tests a first start.
      DATA_DIR: env.DATABASE_URL ? await tempDir() : await migratedDataDir(),
      JWT_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: 'info',
      ...env,
    });
    let url: string;
    try {
      url = await listeningUrl(child);
    } catch (error) {
      throw new Error(`${name}: ${(error as Error).message}`);
    }
    return { name, proc: child.proc, url, api: client(url), output: child.output };
  }

  /** Two instances on one fresh, migrated PostgreSQL database, started one after the other (A seeds). */
  async function cluster(env: Record<string, string>): Promise<{ a: Instance; b: Instance; databaseUrl: string }> {
    const db = await createPgDatabase({ migrated: true });
    defer(() => db.drop());
    const a = await start('A', { DATABASE_URL: db.url, ...env });
    const b = await start('B', { DATABASE_URL: db.url, ...env });
    return { a, b, databaseUrl: db.url };
  }

  /** SIGKILLs every child still running, waits for each to end, then runs the deferred cleanups. */
  async function cleanup(): Promise<void> {
    for (const proc of children) if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await Promise.all(
      [...children].map((proc) => new Promise((r) => (proc.exitCode !== null || proc.signalCode !== null ? r(null) : proc.once('close', r)))),
    );
    for (const fn of cleanups.reverse()) await fn();
    cleanups.length = 0;
  }

  return { spawn, listeningUrl, logLines, tempDir, migratedDataDir, defer, start, cluster, cleanup };
}
