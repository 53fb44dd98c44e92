// The soak's own throwaway PostgreSQL cluster and Redis server, each on a free port in a temporary
// directory, so that stopping and restarting them (the faults) hurts nothing else on the machine.
// Both are removed by `cleanup()` (and, as a last resort, synchronously when the process exits).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../bench/lib/processes.js';

const PG_ROOT = '/usr/lib/postgresql';

/** The newest PostgreSQL's binaries (`/usr/lib/postgresql/<major>/bin`). */
function pgBin(): string {
  const majors = existsSync(PG_ROOT) ? readdirSync(PG_ROOT).filter((d) => /^\d+$/.test(d)).sort((a, b) => Number(b) - Number(a)) : [];
  const bin = majors.map((m) => join(PG_ROOT, m, 'bin')).find((dir) => existsSync(join(dir, 'pg_ctl')));
  if (!bin) throw new Error(`no PostgreSQL binaries under ${PG_ROOT}/*/bin (apt-get install postgresql)`);
  return bin;
}

/** uid/gid of `postgres`: initdb refuses to run as root, so as root the cluster belongs to that user. */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error('running as root, and there is no `postgres` user to own the cluster (initdb refuses root)');
  return { uid: Number(uid), gid: Number(gid) };
}

/** A PostgreSQL tool's command line, through `runuser -u postgres` when we are root. */
function asOwner(tool: string, args: string[], asUser: boolean): [string, string[]] {
  return asUser ? ['runuser', ['-u', 'postgres', '--', tool, ...args]] : [tool, args];
}

/** Runs a PostgreSQL tool synchronously (set-up, and the last-resort stop at exit); throws on failure. */
function pgToolSync(tool: string, args: string[], asUser: boolean): void {
  const [command, argv] = asOwner(tool, args, asUser);
  const result = spawnSync(command, argv, { encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) {
    throw new Error(`${tool} ${args.join(' ')} failed (${result.status ?? result.signal}): ${result.stderr || result.stdout || result.error?.message}`);
  }
}

/** The same without blocking the event loop: the soak's clients keep running during a restart. */
function pgTool(tool: string, args: string[], asUser: boolean): Promise<void> {
  const [command, argv] = asOwner(tool, args, asUser);
  return new Promise((resolve, reject) => {
    const proc = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
    proc.once('error', reject);
    proc.once('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${tool} ${args.join(' ')} failed (${code ?? signal}): ${out}`))));
  });
}

export interface Postgres {
  port: number;
  /** The service's database (trust auth on loopback). */
  url: string;
  /** Fast shutdown (every session is terminated), then down for `downMs`, then started again. */
  restart(downMs: number): Promise<{ stoppedAt: number; readyAt: number }>;
  stop(): Promise<void>;
}

export interface Redis {
  port: number;
  url: string;
  /** Shuts Redis down (no save) and resolves once it has exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port and resolves once it answers. */
  start(): Promise<void>;
}

export interface Infra {
  dir: string;
  postgres: Postgres;
  redis: Redis;
  /** Stops both and removes the directory. Idempotent. */
  cleanup(): Promise<void>;
}

async function waitUntil(what: string, check: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not ready within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function pgReady(bin: string, port: number): boolean {
  return spawnSync(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-q']).status === 0;
}

function redisPing(port: number): boolean {
  const r = spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'ping'], { encoding: 'utf8', timeout: 2_000 });
  return r.status === 0 && r.stdout.trim() === 'PONG';
}

export async function startInfra(log: (message: string) => void): Promise<Infra> {
  const bin = pgBin();
  const owner = postgresUser();
  const dir = mkdtempSync(join(tmpdir(), 'learnstream-soak-'));
  chmodSync(dir, 0o755);
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'pg');
  const pgPort = await freePort();
  const redisPort = await freePort();
  let redisProc: ChildProcess | undefined;
  let pgStarted = false;
  let cleaned = false;

  const pgCtl = (args: string[]) => pgTool(join(bin, 'pg_ctl'), ['-D', data, ...args], Boolean(owner));
  const stopPostgres = async (mode: 'fast' | 'immediate') => {
    if (!pgStarted) return;
    await pgCtl(['stop', '-m', mode, '-w', '-t', '60']);
    pgStarted = false;
  };
  const stopPostgresSync = () => {
    if (!pgStarted) return;
    pgToolSync(join(bin, 'pg_ctl'), ['-D', data, 'stop', '-m', 'immediate', '-w', '-t', '30'], Boolean(owner));
    pgStarted = false;
  };
  const startPostgres = async () => {
    // fsync off: a throwaway cluster whose restarts are clean shutdowns; the log stays in the directory.
    const options = `-p ${pgPort} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c max_connections=200`;
    pgStarted = true;
    await pgCtl(['start', '-w', '-t', '60', '-l', join(dir, 'postgres.log'), '-o', options]);
    await waitUntil('PostgreSQL', () => pgReady(bin, pgPort), 30_000);
  };

  const startRedis = async () => {
    const proc = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
      stdio: 'ignore',
    });
    redisProc = proc;
    await waitUntil('Redis', () => {
      if (proc.exitCode !== null) throw new Error(`redis-server exited (code ${proc.exitCode}) on port ${redisPort}`);
      return redisPing(redisPort);
    }, 15_000);
  };
  const stopRedis = async () => {
    const proc = redisProc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(redisPort), 'shutdown', 'nosave'], { timeout: 5_000 });
    const force = setTimeout(() => proc.kill('SIGKILL'), 5_000);
    await gone;
    clearTimeout(force);
  };

  // Last resort (a crash, process.exit elsewhere): nothing asynchronous runs in 'exit'.
  const onExit = () => {
    if (cleaned) return;
    redisProc?.kill('SIGKILL');
    try {
      stopPostgresSync();
    } catch {
      // already down
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', onExit);

  try {
    log(`PostgreSQL: initdb in ${data} (${bin})`);
    pgToolSync(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'], Boolean(owner));
    await startPostgres();
    log(`PostgreSQL listening on 127.0.0.1:${pgPort}`);
    await startRedis();
    log(`Redis listening on 127.0.0.1:${redisPort}`);
  } catch (error) {
    onExit();
    cleaned = true;
    throw error;
  }

  return {
    dir,
    postgres: {
      port: pgPort,
      url: `postgresql://postgres@127.0.0.1:${pgPort}/postgres`,
      async restart(downMs) {
        const stoppedAt = Date.now();
        await stopPostgres('fast');
        await new Promise((r) => setTimeout(r, downMs));
        await startPostgres();
        return { stoppedAt, readyAt: Date.now() };
      },
      stop: () => stopPostgres('fast'),
    },
    redis: {
      port: redisPort,
      url: `redis://127.0.0.1:${redisPort}`,
      stop: stopRedis,
      start: startRedis,
    },
    async cleanup() {
      if (cleaned) return;
      cleaned = true;
      process.off('exit', onExit);
      await stopRedis().catch(() => redisProc?.kill('SIGKILL'));
      await stopPostgres('fast').catch(() => stopPostgres('immediate')).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
