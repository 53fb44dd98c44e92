// The service instances under soak: compiled JavaScript (`scripts/start.mjs` builds dist/ when it
// is stale, so the first instance starts as `npm start` does; the others, and every restart, run
// dist/main.js as it is then), each on a port of its own that it keeps across restarts, with RSS
// sampled every second. An exit nobody asked for is recorded as a crash (a disallowed failure) and
// the instance is started again, as a supervisor would, so the run goes on.
import { resolve } from 'node:path';
import { readStats } from '../../bench/lib/proc.js';
import { freePort, startNode, waitForHttp, type Child } from '../../bench/lib/processes.js';
import type { RssSample } from './checks.js';

const ROOT = resolve(import.meta.dirname, '../..');
const START_TIMEOUT_MS = 90_000;
/** After a refused connection, how long the balancer sends that instance's traffic elsewhere. */
const DOWN_FOR_MS = 500;

export interface Instance {
  index: number;
  name: string;
  port: number;
  url: string;
  child: Child;
  /** Until when the balancer avoids it (a refused connection, a kill). */
  downUntil: number;
  rss: RssSample[];
  /** Starts of this instance's process (1 + restarts). */
  generation: number;
  /** When its current process was started. */
  startedAt: number;
  /** Log lines at level warn (40) or above, by level and message, with the first of each. */
  errors: Map<string, { level: 'warn' | 'error'; count: number; sample: string; firstAt: number }>;
}

export interface Crash {
  instance: string;
  at: number;
  detail: string;
}

export interface Cluster {
  instances: Instance[];
  crashes: Crash[];
  /** The instance for a client whose home is `home`, avoiding one known to be down. */
  pick(home: number): Instance;
  markDown(instance: Instance): void;
  /** SIGKILL, then start it again once it has exited; resolves with when it was killed and back. */
  killAndRestart(index: number, downMs: number): Promise<{ killedAt: number; backAt: number }>;
  stop(): Promise<void>;
}

/** `envOf(i)`: what instance i's environment adds to `env` (its own REDIS_URL, say). */
export async function startCluster(
  count: number,
  env: Record<string, string>,
  log: (m: string) => void,
  envOf: (index: number) => Record<string, string> = () => ({}),
): Promise<Cluster> {
  const instances: Instance[] = [];
  const crashes: Crash[] = [];
  let stopping = false;
  /** Instances being killed on purpose (their exit is not a crash). */
  const killing = new Set<number>();

  async function launch(instance: Omit<Instance, 'child'> & { child?: Child }, script: string): Promise<Instance> {
    const child = startNode(instance.name, script, { ...env, ...envOf(instance.index), PORT: String(instance.port) }, ROOT, process.env.SOAK_NODE_IMPORT ? ['--import', process.env.SOAK_NODE_IMPORT] : []);
    const inst = instance as Instance;
    inst.child = child;
    inst.startedAt = Date.now();
    child.proc.stdout?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        const level = /^\{"level":(\d+)/.exec(line)?.[1];
        if (!level || Number(level) < 40) continue;
        let msg = 'unparsable';
        try {
          msg = String((JSON.parse(line) as { msg?: unknown }).msg);
        } catch {
          // a line split across chunks: counted under 'unparsable'
        }
        const severity = Number(level) < 50 ? 'warn' : 'error';
        const seen = inst.errors.get(`${severity} ${msg}`);
        if (seen) seen.count++;
        else inst.errors.set(`${severity} ${msg}`, { level: severity, count: 1, sample: line.slice(0, 1500), firstAt: Date.now() });
      }
    });
    child.proc.once('exit', (code, signal) => {
      if (stopping || killing.has(inst.index) || inst.child !== child) return;
      crashes.push({ instance: inst.name, at: Date.now(), detail: `exited (code ${code}, signal ${signal})\n${child.output().slice(-3000)}` });
      log(`${inst.name} CRASHED (code ${code}, signal ${signal}); starting it again`);
      inst.downUntil = Number.MAX_SAFE_INTEGER;
      void launch(inst, 'dist/main.js').then(
        () => (inst.downUntil = 0),
        (error: unknown) => log(`${inst.name} did not come back: ${String(error)}`),
      );
    });
    inst.generation++;
    await waitForHttp(`${inst.url}/readyz`, child, START_TIMEOUT_MS);
    return inst;
  }

  for (let i = 0; i < count; i++) {
    const port = await freePort();
    const name = String.fromCharCode(65 + i);
    const started = Date.now();
    // The first builds dist/ if it is stale and migrates and seeds the empty database.
    const inst = await launch(
      { index: i, name, port, url: `http://127.0.0.1:${port}`, downUntil: 0, rss: [], generation: 0, startedAt: 0, errors: new Map() },
      i === 0 ? 'scripts/start.mjs' : 'dist/main.js',
    );
    instances.push(inst);
    log(`instance ${name} ready on ${inst.url} (pid ${inst.child.pid}, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }

  const sampler = setInterval(() => {
    for (const inst of instances) {
      const pid = inst.child.pid;
      void readStats(pid).then((s) => {
        if (s && Number.isFinite(s.rssKb) && inst.child.pid === pid && inst.child.proc.exitCode === null) inst.rss.push({ at: Date.now(), kb: s.rssKb });
      });
    }
  }, 1_000);

  return {
    instances,
    crashes,
    pick(home) {
      const now = Date.now();
      const first = instances[home % instances.length]!;
      if (first.downUntil <= now) return first;
      return instances.find((i) => i.downUntil <= now) ?? first;
    },
    markDown(instance) {
      instance.downUntil = Math.max(instance.downUntil, Date.now() + DOWN_FOR_MS);
    },
    async killAndRestart(index, downMs) {
      const inst = instances[index]!;
      killing.add(index);
      const exited = new Promise<void>((r) => inst.child.proc.once('exit', () => r()));
      const killedAt = Date.now();
      inst.downUntil = Number.MAX_SAFE_INTEGER;
      inst.child.proc.kill('SIGKILL');
      await exited;
      await new Promise((r) => setTimeout(r, downMs));
      try {
        await launch(inst, 'dist/main.js');
      } finally {
        killing.delete(index);
      }
      inst.downUntil = 0;
      return { killedAt, backAt: Date.now() };
    },
    async stop() {
      stopping = true;
      clearInterval(sampler);
      await Promise.all(instances.map((i) => i.child.stop()));
    },
  };
}
