// Child processes under test: TypeScript started with the tsx loader in-process (`node --import tsx`,
// so the pid we sample is the server itself, not a tsx wrapper), their output kept for diagnostics, and
// stopped with SIGTERM, then SIGKILL.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export interface Child {
  name: string;
  pid: number;
  proc: ChildProcess;
  /** The last ~64 KB of stdout and stderr, for error reports. */
  output(): string;
  /** Resolves with the first stdout line that parses as JSON and satisfies `test`. */
  waitForLine(test: (line: Record<string, unknown>) => boolean, timeoutMs: number): Promise<Record<string, unknown>>;
  /** Rejects if the process exits before stop() was called. */
  readonly exited: Promise<never>;
  stop(): Promise<void>;
}

const KEEP = 64 * 1024;

/**
 * The node flags the service runs with: package.json's `config.nodeFlags`, which `npm start`
 * passes. Every service process started here gets them, so what is measured is what runs.
 */
export const SERVICE_NODE_FLAGS: string[] = (
  (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { config?: { nodeFlags?: string } }).config?.nodeFlags ?? ''
)
  .split(/\s+/)
  .filter(Boolean);
const isService = (script: string) => /(^|\/)(dist\/main\.js|scripts\/start\.mjs)$/.test(script);

export function startNode(name: string, script: string, env: Record<string, string>, cwd: string, nodeArgs: string[] = []): Child {
  // TypeScript through tsx; JavaScript (the compiled service, scripts/start.mjs) as it is.
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  // The service's own flags first: `nodeArgs` may override them (a later V8 flag wins).
  const flags = isService(script) ? SERVICE_NODE_FLAGS : [];
  const proc = spawn(process.execPath, [...flags, ...loader, ...nodeArgs, script], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TZ: 'UTC', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (proc.pid === undefined) throw new Error(`${name}: could not start ${script}`);
  let out = '';
  const keep = (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-KEEP);
  };
  const lineListeners = new Set<(line: string) => void>();
  let pending = '';
  proc.stdout!.on('data', (chunk: Buffer) => {
    keep(chunk);
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) for (const l of lineListeners) l(line);
  });
  proc.stderr!.on('data', keep);

  let stopping = false;
  const exited = new Promise<never>((_, reject) => {
    proc.once('exit', (code, signal) => {
      if (!stopping) reject(new Error(`${name} exited unexpectedly (code ${code}, signal ${signal})\n${out}`));
    });
  });
  exited.catch(() => {}); // observed by whoever races it

  return {
    name,
    pid: proc.pid,
    proc,
    output: () => out,
    exited,
    waitForLine: (test, timeoutMs) =>
      Promise.race([
        exited,
        new Promise<Record<string, unknown>>((resolve, reject) => {
          const timer = setTimeout(() => {
            lineListeners.delete(listener);
            reject(new Error(`${name}: no start-up line within ${timeoutMs} ms\n${out}`));
          }, timeoutMs);
          const listener = (line: string) => {
            let parsed: unknown;
            try {
              parsed = JSON.parse(line);
            } catch {
              return;
            }
            if (parsed && typeof parsed === 'object' && test(parsed as Record<string, unknown>)) {
              clearTimeout(timer);
              lineListeners.delete(listener);
              resolve(parsed as Record<string, unknown>);
            }
          };
          lineListeners.add(listener);
        }),
      ]),
    stop: async () => {
      stopping = true;
      await stopProcess(proc);
    },
  };
}

/** SIGTERM, then SIGKILL after 5 s; resolves once the process has exited. */
export async function stopProcess(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
  await gone;
  clearTimeout(timer);
}

/** A port that was free a moment ago (the service is told to listen on it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Polls `url` until it answers 200, the child dies, or the timeout passes. */
export async function waitForHttp(url: string, child: Child, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const poll = async () => {
    for (;;) {
      try {
        const res = await fetch(url);
        await res.arrayBuffer();
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`${child.name}: ${url} not ready within ${timeoutMs} ms\n${child.output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  await Promise.race([child.exited, poll()]);
}
